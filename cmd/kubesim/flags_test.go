// Tests of the command line: flags anywhere, each number against its range before anything starts,
// every error printed whatever the trace mode, and help, version and completion for every command.
package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryErrorIsPrintedInEveryTraceMode(t *testing.T) {
	for _, trace := range []string{"text", "json", "mermaid"} {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"--lang", "fr"}, `--lang: unknown language "fr": use en or zh`},
			{[]string{"--nodes", "5001"}, "--nodes must be 1..5000, not 5001: Kubernetes is tested up to 5000 nodes per cluster"},
			{[]string{"--nodes", "-3"}, "--nodes must be 1..5000, not -3"},
			{[]string{"--nodes", "0"}, "--nodes must be 1..5000, not 0"},
			{[]string{"--speed", "0"}, "--speed must be 0.1..10000"},
			{[]string{"--speed", "-1"}, "--speed must be 0.1..10000"},
			{[]string{"--speed", "NaN"}, "--speed must be 0.1..10000 (how many times faster than the wall clock; 60 plays a minute a second), not NaN"},
			{[]string{"--speed", "Inf"}, "--speed must be 0.1..10000"},
			{[]string{"--speed", "1e-9"}, "--speed must be 0.1..10000"},
			{[]string{"--steps", "-1"}, "--steps must be at least 1"},
		} {
			args := append([]string{"run", "create-deployment", "--trace", trace}, tc.args...)
			code, out, errOut := kubesim(args...)
			assert.Equal(t, 2, code, "%v", args)
			assert.Contains(t, errOut, tc.want, "%v", args)
			assert.Empty(t, out, "%v: nothing started", args)
		}
	}
}

func TestAFailedRunIsReportedOnStderrUnlessTheStoryToldIt(t *testing.T) {
	until := []string{"run", "api-gates", "--until", "deployment nope available"}
	code, out, errOut := kubesim(until...)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "deployment nope available never held: the scenario ran to its end first")
	assert.Empty(t, errOut, "the text story's last line told it")

	code, out, errOut = kubesim(append(until, "--trace", "json")...)
	assert.Equal(t, 1, code)
	assert.NotContains(t, out, "never held")
	assert.Contains(t, errOut, "kubesim: scenario api-gates failed: deployment nope available never held")
}

func TestFlagsMayFollowTheScenarioNameAndExtraNamesAreRefused(t *testing.T) {
	code, _, errOut := kubesim("run", "create-deployment", "node-down", "--trace", "json")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "kubesim run takes one scenario, got 2: create-deployment node-down")

	code, out, errOut := kubesim("run", "--seed", "2", "api-gates", "--trace", "json", "--steps", "3")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "{"), "the --trace after the name is read: %.80s", out)

	code, _, errOut = kubesim("describe", "api-gates", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "takes one scenario, got 2")
}

func TestStepsAndBreakpointsSayWhereTheyStopped(t *testing.T) {
	code, out, errOut := kubesim("run", "create-deployment", "--steps", "5")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "\nstopped after 5 steps (")
	assert.NotContains(t, out, "stopped at the breakpoint")
}

func TestEveryCommandHasItsOwnHelp(t *testing.T) {
	for cmd, want := range map[string]string{
		"run":        "usage: kubesim run NAME [flags]",
		"describe":   "usage: kubesim describe NAME",
		"bench":      "usage: kubesim bench [NAME...]",
		"explain":    "usage: kubesim explain -f MANIFEST",
		"list":       "usage: kubesim list",
		"version":    "usage: kubesim version",
		"completion": "usage: kubesim completion bash|zsh|fish",
		"serve":      "usage: kubesim serve [flags]",
		"net":        "kubesim net trace (-f MANIFEST | --scenario NAME)",
		"snapshot":   "kubesim snapshot save FILE",
	} {
		code, out, errOut := kubesim("help", cmd)
		assert.Equal(t, 0, code, cmd)
		assert.Contains(t, out, want, "kubesim help %s", cmd)
		assert.Empty(t, errOut, cmd)
		code, _, errOut = kubesim(cmd, "--help")
		assert.Equal(t, 0, code, cmd)
		assert.Contains(t, errOut, want, "kubesim %s --help", cmd)
		assert.NotContains(t, errOut, "Usage of", "kubesim %s --help is not Go's default", cmd)
	}
	code, out, _ := kubesim("help", "run")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "-speed float")
	code, _, errOut := kubesim("help", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown command "frobnicate"`)
}

func TestExplainSaysWhatIsMissing(t *testing.T) {
	code, _, errOut := kubesim("explain", "-f", "web.yaml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "kubesim explain: missing --pod NAMESPACE/NAME (the pod to explain)")
	code, _, errOut = kubesim("explain")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "missing -f MANIFEST (the objects to apply) and --pod NAMESPACE/NAME")
	code, _, errOut = kubesim("explain", "-f", "web.yaml", "--pod", "default/web", "--nodes", "6000")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--nodes must be 1..5000, not 6000")
}

func TestVersion(t *testing.T) {
	code, out, _ := kubesim("version")
	assert.Equal(t, 0, code)
	assert.Regexp(t, `^kubesim \S+.*, go1\.\d+`, out)
}

func TestCompletionScripts(t *testing.T) {
	code, bash, _ := kubesim("completion", "bash")
	require.Equal(t, 0, code)
	for _, want := range []string{"complete -o default -F _kubesim kubesim", "api-gates", "--speed", "describe"} {
		assert.Contains(t, bash, want)
	}
	if sh, err := exec.LookPath("bash"); err == nil {
		check := exec.Command(sh, "-n")
		check.Stdin = strings.NewReader(bash)
		out, err := check.CombinedOutput()
		assert.NoError(t, err, "bash -n: %s", out)
	}
	code, zsh, _ := kubesim("completion", "zsh")
	require.Equal(t, 0, code)
	assert.Contains(t, zsh, "bashcompinit")
	code, fish, _ := kubesim("completion", "fish")
	require.Equal(t, 0, code)
	assert.Contains(t, fish, "complete -c kubesim -n '__fish_seen_subcommand_from run' -o speed -l speed")
	code, _, errOut := kubesim("completion", "tcsh")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no completion for shell "tcsh"`)
}

func TestDescribeAScenarioFile(t *testing.T) {
	code, out, errOut := kubesim("describe", "-f", filepath.Join("..", "..", "examples", "scenarios", "rbac-gates.yaml"))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "rbac-gates: alice is refused (403) until a RoleBinding lets her read")
	assert.Contains(t, out, "Every request passes the same gates in kube-apiserver")
	code, _, errOut = kubesim("describe", "-f", "no/such/file.yaml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no/such/file.yaml")
}
