// serve_durability_test.go: kubesim (this test binary, run as kubesim: see TestMain) serving with
// --data-dir, killed with SIGKILL in the middle of its work and started again on the same directory,
// round after round. Writers churn Lease objects over HTTPS with the admin's client certificate (create,
// relabel, delete; each key has one writer, so the last acknowledged write of a key is its truth), the
// real kubectl rolls a Deployment to a new image, and the kill comes at a seeded point: after the k-th
// acknowledged write, and a seeded delay after `kubectl set image` was acknowledged, so mostly in the
// middle of the rollout. After each restart: every acknowledged write is there (or the one write in
// flight at the kill has landed instead), `kubectl rollout status` completes, the Deployment has the
// acknowledged image, its new ReplicaSet has every replica and the old ones none, and no pod is lost or
// duplicated.
//
//	go test ./cmd/kubesim -run ServeSurvivesSIGKILL -v                          # 3 kills (1 with -short)
//	KUBESIM_SERVE_KILLS=30 KUBESIM_SERVE_SEED=7 go test ./cmd/kubesim -run ServeSurvivesSIGKILL -v
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"kubesim/api"
	"kubesim/internal/testenv/syncbuf"
)

// The environment of the heavy run: how many kills (default 3, 1 with -short), and the seed that places them
// (default 1), so that a failure replays.
const (
	serveKillsEnv = "KUBESIM_SERVE_KILLS"
	serveSeedEnv  = "KUBESIM_SERVE_SEED"
)

// durabilityWriters write leaseKeysPerWriter Leases each, keys no other writer touches.
const (
	durabilityWriters  = 4
	leaseKeysPerWriter = 3
)

// rolloutImages are the images the Deployment cycles through, one `set image` per round.
var rolloutImages = []string{"nginx:1.26", "nginx:1.27", "nginx:1.25"}

const webReplicas = 3

// serveProcess is one `kubesim serve` process of the binary, and an admin client to its HTTPS front.
type serveProcess struct {
	cmd        *exec.Cmd
	kubeconfig string
	server     string
	client     *http.Client
	stderr     *syncbuf.Buffer
}

// startServeProcess starts this test binary as kubesim (TestMain), serving dir, and returns once
// it printed its export line.
func startServeProcess(t *testing.T, dir string) *serveProcess {
	t.Helper()
	p := &serveProcess{stderr: &syncbuf.Buffer{}}
	p.cmd = exec.Command(os.Args[0], "serve", "--data-dir", dir, "--nodes", "2", "--speed", "10", "--port", strconv.Itoa(freePort(t)))
	p.cmd.Env, p.cmd.Stderr = append(os.Environ(), asKubesim+"=1"), p.stderr
	out, err := p.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Scan()
		line <- sc.Text()
		io.Copy(io.Discard, out)
	}()
	select {
	case l := <-line:
		var ok bool
		p.kubeconfig, ok = strings.CutPrefix(l, "export KUBECONFIG=")
		require.True(t, ok, "serve printed %q, want the export line; its terminal:\n%s", l, p.stderr.String())
	case <-time.After(time.Minute):
		t.Fatalf("serve did not print its export line within a minute:\n%s", p.stderr.String())
	}
	p.server, p.client = adminClient(t, p.kubeconfig)
	return p
}

// adminClient reads the kubeconfig serve wrote and returns its server and an HTTP client that trusts
// its CA and presents the admin's client certificate.
func adminClient(t *testing.T, path string) (string, *http.Client) {
	t.Helper()
	var kc kubeconfig
	require.NoError(t, yaml.Unmarshal([]byte(readFile(t, path)), &kc))
	dec := func(s string) []byte {
		b, err := base64.StdEncoding.DecodeString(s)
		require.NoError(t, err)
		return b
	}
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(dec(kc.Clusters[0].Cluster.CertificateAuthorityData)))
	var admin namedUser
	for _, u := range kc.Users {
		if u.Name == "kubernetes-admin" {
			admin = u
		}
	}
	cert, err := tls.X509KeyPair(dec(admin.User.ClientCertificateData), dec(admin.User.ClientKeyData))
	require.NoError(t, err)
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}}}
	return kc.Clusters[0].Cluster.Server, &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// call sends one request with a JSON body (if any) and decodes a 2xx answer into out (if not nil).
// It returns the status code; an error is a request that got no answer.
func (p *serveProcess) call(ctx context.Context, method, path string, body, out any) (int, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.server+path, r)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode/100 == 2 && out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return 0, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

// kubectl runs the real kubectl against p as the admin.
func (p *serveProcess) kubectl(t *testing.T, home string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), kubectlTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+p.kubeconfig, "HOME="+home)
	b, err := cmd.CombinedOutput()
	return string(b), err
}

// leaseState is what a key holds: absent, or a Lease whose label v is value.
type leaseState struct {
	exists bool
	value  string
}

func (s leaseState) String() string {
	if !s.exists {
		return "absent"
	}
	return "v=" + s.value
}

// leaseKey is one key and what its writer knows of it: the last acknowledged state, and the write in
// flight when the process died (nil if none), which may or may not have landed.
type leaseKey struct {
	name     string
	acked    leaseState
	rv       string // the acknowledged object's resourceVersion, for the next update
	inflight *leaseState
}

const leasesPath = "/apis/coordination.k8s.io/v1/namespaces/default/leases"

// write makes one seeded change to k and waits for its answer. It returns false when the request got
// no answer (the process died): k.inflight then holds the write that may have landed.
func (k *leaseKey) write(ctx context.Context, t *testing.T, p *serveProcess, rnd *rand.Rand, n int) bool {
	next := leaseState{exists: true, value: strconv.Itoa(n)}
	lease := api.Lease{TypeMeta: api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
		ObjectMeta: api.ObjectMeta{Name: k.name, Namespace: "default", Labels: map[string]string{"v": next.value}, ResourceVersion: k.rv}}
	method, path, want := http.MethodPut, leasesPath+"/"+k.name, http.StatusOK
	switch {
	case !k.acked.exists:
		method, path, want = http.MethodPost, leasesPath, http.StatusCreated
	case rnd.Intn(4) == 0:
		method, next = http.MethodDelete, leaseState{}
	}
	var body any = &lease
	if method == http.MethodDelete {
		body = nil
	}
	k.inflight = &next
	var got api.Lease
	code, err := p.call(ctx, method, path, body, &got)
	if err != nil {
		return false
	}
	k.inflight = nil
	if code != want {
		t.Errorf("%s %s: %d, want %d (its writer is the only one)", method, path, code, want)
		return false
	}
	k.acked, k.rv = next, got.ResourceVersion
	return true
}

// check reads k after a restart and compares it with what was acknowledged; from then on what it
// read is k's truth.
func (k *leaseKey) check(ctx context.Context, t *testing.T, p *serveProcess, round int) {
	var got api.Lease
	code, err := p.call(ctx, http.MethodGet, leasesPath+"/"+k.name, nil, &got)
	require.NoError(t, err)
	now := leaseState{exists: code == http.StatusOK, value: got.Labels["v"]}
	if code != http.StatusOK && code != http.StatusNotFound {
		t.Fatalf("kill %d: GET lease %s: %d", round, k.name, code)
	}
	if now != k.acked && (k.inflight == nil || now != *k.inflight) {
		t.Errorf("kill %d: lease %s is %v; acknowledged %v, in flight %v", round, k.name, now, k.acked, k.inflight)
	}
	k.acked, k.rv, k.inflight = now, got.ResourceVersion, nil
}

// churn runs the writers until ctx ends or the process dies, counting acknowledged writes in acks.
func churn(ctx context.Context, t *testing.T, p *serveProcess, keys []*leaseKey, seed int64, acks *atomic.Int64) (wait func()) {
	var wg sync.WaitGroup
	for w := range durabilityWriters {
		wg.Add(1)
		go func(mine []*leaseKey, rnd *rand.Rand) {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				if !mine[rnd.Intn(len(mine))].write(ctx, t, p, rnd, n) {
					return
				}
				acks.Add(1)
			}
		}(keys[w*leaseKeysPerWriter:(w+1)*leaseKeysPerWriter], rand.New(rand.NewSource(seed*100+int64(w))))
	}
	return wg.Wait
}

// checkRollout waits for `kubectl rollout status` and checks the Deployment's ReplicaSets and pods:
// the acknowledged image, all replicas in the ReplicaSet of that template, none in the others, and
// exactly that many live pods, every one owned by it. It reports whether the rollout was still
// under way when the cluster came back (the kill fell in the middle of it).
func checkRollout(t *testing.T, p *serveProcess, home, image string, round int) (midway bool) {
	ctx := context.Background()
	var d api.Deployment
	_, err := p.call(ctx, http.MethodGet, "/apis/apps/v1/namespaces/default/deployments/web", nil, &d)
	require.NoError(t, err)
	midway = d.Status.UpdatedReplicas < webReplicas || d.Status.Replicas > d.Status.UpdatedReplicas || d.Status.ObservedGeneration < d.Generation
	out, err := p.kubectl(t, home, "rollout", "status", "deployment/web", "--timeout=120s")
	require.NoError(t, err, "kill %d: kubectl rollout status: %s", round, out)
	require.Contains(t, out, `deployment "web" successfully rolled out`)

	var rss struct{ Items []api.ReplicaSet }
	var pods struct{ Items []api.Pod }
	settled := func() error { // the old ReplicaSets' last pods may still be on their way out
		if _, err := p.call(ctx, http.MethodGet, "/apis/apps/v1/namespaces/default/deployments/web", nil, &d); err != nil {
			return err
		}
		if got := d.Spec.Template.Spec.Containers[0].Image; got != image {
			return fmt.Errorf("the Deployment's image is %s, acknowledged %s", got, image)
		}
		if _, err := p.call(ctx, http.MethodGet, "/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dweb", nil, &rss); err != nil {
			return err
		}
		if _, err := p.call(ctx, http.MethodGet, "/api/v1/namespaces/default/pods?labelSelector=app%3Dweb", nil, &pods); err != nil {
			return err
		}
		current := ""
		for _, rs := range rss.Items {
			want := int32(0)
			if rs.Spec.Template.Spec.Containers[0].Image == image {
				if current != "" {
					return fmt.Errorf("two ReplicaSets of image %s: %s and %s", image, current, rs.Name)
				}
				current, want = rs.Name, webReplicas
			}
			if *rs.Spec.Replicas != want || rs.Status.Replicas != want {
				return fmt.Errorf("ReplicaSet %s (%s) has replicas %d, status %d; want %d", rs.Name,
					rs.Spec.Template.Spec.Containers[0].Image, *rs.Spec.Replicas, rs.Status.Replicas, want)
			}
		}
		live := 0
		for _, pod := range pods.Items {
			if pod.DeletionTimestamp != nil {
				continue
			}
			live++
			if len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].Name != current {
				return fmt.Errorf("pod %s is live and owned by %v, not by %s", pod.Name, pod.OwnerReferences, current)
			}
		}
		if live != webReplicas {
			return fmt.Errorf("%d live pods, want %d", live, webReplicas)
		}
		return nil
	}
	var last error
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if last = settled(); last == nil {
			return midway
		}
	}
	t.Fatalf("kill %d: after the rollout: %v", round, last)
	return midway
}

func TestServeSurvivesSIGKILL(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on PATH: the rollout is kubectl's")
	}
	kills, seed := 3, int64(1)
	if testing.Short() {
		kills = 1
	}
	if s := os.Getenv(serveKillsEnv); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err, serveKillsEnv)
		kills = n
	}
	if s := os.Getenv(serveSeedEnv); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		require.NoError(t, err, serveSeedEnv)
		seed = n
	}
	dir, home := privateTempDir(t), t.TempDir() // etcd's sockets live under dir: a short path
	rnd := rand.New(rand.NewSource(seed))
	var keys []*leaseKey
	for i := range durabilityWriters * leaseKeysPerWriter {
		keys = append(keys, &leaseKey{name: "lease-" + strconv.Itoa(i)})
	}

	p := startServeProcess(t, dir)
	out, err := p.kubectl(t, home, "create", "deployment", "web", "--image=nginx:1.25", "--replicas="+strconv.Itoa(webReplicas))
	require.NoError(t, err, out)
	image, totalAcks, midway := "nginx:1.25", int64(0), 0
	for round := 1; round <= kills; round++ {
		// Churn, then a rollout, then the kill at its seeded point.
		killAfter, delay := int64(5+rnd.Intn(40)), time.Duration(rnd.Intn(800))*time.Millisecond
		ctx, stop := context.WithCancel(context.Background())
		var acks atomic.Int64
		wait := churn(ctx, t, p, keys, seed*1000+int64(round), &acks)
		for deadline := time.Now().Add(time.Minute); acks.Load() < killAfter; time.Sleep(time.Millisecond) {
			require.True(t, time.Now().Before(deadline), "kill %d: %d writes acknowledged in a minute, want %d", round, acks.Load(), killAfter)
		}
		next := rolloutImages[round%len(rolloutImages)]
		out, err := p.kubectl(t, home, "set", "image", "deployment/web", "nginx="+next)
		require.NoError(t, err, out)
		require.Contains(t, out, "deployment.apps/web image updated")
		image = next
		time.Sleep(delay)
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
		p.cmd.Wait()
		wait()
		stop()
		totalAcks += acks.Load()
		t.Logf("kill %d: SIGKILL %s after `set image %s` was acknowledged, %d writes acknowledged this round", round, delay, next, acks.Load())

		// The same directory again: what was acknowledged is there, and the rollout finishes.
		p = startServeProcess(t, dir)
		for _, k := range keys {
			k.check(context.Background(), t, p, round)
		}
		if checkRollout(t, p, home, image, round) {
			midway++
		}
		if t.Failed() {
			t.Fatalf("seed %d, kill %d: replay with %s=%d %s=%d", seed, round, serveSeedEnv, seed, serveKillsEnv, round)
		}
	}
	t.Logf("seed %d: %d kills survived, %d acknowledged writes and %d rollouts found intact, %d of the kills in the middle of a rollout",
		seed, kills, totalAcks, kills, midway)
}
