package framework_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scheduler/framework"
)

func pod(uid, cpu string, hostPort int32) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: uid, Namespace: "default", UID: uid},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}
	if cpu != "" {
		p.Spec.Containers[0].Resources.Requests = resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)}
	}
	if hostPort > 0 {
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: hostPort}}
	}
	return p
}

func TestNodeInfoIsImmutableAndSumsRequests(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Status: api.NodeStatus{Allocatable: resource.ResourceList{
		resource.ResourceCPU: resource.MustParse("2"), resource.ResourcePods: resource.MustParse("110")}}}
	empty := framework.NewNodeInfo(node)
	one := empty.WithPod(framework.NewPodInfo(pod("a", "500m", 8080)))
	two := one.WithPod(framework.NewPodInfo(pod("b", "", 0)))

	assert.Empty(t, empty.Pods, "WithPod leaves the original alone")
	assert.Equal(t, int64(500), two.Requested.MilliCPU)
	assert.Equal(t, int64(500+framework.DefaultMilliCPURequest), two.NonZeroRequested.MilliCPU, "b requests nothing: 100m for scoring")
	assert.Equal(t, int64(2000), two.Allocatable.MilliCPU)
	assert.Equal(t, 110, two.Allocatable.AllowedPodNumber)
	assert.True(t, two.UsedPorts.Conflicts(framework.HostPort{IP: "0.0.0.0", Protocol: api.ProtocolTCP, Port: 8080}))
	assert.True(t, two.UsedPorts.Conflicts(framework.HostPort{IP: "10.0.0.1", Protocol: api.ProtocolTCP, Port: 8080}))
	assert.False(t, two.UsedPorts.Conflicts(framework.HostPort{IP: "0.0.0.0", Protocol: api.ProtocolUDP, Port: 8080}))

	back, removed := two.WithoutPod("a")
	assert.True(t, removed)
	assert.Len(t, back.Pods, 1)
	assert.Equal(t, int64(0), back.Requested.MilliCPU)
	assert.False(t, back.UsedPorts.Conflicts(framework.HostPort{IP: "0.0.0.0", Protocol: api.ProtocolTCP, Port: 8080}))
	assert.True(t, two.UsedPorts.Conflicts(framework.HostPort{IP: "0.0.0.0", Protocol: api.ProtocolTCP, Port: 8080}), "two is unchanged")
}

func TestSnapshotFindsNodesByName(t *testing.T) {
	var nodes []*framework.NodeInfo
	for _, n := range []string{"a", "b", "c"} {
		nodes = append(nodes, framework.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: n},
			Status: api.NodeStatus{Images: []api.ContainerImage{{Names: []string{"nginx:1.25"}, SizeBytes: 1 << 20}}}}))
	}
	s := framework.NewSnapshot(nodes)
	ni, err := s.Get("b")
	assert.NoError(t, err)
	assert.Equal(t, "b", ni.Name())
	_, err = s.Get("z")
	assert.Error(t, err)
	assert.Equal(t, 3, s.ImageNumNodes("nginx:1.25"))
	assert.False(t, s.HavePodsWithAffinity())
}

// The fields filters read on every node are copied out of the Node when it changes, and follow it:
// a node uncordoned, its taints changed, its labels changed.
func TestNodeInfoKeepsTheFieldsFiltersReadInStepWithTheNode(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{api.LabelHostname: "host-1", "rack": "r1"}},
		Spec: api.NodeSpec{Unschedulable: true, Taints: []api.Taint{
			{Key: "a", Effect: api.TaintEffectPreferNoSchedule},
			{Key: "b", Value: "1", Effect: api.TaintEffectNoExecute},
			{Key: "c", Effect: api.TaintEffectNoSchedule},
		}},
		Status: api.NodeStatus{Images: []api.ContainerImage{{Names: []string{"docker.io/library/nginx:1.25", "nginx:1.25"}, SizeBytes: 5 << 20}}}}
	ni := framework.NewNodeInfo(node).WithPod(framework.NewPodInfo(pod("p", "", 0)))
	assert.True(t, ni.Unschedulable())
	assert.Equal(t, []api.Taint{node.Spec.Taints[1], node.Spec.Taints[2]}, ni.NoScheduleTaints(), "NoExecute and NoSchedule, in the node's order")
	assert.Equal(t, []api.Taint{node.Spec.Taints[0]}, ni.PreferNoScheduleTaints())
	for key, want := range map[string]string{api.LabelHostname: "host-1", "rack": "r1"} {
		v, ok := ni.TopologyValue(key)
		assert.True(t, ok, key)
		assert.Equal(t, want, v, key)
	}
	_, ok := ni.TopologyValue(api.LabelTopologyZone)
	assert.False(t, ok, "no zone label")
	size, ok := ni.ImageSize(framework.NewImageKey("nginx:1.25"))
	assert.True(t, ok)
	assert.Equal(t, int64(5<<20), size)
	_, ok = ni.ImageSize(framework.NewImageKey("nginx:1.26"))
	assert.False(t, ok)

	updated := *node
	updated.Spec.Unschedulable = false
	updated.Spec.Taints = nil
	updated.Labels = map[string]string{api.LabelTopologyZone: ""}
	updated.Status.Images = nil
	after := ni.WithNode(&updated)
	assert.False(t, after.Unschedulable())
	assert.Empty(t, after.NoScheduleTaints())
	assert.Empty(t, after.PreferNoScheduleTaints())
	_, ok = after.TopologyValue(api.LabelHostname)
	assert.False(t, ok, "the hostname label removed")
	zone, ok := after.TopologyValue(api.LabelTopologyZone)
	assert.True(t, ok, "an empty zone label is still a label")
	assert.Equal(t, "", zone)
	_, ok = after.ImageSize(framework.NewImageKey("nginx:1.25"))
	assert.False(t, ok, "the image gone from the status")
	assert.Len(t, after.Pods, 1, "the pods stay")
	assert.True(t, ni.Unschedulable(), "the old NodeInfo is unchanged")
}

// A node reporting more images than a NodeInfo holds in itself still answers for every one of them.
func TestNodeInfoFindsEveryImageItReports(t *testing.T) {
	var images []api.ContainerImage
	for i := range 5 {
		images = append(images, api.ContainerImage{Names: []string{fmt.Sprintf("app-%d:1.0", i)}, SizeBytes: int64(i+1) << 20})
	}
	ni := framework.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Status: api.NodeStatus{Images: images}})
	assert.True(t, ni.HasImages())
	for i := range 5 {
		size, ok := ni.ImageSize(framework.NewImageKey(fmt.Sprintf("app-%d:1.0", i)))
		assert.True(t, ok, i)
		assert.Equal(t, int64(i+1)<<20, size, i)
	}
	_, ok := ni.ImageSize(framework.NewImageKey("app-5:1.0"))
	assert.False(t, ok)
	assert.False(t, framework.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "bare"}}).HasImages())
}
