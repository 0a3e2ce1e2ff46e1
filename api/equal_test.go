package api

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/api/resource"
)

// Equal must say what reflect.DeepEqual says, for every shape an API object has: nil against empty,
// pointers, maps, interfaces, unexported fields (Quantity, Time), NaN.
func TestEqualAgreesWithReflectDeepEqual(t *testing.T) {
	pod := func() *Pod {
		return &Pod{ObjectMeta: ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"},
			CreationTimestamp: NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))},
			Spec: PodSpec{Containers: []Container{{Name: "c", Image: "nginx:1.25",
				Resources: ResourceRequirements{Limits: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m")}},
				Ports:     []ContainerPort{{ContainerPort: 80}}, Args: []string{"serve", "-q"}}},
				Tolerations:                   []Toleration{{Key: "k", TolerationSeconds: Ptr[int64](300)}},
				TerminationGracePeriodSeconds: Ptr[int64](10)}}
	}
	changes := map[string]func(p *Pod){
		"nothing":                  func(*Pod) {},
		"a label value":            func(p *Pod) { p.Labels["app"] = "api" },
		"labels nil, not empty":    func(p *Pod) { p.Labels = nil },
		"labels empty, not nil":    func(p *Pod) { p.Labels = map[string]string{} },
		"an extra label":           func(p *Pod) { p.Labels["tier"] = "front" },
		"a pointee":                func(p *Pod) { *p.Spec.Tolerations[0].TolerationSeconds = 30 },
		"a nil pointer":            func(p *Pod) { p.Spec.TerminationGracePeriodSeconds = nil },
		"a quantity":               func(p *Pod) { p.Spec.Containers[0].Resources.Limits[resource.ResourceCPU] = resource.MustParse("0.1") },
		"a time":                   func(p *Pod) { p.CreationTimestamp = NewTime(p.CreationTimestamp.Add(time.Second)) },
		"a slice nil, not empty":   func(p *Pod) { p.Spec.Containers[0].Ports = nil },
		"a slice empty, not nil":   func(p *Pod) { p.Spec.Containers[0].Ports = []ContainerPort{} },
		"a slice one longer":       func(p *Pod) { p.Spec.Tolerations = append(p.Spec.Tolerations, Toleration{}) },
		"a string deep in a slice": func(p *Pod) { p.Spec.Containers[0].Image = "nginx:1.26" },
		"strings nil, not empty":   func(p *Pod) { p.Spec.Containers[0].Args = nil },
		"strings empty, not nil":   func(p *Pod) { p.Spec.Containers[0].Args = []string{} },
		"a string in strings":      func(p *Pod) { p.Spec.Containers[0].Args[1] = "-v" },
	}
	for name, change := range changes {
		a, b := pod(), pod()
		change(b)
		assert.Equal(t, reflect.DeepEqual(a, b), Equal(&a, &b), name)
		assert.Equal(t, reflect.DeepEqual(*a, *b), Equal(a, b), name)
		assert.Equal(t, name == "nothing", Equal(a, b), name)
	}

	type hidden struct{ labels map[string]string } // unexported: compared without Interface
	h1, h2 := hidden{map[string]string{"a": "1"}}, hidden{map[string]string{"a": "1"}}
	assert.True(t, Equal(&h1, &h2))
	h2.labels["a"] = "2"
	assert.False(t, Equal(&h1, &h2))

	var x, y any = []int{1}, []int{1}
	assert.True(t, Equal(&x, &y), "interfaces holding equal values")
	y = []int64{1}
	assert.False(t, Equal(&x, &y), "interfaces holding values of different types")
	nan, nan2 := []float64{math.NaN()}, []float64{math.NaN()}
	assert.False(t, Equal(&nan, &nan2), "NaN is not equal to NaN")
	assert.True(t, Equal(&nan, &nan), "but the very same slice is equal to itself, as reflect.DeepEqual says")
	assert.Equal(t, reflect.DeepEqual(nan, nan), Equal(&nan, &nan))
}

// What Equal is for: comparing costs no allocation.
func TestEqualAllocatesNothing(t *testing.T) {
	a := []Toleration{{Key: "k", TolerationSeconds: Ptr[int64](300)}}
	b := []Toleration{{Key: "k", TolerationSeconds: Ptr[int64](300)}}
	Equal(&a, &b) // built once
	assert.Zero(t, testing.AllocsPerRun(100, func() { Equal(&a, &b) }))
}

// The comparison of a pod's containers with those its controller's last pod had (apiserver/share.go),
// equal but not shared: the generated equality against the reflective one it replaces.
func BenchmarkEqualContainers(b *testing.B) {
	x, y := fullPod().Spec.Containers, fullPod().Spec.Containers
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !Equal(&x, &y) {
				b.Fatal("unequal")
			}
		}
	})
	b.Run("reflective", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !reflectEqual(&x, &y) {
				b.Fatal("unequal")
			}
		}
	})
}
