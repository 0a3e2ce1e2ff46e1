package script_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/script"
)

func TestTraceConditionReadsItsFormsAndPrintsThemBack(t *testing.T) {
	for in, want := range map[string]string{
		"trace client web:80 reached":                   "trace client web:80 reached",
		"trace shop/client cart:8080 unreachable":       "trace shop/client cart:8080 unreachable",
		"trace client web:80 unreachable at rules":      "trace client web:80 unreachable at rules",
		"trace client web.shop:80 reached -n shop":      "trace shop/client web.shop:80 reached",
		"trace client 10.96.0.10:53 unreachable at pod": "trace client 10.96.0.10:53 unreachable at pod",
	} {
		cond, err := script.ParseCondition(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, cond.String(), in)
			again, err := script.ParseCondition(cond.String())
			require.NoError(t, err, "String() must parse again")
			assert.Equal(t, want, again.String())
		}
	}
	for in, problem := range map[string]string{
		"trace client web:80":                     "write it as trace FROM NAME:PORT reached",
		"trace client web reached":                `"web" is not NAME:PORT`,
		"trace client web:80 maybe":               `say reached, unreachable, or unreachable at HOP, not "maybe"`,
		"trace client web:80 unreachable at rule": `"rule" is not a hop: did you mean "rules"?`,
		"trace client web:80 reached at rules":    `not "reached at rules"`,
	} {
		_, err := script.ParseCondition(in)
		var ce *script.ConditionError
		if assert.ErrorAs(t, err, &ce, in) {
			assert.Contains(t, ce.Problem, problem, in)
		}
	}
}

func TestTraceStepMistakesNameTheLineAndTheFix(t *testing.T) {
	for file, want := range map[string]string{
		"name: x\nsteps:\n  - trace: {from: client}\n":              `line 3: trace needs from and to: "trace: {from: client, to: web:80}"`,
		"name: x\nsteps:\n  - trace: {from: client, to: web}\n":     `line 3: trace: to is NAME:PORT (a Service name, a DNS name or an IP, and a port), not "web"`,
		"name: x\nsteps:\n  - trace: {from: client, too: web:80}\n": `line 3: unknown field "too" in trace: did you mean "to"?`,
		"name: x\nsteps:\n  - trace: client\n":                      `line 3: trace is a mapping of keys to values (key: value), not "client"`,
	} {
		_, err := script.Parse([]byte(file), ".")
		var fe *script.FileError
		if assert.ErrorAs(t, err, &fe, file) {
			assert.Contains(t, fe.Error(), want, file)
		}
	}
}

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
