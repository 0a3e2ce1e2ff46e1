package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOnlyTheKindsWhoseStrategySetsItKeepAGeneration(t *testing.T) {
	for _, obj := range []Object{&Pod{}, &Deployment{}, &ReplicaSet{}, &DaemonSet{}, &EndpointSlice{}, &PodDisruptionBudget{}, &PriorityClass{}} {
		assert.True(t, TracksGeneration(obj), "%T", obj)
	}
	for _, obj := range []Object{&Service{}, &Node{}, &Namespace{}, &Endpoints{}, &ConfigMap{}, &PersistentVolumeClaim{}, &Lease{}} {
		assert.False(t, TracksGeneration(obj), "%T", obj)
	}
}

func TestWhichUpdatesBumpGeneration(t *testing.T) {
	d := &Deployment{Spec: DeploymentSpec{Replicas: Ptr(int32(1))}}
	scaled := &Deployment{Spec: DeploymentSpec{Replicas: Ptr(int32(2))}}
	annotated := &Deployment{ObjectMeta: ObjectMeta{Annotations: map[string]string{"kubernetes.io/change-cause": "x"}}, Spec: d.Spec}
	labelled := &Deployment{ObjectMeta: ObjectMeta{Labels: map[string]string{"a": "b"}}, Spec: d.Spec}
	assert.True(t, BumpsGeneration(scaled, d), "a spec change")
	assert.True(t, BumpsGeneration(annotated, d), "a Deployment's annotations are copied to its ReplicaSets")
	assert.False(t, BumpsGeneration(labelled, d), "labels are not desired state")

	rs := &ReplicaSet{}
	assert.False(t, BumpsGeneration(&ReplicaSet{ObjectMeta: ObjectMeta{Annotations: map[string]string{"a": "b"}}}, rs))

	s := &EndpointSlice{}
	assert.True(t, BumpsGeneration(&EndpointSlice{ObjectMeta: ObjectMeta{Labels: map[string]string{"a": "b"}}}, s), "an EndpointSlice's labels count")
	assert.True(t, BumpsGeneration(&EndpointSlice{Endpoints: []Endpoint{{Addresses: []string{"10.244.0.2"}}}}, s))
	assert.False(t, BumpsGeneration(&EndpointSlice{Endpoints: []Endpoint{}}, s), "nil and empty are the same")

	assert.False(t, BumpsGeneration(&PriorityClass{Value: 2}, &PriorityClass{Value: 1}), "a PriorityClass stays at 1")
	assert.False(t, BumpsGeneration(&Service{Spec: ServiceSpec{ClusterIP: "None"}}, &Service{}), "a Service has none")
}
