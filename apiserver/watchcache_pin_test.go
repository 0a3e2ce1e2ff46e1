package apiserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
)

// A watch whose field selector pins metadata.name (a kubelet's watch of its own Node) or, for pods,
// spec.nodeName is filed under that pin, and a change is offered to the watchers of its pins only:
// the watchers of other nodes never see it, and nothing else is tested against them.
func TestPinnedWatchersHearOnlyTheirPins(t *testing.T) {
	c := newWatchCache(defaultWindow)
	nodes, _ := api.ResourceFor("nodes")
	pods, _ := api.ResourceFor("pods")
	watch := func(res *api.Resource, fieldSel string) *Watcher {
		sel, err := newSelection(res, "", "", fieldSel)
		require.NoError(t, err)
		w, err := c.watch(res, sel, nil, false)
		require.NoError(t, err)
		return w
	}
	nodeA, nodeB := watch(nodes, "metadata.name=node-a"), watch(nodes, "metadata.name=node-b")
	allNodes := watch(nodes, "")
	podsOnA, podNamedP := watch(pods, "spec.nodeName=node-a"), watch(pods, "metadata.name=p")
	notOnA := watch(pods, "spec.nodeName!=node-a")

	rc := c.resources["nodes"]
	assert.Len(t, rc.pinned, 2, "one set per pinned name")
	assert.Len(t, rc.watchers, 1, "only the unfiltered watch is offered every change")
	assert.NotContains(t, c.resources["pods"].watchers, podsOnA)
	assert.Contains(t, c.resources["pods"].watchers, notOnA, "an inequality pins nothing")

	a := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-a", ResourceVersion: "2"}}
	c.mu.Lock()
	rc.dispatch(cacheEvent{rev: 2, key: "node-a", obj: a})
	c.mu.Unlock()
	assert.Equal(t, []string{"ADDED node-a"}, heard(nodeA))
	assert.Empty(t, heard(nodeB))
	assert.Equal(t, []string{"ADDED node-a"}, heard(allNodes))

	// A pod bound to node-b after it was on node-a (as a test may write): node-a's watcher hears it
	// leave, the watcher of its name hears it change, node-b has no watcher.
	before, after := nginxPod("p"), nginxPod("p")
	before.Spec.NodeName, after.Spec.NodeName = "node-a", "node-b"
	before.ResourceVersion, after.ResourceVersion = "3", "4"
	prc := c.resources["pods"]
	c.mu.Lock()
	prc.dispatch(cacheEvent{rev: 3, key: "default/p", obj: before})
	prc.dispatch(cacheEvent{rev: 4, key: "default/p", obj: after, prev: before})
	c.mu.Unlock()
	assert.Equal(t, []string{"ADDED p", "DELETED p"}, heard(podsOnA))
	assert.Equal(t, []string{"ADDED p", "MODIFIED p"}, heard(podNamedP))
	assert.Equal(t, []string{"ADDED p"}, heard(notOnA), "on node-b it matches spec.nodeName!=node-a")

	for _, w := range []*Watcher{nodeA, nodeB, allNodes, podsOnA, podNamedP, notOnA} {
		w.Stop()
	}
	assert.Empty(t, rc.pinned, "a stopped watcher leaves its pin")
	assert.Empty(t, prc.pinned)
}

// heard is what w holds now, as "TYPE name".
func heard(w *Watcher) []string {
	var out []string
	for _, ev := range pending(w) {
		out = append(out, fmt.Sprintf("%s %s", ev.Type, ev.Object.GetObjectMeta().Name))
	}
	return out
}
