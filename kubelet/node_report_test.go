package kubelet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/sim"
)

// nodeStatusWrites are the kubelet's node status writes in the trace so far, as "at message".
func nodeStatusWrites(c *sim.Cluster, node string) []string {
	var out []string
	for _, e := range c.Trace.Events() {
		if e.Component == "kubelet/"+node && e.Action == "status" && e.Object == "nodes/"+node && e.ResourceVersion != "" {
			out = append(out, e.Message)
		}
	}
	return out
}

// The kubelet computes its node status every 10 seconds and writes it only when something changed
// (here: the images, once a pod's image is pulled) or when the last report is 5 minutes
// (nodeStatusReportFrequency) old; the checks in between write nothing, whichever way they find that
// nothing changed.
func TestNodeStatusIsWrittenOnChangeOrEveryFiveMinutes(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	runUntil(t, ctx, c, "node-1 registered", func() bool { return len(events(t, ctx, c, "node-1")) > 0 })
	require.NoError(t, c.Driver.Advance(ctx, 11*time.Minute))
	writes := nodeStatusWrites(c, "node-1")
	require.Len(t, writes, 2, "%q", writes)
	for _, w := range writes {
		assert.Contains(t, w, "heartbeat: nothing changed for 5m0s")
	}

	createPod(t, ctx, c, newPod("web", "node-1", "nginx:1.25"))
	runUntil(t, ctx, c, "web running", func() bool { return getPod(t, ctx, c, "web").Status.Phase == api.PodRunning })
	require.NoError(t, c.Driver.Advance(ctx, 30*time.Second)) // housekeeping lists the images, the next check sees them
	writes = nodeStatusWrites(c, "node-1")
	require.Len(t, writes, 3, "%q", writes)
	assert.True(t, strings.Contains(writes[2], "changed: images "), writes[2])
	n := getNode(t, ctx, c, "node-1")
	var names []string
	for _, img := range n.Status.Images {
		names = append(names, img.Names...)
	}
	assert.Contains(t, names, "docker.io/library/nginx:1.25")

	require.NoError(t, c.Driver.Advance(ctx, 4*time.Minute))
	assert.Len(t, nodeStatusWrites(c, "node-1"), 3, "nothing changed since the images")
	require.NoError(t, c.Driver.Advance(ctx, 90*time.Second))
	writes = nodeStatusWrites(c, "node-1")
	require.Len(t, writes, 4, "%q", writes)
	assert.Contains(t, writes[3], "heartbeat: nothing changed for 5m0s")
}
