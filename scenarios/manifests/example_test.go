package manifests_test

import (
	"fmt"
	"strings"

	"kubesim/scenarios/manifests"
)

// The articles' Deployment, as `kubectl apply -f nginx-deployment.yaml` reads it.
func ExampleRead() {
	for _, line := range strings.Split(manifests.Read("nginx-deployment.yaml"), "\n")[1:5] {
		fmt.Println(line)
	}
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: nginx
}
