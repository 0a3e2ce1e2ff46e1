// swap.go: your plugin outside the grader. Started is what the grader asks first (has Validate been
// written?); Swap puts DisallowLatest in any scenario's kube-apiserver, its story compared with the
// story without it:
//
//	go run ./examples/labs/swap admission-latest create-deployment
package admissionlatest

import (
	"context"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/lab"
)

// Started is the TODO your Validate still answers, or nil once you have written it.
func Started() error {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "probe", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}}}
	return lab.Unfinished(DisallowLatest{}.Validate(context.Background(),
		apiserver.AdmissionRequest{Operation: "CREATE", Resource: "pods", Namespace: "default", Name: "probe", Object: pod}))
}

// Swap is DisallowLatest added to kube-apiserver's validating admission plugins.
func Swap() lab.Swap { return lab.WithAdmission(DisallowLatest{}) }
