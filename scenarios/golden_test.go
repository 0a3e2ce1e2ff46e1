package scenarios_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/scenarios"
	"kubesim/sim"
	"kubesim/sim/narrate"
)

var update = flag.Bool("update", false, "rewrite the golden traces in testdata/")

func play(t *testing.T, name, format string) string {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	require.True(t, ok)
	var out bytes.Buffer
	err := sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &out, Narrate: narrate.Options{Format: format}})
	require.NoError(t, err, "scenario %s: every expected sign is seen\n%s", name, out.String())
	return out.String()
}

// TestScenariosAreDeterministicAndMatchTheirGoldenTrace plays every scenario twice in step mode: the
// JSON traces must be byte-identical, and equal to the golden file (go test ./scenarios -update rewrites it).
func TestScenariosAreDeterministicAndMatchTheirGoldenTrace(t *testing.T) {
	for _, sc := range scenarios.All() {
		t.Run(sc.Name, func(t *testing.T) {
			first := play(t, sc.Name, "json")
			second := play(t, sc.Name, "json")
			require.Equal(t, first, second, "same scenario, same seed, same trace, details included")
			// The golden file keeps the story (every line that is not a detail), which is what a
			// reviewer reads in a diff; the comparison above already covers the details.
			story := storyLines(t, first)
			golden := filepath.Join("testdata", sc.Name+".jsonl")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(story), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "no golden trace yet: run go test ./scenarios -update")
			assert.Equal(t, string(want), story)
		})
	}
}

// storyLines keeps the JSON lines that are not details.
func storyLines(t *testing.T, jsonl string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.SplitAfter(jsonl, "\n") {
		if line != "" && !strings.Contains(line, `"detail":true`) {
			b.WriteString(line)
		}
	}
	return b.String()
}

func TestAPIGatesShowsEveryGatesSign(t *testing.T) {
	story := play(t, "api-gates", "text")
	for _, sign := range []string{
		"put /registry/deployments/default/nginx -> revision",
		"Error from server (Unauthorized): Unauthorized",
		"certificate has expired",
		`Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`,
		`RBAC: allowed by RoleBinding "default/alice-view" of ClusterRole "view" to User "alice"`,
		`Error from server (NotFound): namespaces "nowhere" not found`,
		`Error from server (Invalid): Deployment.apps "Nginx_Web" is invalid`,
		`unknown field "spec.containers[0].imagePullPolcy"`,
		"please apply your changes to the latest version and try again",
		`Error from server (AlreadyExists): deployments.apps "nginx" already exists`,
		"dry run, nothing written to etcd",
		"410 Gone (too old resource version",
		"every expected sign was seen",
	} {
		assert.Contains(t, strings.Join(strings.Fields(story), " "), sign, "wrapped lines joined")
	}
}

func TestAPIGatesTellsTheStoryInChinese(t *testing.T) {
	sc, _ := scenarios.Lookup("api-gates")
	var out bytes.Buffer
	require.NoError(t, sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &out, Narrate: narrate.Options{Lang: "zh"}}))
	assert.Contains(t, out.String(), "发生了什么")
	assert.Contains(t, out.String(), "认证")
}

func TestMermaidDiagramHasTheParticipants(t *testing.T) {
	diagram := play(t, "api-gates", "mermaid")
	assert.True(t, strings.HasPrefix(diagram, "sequenceDiagram\n"))
	for _, p := range []string{"participant kubectl", "participant API as kube-apiserver", "participant etcd", "API->>etcd: put /registry/deployments/default/nginx"} {
		assert.Contains(t, diagram, p)
	}
}
