package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A first contact reads the short story: create-deployment in at most 50 lines, the article's steps
// as headings in order, and every sign still seen (issue 12).
func TestRunTellsTheShortStoryByDefault(t *testing.T) {
	code, out, errOut := kubesim("run", "create-deployment")
	require.Equal(t, 0, code, errOut+out)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	assert.LessOrEqual(t, len(lines), 50, out)
	assert.Contains(t, out, "every expected sign was seen")
	at := 0
	for _, heading := range []string{
		"▸ kubectl and the apiserver's gates", "▸ etcd", "▸ the Deployment controller", "▸ the ReplicaSet controller",
		"▸ the scheduler", "▸ the kubelet and the runtime", "▸ status rolls up",
	} {
		i := strings.Index(out[at:], heading)
		require.GreaterOrEqual(t, i, 0, "heading %q after the previous one\n%s", heading, out)
		at += i
	}
	// How each component learned, what it decided, what it wrote.
	assert.Contains(t, out, "watch ADDED deployments/default/nginx")
	assert.Contains(t, out, "-> activeQ")
	assert.Regexp(t, `bind default/nginx-\S+ -> node-\d → etcd revision \d+`, out)
	assert.Contains(t, out, "… and the same for 2 more")

	code, verbose, _ := kubesim("run", "create-deployment", "--verbose")
	require.Equal(t, 0, code)
	assert.Greater(t, strings.Count(verbose, "\n"), 150, "--verbose tells the whole story")
}

// --follow keeps only what touches one object.
func TestRunFollowsOneObject(t *testing.T) {
	code, out, errOut := kubesim("run", "create-deployment", "--follow", "deployment/nginx", "--verbose")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "reconcile default/nginx:")
	assert.NotContains(t, out, "kubelet/")
	code, _, errOut = kubesim("run", "create-deployment", "--follow", "nginx")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "KIND/NAME")
}

// The short story's own lines are told in Chinese too.
func TestRunTellsTheShortStoryInChinese(t *testing.T) {
	code, out, errOut := kubesim("run", "create-deployment", "--lang", "zh")
	require.Equal(t, 0, code, errOut+out)
	for _, s := range []string{"▸ 调度器", "▸ kubelet 与容器运行时", "▸ 状态逐级汇总", "其余 2 个同样如此", "写入 etcd，revision", "个节点已注册并 Ready"} {
		assert.Contains(t, out, s)
	}
}
