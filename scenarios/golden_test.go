package scenarios_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/narrate"
	"kubesim/scenarios"
	"kubesim/sim"
)

var update = flag.Bool("update", false, "rewrite the golden stories in testdata/")

// goldenWidth is the width the golden stories are written at, whatever the terminal.
const goldenWidth = 110

func play(t *testing.T, name string, o narrate.Options) string {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	require.True(t, ok)
	var out bytes.Buffer
	err := sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &out, Narrate: o})
	require.NoError(t, err, "scenario %s: every expected sign is seen\n%s", name, out.String())
	return out.String()
}

// stories holds each scenario's text story (name -> string), played once per test run: the golden
// test and the tests of signs read the same story.
var stories sync.Map

// story is the scenario's English text story at goldenWidth, as `kubesim run NAME` prints it.
func story(t *testing.T, name string) string {
	t.Helper()
	if s, ok := stories.Load(name); ok {
		return s.(string)
	}
	s := play(t, name, narrate.Options{Width: goldenWidth})
	stories.Store(name, s)
	return s
}

// expectSigns checks that each sign, and the verdict that every expected sign was seen, appears in
// the scenario's story (wrapped lines joined).
func expectSigns(t *testing.T, name string, signs ...string) {
	t.Helper()
	told := strings.Join(strings.Fields(story(t, name)), " ")
	for _, sign := range append(signs, "every expected sign was seen") {
		assert.Contains(t, told, sign)
	}
}

// storyInChinese is the scenario's story as `kubesim run NAME --lang zh` tells it.
func storyInChinese(t *testing.T, name string) string {
	t.Helper()
	return play(t, name, narrate.Options{Lang: "zh"})
}

// expectHeadingsInChinese checks that every step heading of the scenario's Chinese story is
// translated (the boot line is the simulator's, not the scenario's).
func expectHeadingsInChinese(t *testing.T, name string) {
	t.Helper()
	for _, line := range strings.Split(storyInChinese(t, name), "\n") {
		if strings.HasPrefix(line, "── ") && !strings.Contains(line, "集群启动") {
			assert.Regexp(t, `\p{Han}`, line, "a step heading of %s left in English", name)
		}
	}
}

// TestScenariosTellTheirGoldenStory plays every scenario in step mode and compares the story a learner
// reads (the English text, at a fixed width) with testdata/NAME.txt; go test ./scenarios -update
// rewrites them. A second play in JSON, details included, must be byte-identical to a third: same
// scenario, same seed, same trace.
func TestScenariosTellTheirGoldenStory(t *testing.T) {
	t.Parallel() // beside TestEveryNarratedFormatHasChinese: their wall-clock waits overlap
	for _, sc := range scenarios.All() {
		t.Run(sc.Name, func(t *testing.T) {
			// A multi-member etcd elects its leaders and times its requests out on the wall clock:
			// those scenarios wait real seconds, so they wait side by side, and the golden story
			// (compared byte for byte) is their determinism check.
			wallClock := sc.Cluster.EtcdMembers > 1
			if wallClock {
				t.Parallel()
			}
			told := withoutSeq(story(t, sc.Name))
			golden := filepath.Join("testdata", sc.Name+".txt")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(told), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "no golden story yet: run go test ./scenarios -update")
			assert.Equal(t, string(want), told)

			if wallClock {
				return
			}
			first := play(t, sc.Name, narrate.Options{Format: "json"})
			second := play(t, sc.Name, narrate.Options{Format: "json"})
			require.Equal(t, first, second, "same scenario, same seed, same trace, details included")
		})
	}
}

// seqColumn is the text story's first column: each line's sequence number in the whole trace, hidden
// events included (and the header's "#").
var seqColumn = regexp.MustCompile(`(?m)^ *(#|\d+)  |^ {7}`)

// withoutSeq drops the sequence-number column, so that an event the story does not show (a detail)
// added or removed anywhere does not renumber the golden story.
func withoutSeq(story string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(story, "\n") {
		if strings.HasPrefix(line, "──") || !seqColumn.MatchString(line) {
			b.WriteString(line)
			continue
		}
		b.WriteString(seqColumn.ReplaceAllString(line, ""))
	}
	return b.String()
}
func TestAPIGatesShowsEveryGatesSign(t *testing.T) {
	story := story(t, "api-gates")
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
	told := storyInChinese(t, "api-gates")
	assert.Contains(t, told, "发生了什么")
	assert.Contains(t, told, "认证")
}

func TestMermaidDiagramHasTheParticipants(t *testing.T) {
	diagram := play(t, "api-gates", narrate.Options{Format: "mermaid"})
	assert.True(t, strings.HasPrefix(diagram, "sequenceDiagram\n"))
	for _, p := range []string{"participant kubectl", "participant API as kube-apiserver", "participant etcd", "API->>etcd: put /registry/deployments/default/nginx"} {
		assert.Contains(t, diagram, p)
	}
}
