package httpfront_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// kubectlUser runs the real kubectl on PATH against the front, as the user a token names, and returns
// what it printed (stdout and stderr). The whole cluster (controllers, scheduler, kubelets) is
// cmd/kubesim's serve tests' business; these tests need only the API. kubectl's discovery and OpenAPI
// caches go to a directory of the test's own.
type kubectlUser struct {
	t          testing.TB
	kubeconfig string
	home       string
}

func newKubectl(t testing.TB, hs *httptest.Server, token string) *kubectlUser {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on PATH: this test drives the real kubectl")
	}
	// client-go sends a bearer token only over TLS: serve the same handler on HTTPS.
	tls := httptest.NewTLSServer(hs.Config.Handler)
	t.Cleanup(tls.Close)
	dir := t.TempDir()
	config := strings.Join([]string{"apiVersion: v1", "kind: Config",
		"clusters:", "- name: kubesim", "  cluster:", "    server: " + tls.URL, "    insecure-skip-tls-verify: true",
		"users:", "- name: u", "  user:", "    token: " + token,
		"contexts:", "- name: kubesim", "  context: {cluster: kubesim, user: u, namespace: default}",
		"current-context: kubesim", ""}, "\n")
	k := &kubectlUser{t: t, kubeconfig: filepath.Join(dir, "kubeconfig"), home: dir}
	if err := os.WriteFile(k.kubeconfig, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return k
}

// run runs kubectl with args, stdin optional.
func (k *kubectlUser) run(stdin string, args ...string) string {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+k.kubeconfig, "HOME="+k.home)
	cmd.Stdin = strings.NewReader(stdin)
	b, _ := cmd.CombinedOutput()
	return string(b)
}

// expect runs kubectl and checks that its output matches every pattern (regular expressions in which
// a run of spaces matches kubectl's column padding).
func (k *kubectlUser) expect(args string, patterns ...string) string {
	k.t.Helper()
	return k.expectIn("", args, patterns...)
}

// expectIn is expect with stdin (`kubectl apply -f -`).
func (k *kubectlUser) expectIn(stdin, args string, patterns ...string) string {
	k.t.Helper()
	got := k.run(stdin, strings.Fields(args)...)
	for _, p := range patterns {
		re := regexp.MustCompile(regexp.MustCompile(` +`).ReplaceAllString(p, `\s+`))
		if !re.MatchString(got) {
			k.t.Errorf("kubectl %s:\n%s\nwant a match for %q", args, got, p)
		}
	}
	return got
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
