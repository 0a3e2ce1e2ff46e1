package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/store"
)

func writeNodeSpec(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nodes.yaml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

func TestNodeSpecFileTakesDefaultsAndNamesEachMistake(t *testing.T) {
	specs, err := readNodeSpecs(writeNodeSpec(t, `
- name: gpu-1
  cpu: "8"
  memory: 32Gi
  labels: {accelerator: nvidia}
  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
- arch: arm64
`))
	require.NoError(t, err)
	require.Len(t, specs, 2)
	assert.Equal(t, "gpu-1", specs[0].Name)
	assert.Equal(t, "8", specs[0].CPU)
	assert.Equal(t, 110, specs[0].Pods, "an omitted pod limit is the kubelet's default")
	assert.Equal(t, "nvidia.com/gpu", specs[0].Taints[0].Key)
	assert.Equal(t, "node-2", specs[1].Name, "an unnamed node takes a default node's name")
	assert.Equal(t, "zone-b", specs[1].Zone)
	assert.Equal(t, "arm64", specs[1].Arch)

	for text, want := range map[string]string{
		"- name: a\n  cpu: four\n":                      `nodes[0].cpu: "four" is not a positive quantity`,
		"- name: A_B\n":                                 `nodes[0].name: "A_B"`,
		"- name: a\n- name: a\n":                        `nodes[1].name: "a" is there twice`,
		"- name: a\n  arch: riscv\n":                    `nodes[0].arch: "riscv"`,
		"- name: a\n  taints: [{key: k, effect: No}]\n": `nodes[0].taints[0]: a taint needs a key and an effect`,
		"- name: a\n  cpus: \"4\"\n":                    `unknown field "cpus"`,
		"[]\n":                                          `no nodes`,
		"- name: control-plane\n":                       `nodes[0].name: "control-plane" is the control-plane node's, which serve adds itself`,
	} {
		_, err := readNodeSpecs(writeNodeSpec(t, text))
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
}

// serve --node-spec builds the nodes the file describes; --etcd-endpoints keeps the cluster in an etcd
// of the learner's own (here one started beside the test), so the nodes are found there.
func TestServeWithNodeSpecAndAnExternalEtcd(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	ctx := context.Background()
	etcd, err := store.Open(ctx, store.Config{})
	require.NoError(t, err)
	defer etcd.Close()
	require.NotEmpty(t, etcd.ClientURLs())

	spec := writeNodeSpec(t, `
- name: gpu-1
  zone: zone-a
  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
- name: small-1
  cpu: "1"
  memory: 2Gi
  pods: 5
  zone: zone-b
`)
	s := startServe(t, serveOptions{speed: 10, port: freePort(t), nodeSpec: spec, etcd: strings.Join(etcd.ClientURLs(), ",")})
	s.expect(a("get nodes -L topology.kubernetes.io/zone"), `gpu-1 Ready .* zone-a`, `small-1 Ready .* zone-b`)
	s.expect(a("describe node gpu-1"), `Taints: nvidia.com/gpu=present:NoSchedule`)
	s.expect(a("get node small-1 -o jsonpath={.status.capacity.pods}/{.status.capacity.cpu}"), `^5/1$`)
	s.stopServe()

	kv, err := etcd.Client().Get(ctx, "/registry/nodes/gpu-1")
	require.NoError(t, err)
	assert.Len(t, kv.Kvs, 1, "the node is stored in the external etcd")
}
