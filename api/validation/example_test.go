package validation_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/api/validation"
)

// Example validates a Deployment with three mistakes and prints what the apiserver would answer.
func Example() {
	objs, err := api.Decode([]byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  namespace: default
spec:
  replicas: -1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
`))
	if err != nil {
		panic(err)
	}
	d := objs[0]
	api.SetDefaults(d)
	for _, e := range validation.ValidateObject(d) {
		fmt.Printf("%s\t%s\n", string(e.Type), e)
	}
	// Output:
	// FieldValueInvalid	spec.replicas: Invalid value: -1: must be greater than or equal to 0
	// FieldValueInvalid	spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`
	// FieldValueRequired	spec.template.spec.containers[0].image: Required value
}
