package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// gate 1, authentication:  401 Unauthorized
	// gate 2, authorization:   403 pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"
	// gate 4, validation:      422 Deployment.apps "broken" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
	// every gate passed:       201 deployment nginx stored at resourceVersion 35
	// persist, concurrency:    409 Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again
}
