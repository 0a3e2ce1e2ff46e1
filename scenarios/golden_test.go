package scenarios_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/narrate"
	"kubesim/scenarios"
	"kubesim/sim"
	"kubesim/trace"
)

var update = flag.Bool("update", false, "rewrite the golden stories in testdata/")

// goldenWidth is the width the golden stories are written at, whatever the terminal.
const goldenWidth = 110

// A recording is one play of a scenario in step mode, seed 1: the text story it told and every
// event it recorded, shown or not. Each scenario is played once per language and test run, and
// every check reads the same recording: the golden story, the signs, the Chinese catalogue, the
// determinism check (the English play against the Chinese one) and the other formats, which tell
// the recorded events again (narrate).
type recording struct {
	once   sync.Once
	told   string
	events []trace.Event
	err    error
}

// recordings holds each scenario's plays: {name, lang} -> *recording.
var recordings sync.Map

type recordingKey struct{ name, lang string }

// record plays the scenario in lang ("en" at goldenWidth, as the golden story is written; "zh"
// unwrapped, as `kubesim run NAME --lang zh` prints to a pipe), once, and fails t if the play failed.
func record(t *testing.T, name, lang string) *recording {
	t.Helper()
	_, ok := scenarios.Lookup(name)
	require.True(t, ok, name)
	rec := recordingOf(name, lang)
	require.NoError(t, rec.err, "scenario %s (%s): every expected sign is seen\n%s", name, lang, rec.told)
	return rec
}

// recordingOf is the scenario's play in lang, played by the first caller; the others wait for it.
func recordingOf(name, lang string) *recording {
	r, _ := recordings.LoadOrStore(recordingKey{name, lang}, &recording{})
	rec := r.(*recording)
	rec.once.Do(func() {
		sc, _ := scenarios.Lookup(name)
		o := narrate.Options{Lang: lang}
		if lang == "en" {
			o.Width = goldenWidth
		}
		var out bytes.Buffer
		rec.err = sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &out, Narrate: o,
			Record: func(e trace.Event) { rec.events = append(rec.events, e) }})
		rec.told = out.String()
	})
	return rec
}

// TestMain, for a run of every test, starts the wall-clock plays before the first test: their real
// seconds pass while the step-mode scenarios play. It also plays the step-mode scenarios ahead of the
// tests, as many at once as there are CPUs: the tests read the plays in their own order, one at a time
// (a sequential test waits for each), and would otherwise leave all but one CPU idle. A run of some
// tests (-run) starts the wall-clock plays when a test that reads them all begins, and plays the others
// when a test reads them.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.run").Value.String() == "" {
		playWallClockScenarios()
		playStepModeScenariosAhead(runtime.GOMAXPROCS(0))
	}
	os.Exit(m.Run())
}

// playStepModeScenariosAhead plays every step-mode scenario in both languages (the English play and
// the Chinese one the tests compare), workers at a time, in the background.
func playStepModeScenariosAhead(workers int) {
	plays := make(chan recordingKey)
	go func() {
		defer close(plays)
		for _, lang := range []string{"zh", "en"} { // zh first: the first sequential test reads them
			for _, sc := range scenarios.All() {
				if sc.Cluster.EtcdMembers <= 1 {
					plays <- recordingKey{sc.Name, lang}
				}
			}
		}
	}()
	for range workers {
		go func() {
			for k := range plays {
				recordingOf(k.name, k.lang)
			}
		}()
	}
}

// playWallClockScenarios starts the plays of the scenarios whose etcd waits on the wall clock (its
// elections and request timeouts), side by side: their real seconds pass while the step-mode
// scenarios play, and the tests that read them find them recorded.
func playWallClockScenarios() {
	for _, sc := range scenarios.All() {
		if sc.Cluster.EtcdMembers > 1 {
			go recordingOf(sc.Name, "en")
		}
	}
}

// story is the scenario's English text story at goldenWidth, as `kubesim run NAME` prints it.
func story(t *testing.T, name string) string {
	t.Helper()
	return record(t, name, "en").told
}

// retell tells recorded events again, as o's narrator tells them while a scenario plays.
func retell(t *testing.T, events []trace.Event, o narrate.Options) string {
	t.Helper()
	var out bytes.Buffer
	n, err := narrate.New(&out, o)
	require.NoError(t, err)
	for _, e := range events {
		n.Event(e)
	}
	require.NoError(t, n.Close())
	return out.String()
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
	return record(t, name, "zh").told
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
// rewrites them. The Chinese play must record the same events, details included, as the English one:
// same scenario, same seed, same trace.
func TestScenariosTellTheirGoldenStory(t *testing.T) {
	t.Parallel() // beside TestEveryNarratedFormatHasChinese: both read the same plays
	playWallClockScenarios()
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
			json := narrate.Options{Format: "json"}
			first, second := retell(t, record(t, sc.Name, "en").events, json), retell(t, record(t, sc.Name, "zh").events, json)
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
	diagram := retell(t, record(t, "api-gates", "en").events, narrate.Options{Format: "mermaid"})
	assert.True(t, strings.HasPrefix(diagram, "sequenceDiagram\n"))
	for _, p := range []string{"participant kubectl", "participant API as kube-apiserver", "participant etcd", "API->>etcd: put /registry/deployments/default/nginx"} {
		assert.Contains(t, diagram, p)
	}
}
