package script_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The example's trace steps tell every hop, and its conditions check the verdict: unreachable at
// the rules hop while the selector matches nothing, reached once it is fixed.
func TestTraceStepTellsEachHopOfTheExample(t *testing.T) {
	story, err := breakExample(t, "service-reachability.yaml", "  - say: The pods run", "")
	require.NoError(t, err, story)
	for _, line := range []string{
		"$ kubesim net trace --from client --to web:80",
		"hop 1 ok: pod default/client on node-",
		"hop 2 ok: dnsPolicy ClusterFirst",
		"hop 4 FAILED: node-",
		"Service default/web has no endpoints: the selector app=web matches no pod in namespace default",
		"unreachable: stopped at the rules hop",
		"expect: ✓ trace client web:80 unreachable at rules",
		"expect: ✓ trace client web:80 reached",
		"hop 6 ok: container nginx listens on 80",
		"reached: 10.244.",
	} {
		assert.Contains(t, story, line)
	}
}
