package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func kubesim(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestListAndDescribe(t *testing.T) {
	code, out, _ := kubesim("list")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "api-gates")
	code, out, _ = kubesim("describe", "api-gates")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Signs to look for")
}

func TestListAndDescribeInChinese(t *testing.T) {
	code, out, _ := kubesim("list", "--lang", "zh")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "删掉 nginx Deployment 的一个 Pod")
	code, out, _ = kubesim("describe", "api-gates", "--lang", "zh")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "要看的信号")
	assert.NotContains(t, out, "Signs to look for")

	file := filepath.Join(t.TempDir(), "heal.yaml")
	require.NoError(t, os.WriteFile(file, []byte("name: heal\nsummary: delete a pod\nsummary_zh: 删掉一个 Pod\n"+
		"teaches_zh: |\n  ReplicaSet 补上一个。\nsteps:\n  - say: hello\n"), 0o644))
	code, out, errOut := kubesim("describe", "-f", file, "--lang", "zh")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "heal: 删掉一个 Pod\n\nReplicaSet 补上一个。\n", out)

	for _, cmd := range [][]string{{"list"}, {"describe", "api-gates"}} {
		code, out, errOut = kubesim(append(cmd, "--lang", "fr")...)
		assert.Equal(t, 2, code, cmd)
		assert.Contains(t, errOut, `--lang: unknown language "fr": use en or zh`, cmd)
		assert.Empty(t, out, cmd)
	}
}

func TestRunWritesOneJSONObjectPerLine(t *testing.T) {
	code, out, errOut := kubesim("run", "api-gates", "--trace", "json")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.NotEmpty(t, lines)
	for i, line := range lines {
		var e map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &e), "line %d", i+1)
		for _, field := range []string{"seq", "time", "component", "action", "message"} {
			assert.Contains(t, e, field, "line %d", i+1)
		}
	}
}

func TestRunPlaysAScenarioFile(t *testing.T) {
	code, out, errOut := kubesim("run", "-f", "../../examples/scenarios/rbac-gates.yaml")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "every expected sign was seen")
}

func TestRunInRealTime(t *testing.T) {
	code, out, errOut := kubesim("run", "self-healing", "--speed", "100")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "real time at 100x")
	assert.Contains(t, out, "every expected sign was seen")
	code, _, errOut = kubesim("run", "scale", "--speed", "100")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "step mode only")
}

func TestBadInvocationsExplainThemselves(t *testing.T) {
	code, _, errOut := kubesim("run", "no-such-scenario")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no scenario named "no-such-scenario"; the scenarios are: api-gates`)
	code, _, errOut = kubesim("run", "api-gates", "--trace", "xml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--trace: unknown trace format "xml": use text, json or mermaid`)
	code, _, errOut = kubesim("run", "api-gates", "--until", "pods be happy")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--until")
	code, _, errOut = kubesim("run", "-f", "no/such/file.yaml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no/such/file.yaml")
	code, _, errOut = kubesim("frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown command "frobnicate"`)
	code, _, _ = kubesim()
	assert.Equal(t, 2, code)
}
