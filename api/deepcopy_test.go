package api

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api/resource"
)

// fullPod has a value in every kind of field: maps, slices of structs, pointers, quantities, times.
func fullPod() *Pod {
	start := NewTime(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))
	return &Pod{
		TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: ObjectMeta{
			Name: "web-1", Namespace: "default",
			Labels:          map[string]string{"app": "web"},
			OwnerReferences: []OwnerReference{{Kind: "ReplicaSet", Name: "web", Controller: Ptr(true)}},
			Finalizers:      []string{"example.com/keep"},
		},
		Spec: PodSpec{
			Containers: []Container{{
				Name: "web", Image: "nginx:1.25", Command: []string{"nginx"},
				Resources: ResourceRequirements{
					Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m")},
					Limits:   resource.ResourceList{resource.ResourceMemory: resource.MustParse("128Mi")},
				},
				LivenessProbe: &Probe{ProbeHandler: ProbeHandler{HTTPGet: &HTTPGetAction{Path: "/", Port: FromInt32(80)}}},
			}},
			NodeSelector:                  map[string]string{LabelOSStable: "linux"},
			TerminationGracePeriodSeconds: Ptr[int64](30),
			Affinity: &Affinity{NodeAffinity: &NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &NodeSelector{
				NodeSelectorTerms: []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: NodeSelectorOpIn, Values: []string{"a"}}}}},
			}}},
			Tolerations: []Toleration{{Key: TaintNodeNotReady, Operator: TolerationOpExists, TolerationSeconds: Ptr[int64](300)}},
		},
		Status: PodStatus{
			Phase:     PodRunning,
			StartTime: &start,
			ContainerStatuses: []ContainerStatus{{
				Name: "web", State: ContainerState{Running: &ContainerStateRunning{StartedAt: start}}, Started: Ptr(true),
			}},
		},
	}
}

func TestDeepCopyIsEqualButIndependent(t *testing.T) {
	orig := fullPod()
	cp := DeepCopy(orig)
	require.Equal(t, orig, cp)
	require.NotSame(t, orig, cp)

	// Change everything reachable in the copy; the original must not notice.
	cp.Labels["app"] = "changed"
	cp.OwnerReferences[0].Name = "changed"
	*cp.OwnerReferences[0].Controller = false
	cp.Finalizers[0] = "changed"
	c := &cp.Spec.Containers[0]
	c.Command[0] = "changed"
	c.Resources.Requests[resource.ResourceCPU] = resource.MustParse("2")
	c.Resources.Limits[resource.ResourceMemory] = resource.MustParse("1Gi")
	c.LivenessProbe.HTTPGet.Path = "/changed"
	cp.Spec.NodeSelector[LabelOSStable] = "windows"
	*cp.Spec.TerminationGracePeriodSeconds = 0
	cp.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values[0] = "b"
	*cp.Spec.Tolerations[0].TolerationSeconds = 1
	cp.Status.StartTime.Time = time.Time{}
	cp.Status.ContainerStatuses[0].State.Running.StartedAt = Time{}
	*cp.Status.ContainerStatuses[0].Started = false

	assert.Equal(t, fullPod(), orig)
}

func TestDeepCopyKeepsNilsNil(t *testing.T) {
	cp := DeepCopy(&Pod{})
	assert.Nil(t, cp.Labels)
	assert.Nil(t, cp.Spec.Containers)
	assert.Nil(t, cp.Spec.Affinity)

	var none *Pod
	assert.Nil(t, DeepCopy(none))
}

func TestDeepCopyOfEveryRegisteredKind(t *testing.T) {
	for _, r := range Resources() {
		obj := r.NewObject()
		obj.GetObjectMeta().Labels = map[string]string{"a": "b"}
		cp := DeepCopy(obj)
		assert.Equal(t, obj, cp, r.Kind)
		cp.GetObjectMeta().Labels["a"] = "c"
		assert.Equal(t, "b", obj.GetObjectMeta().Labels["a"], r.Kind)
	}
}

func TestDeepCopyIsSafeConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := DeepCopy(&Deployment{Spec: DeploymentSpec{Template: PodTemplateSpec{Spec: fullPod().Spec}}})
			assert.Len(t, d.Spec.Template.Spec.Containers, 1)
		}()
	}
	wg.Wait()
}

// A self-referential type must not send the copier builder into a loop.
type treeNode struct {
	TypeMeta
	ObjectMeta
	Children []*treeNode
	Next     *treeNode
}

func TestDeepCopyOfARecursiveType(t *testing.T) {
	leaf := &treeNode{ObjectMeta: ObjectMeta{Name: "leaf"}}
	root := &treeNode{ObjectMeta: ObjectMeta{Name: "root"}, Children: []*treeNode{leaf}, Next: &treeNode{Children: []*treeNode{{}}}}
	cp := DeepCopy(root)
	require.Equal(t, root, cp)
	cp.Children[0].Name = "changed"
	assert.Equal(t, "leaf", leaf.Name)
}

// The generated copy (zz_generated.copy.go) against the reflective one it replaces.
func BenchmarkDeepCopyPod(b *testing.B) {
	pod := fullPod()
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			DeepCopy(pod)
		}
	})
	b.Run("reflective", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			reflectDeepCopy(pod)
		}
	})
}
