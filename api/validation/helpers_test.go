package validation

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/resource"
)

// wantErr is one expected error: where, and what kind.
type wantErr struct {
	field string
	typ   field.ErrorType
}

// requireErrors asserts that errs holds exactly the expected (field, type) pairs, in any order.
func requireErrors(t *testing.T, errs field.ErrorList, want ...wantErr) {
	t.Helper()
	got := make([]wantErr, len(errs))
	for i, e := range errs {
		got[i] = wantErr{e.Field, e.Type}
	}
	assert.ElementsMatch(t, want, got, "errors: %v", errs)
}

// requireError asserts that errs contains an error at path of type typ and returns it.
func requireError(t *testing.T, errs field.ErrorList, path string, typ field.ErrorType) *field.Error {
	t.Helper()
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return e
		}
	}
	require.Failf(t, "missing error", "want %s at %s, got %v", typ, path, errs)
	return nil
}

// validPodSpec is a pod spec as it looks after defaulting: every field defaulting fills is set.
func validPodSpec() api.PodSpec {
	return api.PodSpec{
		Containers: []api.Container{{
			Name:            "nginx",
			Image:           "nginx:1.25",
			Ports:           []api.ContainerPort{{ContainerPort: 80, Protocol: api.ProtocolTCP}},
			ImagePullPolicy: api.PullIfNotPresent,
			Resources: api.ResourceRequirements{
				Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("250m")},
				Limits:   resource.ResourceList{resource.ResourceCPU: resource.MustParse("500m")},
			},
		}},
		RestartPolicy:                 api.RestartPolicyAlways,
		DNSPolicy:                     api.DNSClusterFirst,
		SchedulerName:                 api.DefaultSchedulerName,
		TerminationGracePeriodSeconds: api.Ptr[int64](30),
	}
}

func validPod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default", Labels: map[string]string{"app": "nginx"}},
		Spec:       validPodSpec(),
	}
}

// validDeployment is the seed's nginx Deployment with Kubernetes' defaults filled in.
func validDeployment() *api.Deployment {
	quarter := api.FromString("25%")
	return &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
		Spec: api.DeploymentSpec{
			Replicas: api.Ptr[int32](3),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec:       validPodSpec(),
			},
			Strategy: api.DeploymentStrategy{
				Type:          api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: &quarter, MaxSurge: api.Ptr(quarter)},
			},
			RevisionHistoryLimit:    api.Ptr[int32](10),
			ProgressDeadlineSeconds: api.Ptr[int32](600),
		},
	}
}

func longName(n int) string { return strings.Repeat("a", n) }

var testTime = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
