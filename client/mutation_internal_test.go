package client

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

// The detector panics when a cached object was changed in place, and only then.
func TestMutationDetectorCatchesAnInPlaceChange(t *testing.T) {
	d := &mutationDetector{seen: map[string][]byte{}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}}}
	d.cached("default/web", pod)
	assert.NotPanics(t, func() { d.leaving("kubelet/node-1 pods", "default/web", pod) }, "unchanged")

	d.cached("default/web", pod)
	pod.Labels["app"] = "db" // what a handler must never do to an object from the cache
	assert.PanicsWithValue(t, "cache mutation detected: object default/web in the cache of kubelet/node-1 pods was changed in place:\n"+
		`was {"metadata":{"name":"web","namespace":"default","creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":null},"status":{}}`+"\n"+
		`now {"metadata":{"name":"web","namespace":"default","creationTimestamp":null,"labels":{"app":"db"}},"spec":{"containers":null},"status":{}}`,
		func() { d.leaving("kubelet/node-1 pods", "default/web", pod) })

	var off *mutationDetector // the detector off: nothing is kept, nothing panics
	off.cached("default/web", pod)
	pod.Labels["app"] = "cache"
	assert.NotPanics(t, func() { off.leaving("x", "default/web", pod) })
}
