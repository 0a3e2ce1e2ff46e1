package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/wire"
)

// Which of a kubelet's requests wait for the watch cache to hold every pod this apiserver wrote:
// those whose Node authorizer answer reads the pods bound to the node, and no others.
func TestOnlyNodeRequestsThatReadPodsWaitForThePodCache(t *testing.T) {
	cases := []struct {
		verb, resource, subresource string
		waits                       bool
	}{
		{wire.VerbGet, "pods", "", true},
		{wire.VerbGet, "configmaps", "", true},
		{wire.VerbGet, "secrets", "", true},
		{wire.VerbGet, "persistentvolumeclaims", "", true},
		{wire.VerbList, "pods", "", false}, // pinned to its node by the field selector
		{wire.VerbWatch, "pods", "", false},
		{wire.VerbUpdate, "pods", "status", false},
		{wire.VerbCreate, "pods", "", false},
		{wire.VerbUpdate, "leases", "", false},
		{wire.VerbCreate, "events", "", false},
		{wire.VerbUpdate, "nodes", "status", false},
		{wire.VerbGet, "services", "", false},
	}
	for _, c := range cases {
		a := attributes{verb: c.verb, resource: c.resource, subresource: c.subresource}
		assert.Equal(t, c.waits, a.nodeAuthorizerReadsPods(), "%s %s/%s", c.verb, c.resource, c.subresource)
	}
}
