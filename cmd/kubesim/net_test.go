package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const netTestManifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
  - name: nginx
    image: nginx:1.25
    ports:
    - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: wrong
  ports:
  - port: 80
---
apiVersion: v1
kind: Pod
metadata:
  name: client
spec:
  containers:
  - name: shell
    image: busybox:1.36
    command: ["sleep", "3600"]
`

func TestNetTraceSaysWhereAndWhyItFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "app.yaml")
	require.NoError(t, os.WriteFile(file, []byte(netTestManifest), 0o644))
	code, out, stderr := kubesim("net", "trace", "-f", file, "--from", "client", "--to", "web:80")
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "✗ rules")
	assert.Contains(t, out, "Service default/web has no endpoints: the selector app=wrong matches no pod in namespace default; its pods are labelled web (app=web)")
	assert.Contains(t, out, "unreachable: stopped at hop 4 (rules)")

	code, out, stderr = kubesim("net", "rules", "-f", file, "--node", "node-2")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"default/web has no endpoints"`)
	assert.Contains(t, out, "-j REJECT")

	code, _, stderr = kubesim("net", "trace", "--from", "client")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "usage:")
}
