package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/internal/testenv/syncbuf"
)

// kubectlTimeout bounds one kubectl command.
const kubectlTimeout = 90 * time.Second

// served is a `kubesim serve` running in process, and the kubectl that drives it.
type served struct {
	t          *testing.T
	ctx        context.Context
	stop       context.CancelFunc
	done       chan error
	kubeconfig string
	home       string          // kubectl's discovery cache goes here, not in the user's ~/.kube
	told       *syncbuf.Buffer // what serve printed on its terminal (stderr)
}

// freePort finds a free port, so that a learner's own `kubesim serve` on 6443 does not get in the way.
func freePort(t *testing.T) int {
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	return probe.Addr().(*net.TCPAddr).Port
}

// startServe runs serve with o until the test ends or stopServe, once it has printed its export line.
func startServe(t *testing.T, o serveOptions) *served {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on PATH: this test drives the real kubectl against kubesim serve")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{t: t, ctx: ctx, stop: cancel, done: make(chan error, 1), home: t.TempDir(), told: &syncbuf.Buffer{}}
	t.Cleanup(cancel)
	out, outW := io.Pipe()
	go func() {
		s.done <- runServe(ctx, o, outW, s.told)
		outW.Close()
	}()
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %v", <-s.done)
	}
	var ok bool
	if s.kubeconfig, ok = strings.CutPrefix(lines.Text(), "export KUBECONFIG="); !ok {
		t.Fatalf("serve printed %q, want the export line", lines.Text())
	}
	go io.Copy(io.Discard, out)
	return s
}

// stopServe ends serve as Ctrl-C does and waits for it.
func (s *served) stopServe() {
	s.t.Helper()
	s.stop()
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatalf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		s.t.Fatal("serve did not stop within 10 s of its context ending")
	}
}

// kubectl runs kubectl against the served cluster and returns what it printed (stdout and stderr).
func (s *served) kubectl(args ...string) string {
	s.t.Helper()
	return s.kubectlFor(kubectlTimeout, args...)
}

// kubectlFor is kubectl, stopped after d.
func (s *served) kubectlFor(d time.Duration, args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, d)
	defer cancel()
	b, _ := s.kubectlCmd(ctx, args).CombinedOutput()
	return string(b)
}

// kubectlCmd is the kubectl on PATH with args, configured for this server, stopped with ctx.
func (s *served) kubectlCmd(ctx context.Context, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+s.kubeconfig, "HOME="+s.home)
	return cmd
}

// watchUntil runs a kubectl that streams (get -w), calls change once its output matches first, and
// returns what it printed once a line matches then (or at the timeout), stopping it.
func (s *served) watchUntil(timeout time.Duration, args []string, first string, change func(), then string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	defer cancel()
	cmd := s.kubectlCmd(ctx, args)
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	var got strings.Builder
	firstRE, thenRE, changed := regexp.MustCompile(first), regexp.MustCompile(then), false
	for sc := bufio.NewScanner(out); sc.Scan(); {
		got.WriteString(sc.Text() + "\n")
		if changed && thenRE.MatchString(sc.Text()) {
			break
		}
		if !changed && firstRE.MatchString(got.String()) {
			change()
			changed = true
		}
	}
	return got.String()
}

// expect runs kubectl and checks that its output matches every pattern (regular expressions, in which
// runs of spaces match kubectl's column padding).
func (s *served) expect(args []string, patterns ...string) string {
	s.t.Helper()
	got := s.kubectl(args...)
	for _, p := range patterns {
		re := regexp.MustCompile(regexp.MustCompile(` +`).ReplaceAllString(p, `\s+`))
		if !re.MatchString(got) {
			s.t.Errorf("kubectl %s:\n%s\nwant a match for %q", strings.Join(args, " "), got, p)
		}
	}
	return got
}

func a(s string) []string { return strings.Fields(s) }

// TestServeDrivenByTheRealKubectl starts `kubesim serve` in process and drives it with the kubectl on
// PATH, through the commands of the troubleshooting articles, checking kubectl's own printed words.
func TestServeDrivenByTheRealKubectl(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	s := startServe(t, serveOptions{nodes: 2, speed: 1, port: freePort(t)})
	expect, k := s.expect, s.kubectl

	expect(a("get nodes"), `NAME STATUS ROLES AGE VERSION`, `control-plane Ready control-plane \S+ v1\.`, `node-1 Ready <none> \S+ v1\.`, `node-2 Ready`)
	expect(a("describe node control-plane"), `Taints: node-role.kubernetes.io/control-plane:NoSchedule`)
	// The control plane, as kubeadm runs it: static pods on the control-plane node (article 1, 7.2:
	// first check that the controller manager's pod is fine).
	s.eventually(30*time.Second, a("-n kube-system get pods -o wide"), `etcd-control-plane 1/1 Running 0 \S+ 192\.168\.49\.2 control-plane`)
	expect(a("-n kube-system get pods"), `NAME READY STATUS RESTARTS AGE`, `kube-apiserver-control-plane 1/1 Running 0`,
		`kube-controller-manager-control-plane 1/1 Running 0`, `kube-scheduler-control-plane 1/1 Running 0`)
	expect(a("get --raw /healthz"), `^ok$`)
	expect(a("get --raw /readyz?verbose"), `\[\+\]ping ok`, `readyz check passed`)

	// A Deployment from the command line (kubectl's typed client sends it as protobuf), until available.
	expect(a("create deployment nginx --image=nginx:1.25"), `^deployment.apps/nginx created`)
	expect(a("rollout status deployment/nginx --timeout=60s"), `deployment "nginx" successfully rolled out`)
	expect(a("get deployments"), `NAME READY UP-TO-DATE AVAILABLE AGE`, `nginx 1/1 1 1 `)
	expect(a("get replicasets"), `NAME DESIRED CURRENT READY AGE`, `nginx-[a-z0-9]+ 1 1 1 `)
	expect(a("get pods -o wide"), `NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES`,
		`nginx-[a-z0-9]+-[a-z0-9]+ 1/1 Running 0 \S+ 10\.244\.\d+\.\d+ node-\d <none> <none>`)
	expect(a("describe pod -l app=nginx"), `Image: nginx:1.25`, `Events:`, `Normal Scheduled .* default-scheduler Successfully assigned default/nginx-`,
		`Normal Started .* kubelet Started container nginx`)
	expect(a("get events -A"), `NAMESPACE LAST SEEN TYPE REASON OBJECT MESSAGE`, `default .* Normal Scheduled pod/nginx-`)
	expect(a("-n kube-node-lease get lease"), `NAME HOLDER AGE`, `node-1 node-1 `)
	expect(a("logs deployment/nginx"), `start worker processes`)
	// Article 1, 7.2: the controller manager's log (klog's format, each line naming its controller).
	expect(a("-n kube-system logs kube-controller-manager-control-plane --tail 200"),
		`(?m)^I\d{4} [0-9:.]+ 1 replicaset-controller\] reconcile default/nginx-[a-z0-9]+: wants 1, has 0 -> create 1 pod`)
	expect(a("get deployment nginx -o jsonpath={.spec.template.spec.containers[0].image}"), `^nginx:1.25$`)
	expect(a("create deployment dry --image=nginx:1.25 --dry-run=server"), `^deployment.apps/dry created \(server dry run\)`)
	expect(a("get deployment dry"), `^Error from server \(NotFound\): deployments.apps "dry" not found`)

	// A rolling update, its history, and a rollback.
	expect(a("set image deployment/nginx nginx=nginx:1.26"), `^deployment.apps/nginx image updated`)
	expect(a("rollout status deployment/nginx --timeout=60s"), `deployment "nginx" successfully rolled out`)
	expect(a("rollout history deployment/nginx"), `REVISION CHANGE-CAUSE`, `1 <none>`, `2 <none>`)
	expect(a("rollout undo deployment/nginx"), `^deployment.apps/nginx rolled back`)
	expect(a("rollout status deployment/nginx --timeout=60s"), `deployment "nginx" successfully rolled out`)
	expect(a("get deployment nginx -o jsonpath={.spec.template.spec.containers[0].image}"), `^nginx:1.25$`)

	// Taking a node out: cordon, drain (evictions), uncordon.
	node := k(a("get pods -l app=nginx -o jsonpath={.items[0].spec.nodeName}")...)
	expect(a("cordon "+node), `^node/`+node+` cordoned`)
	expect(a("get node "+node), node+` Ready,SchedulingDisabled`)
	expect(a("drain "+node+" --ignore-daemonsets --timeout=60s"), `evicting pod default/nginx-`, `node/`+node+` drained`)
	expect(a("uncordon "+node), `^node/`+node+` uncordoned`)

	s.stopServe()
	if _, err := os.Stat(filepath.Dir(s.kubeconfig)); !os.IsNotExist(err) {
		t.Errorf("the temporary directory %s is still there after serve stopped (%v)", filepath.Dir(s.kubeconfig), err)
	}
}

// TestServeAppliesAndRefusesWithTheRealKubectl is the rest of the articles' commands, on a cluster of
// its own, so that it runs beside TestServeDrivenByTheRealKubectl's rollouts instead of after them:
// apply and its three-way merge, scale, delete, and each refusal in kubectl's own words.
func TestServeAppliesAndRefusesWithTheRealKubectl(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	s := startServe(t, serveOptions{nodes: 2, speed: 1, port: freePort(t)})
	expect := s.expect
	expect(a("create deployment nginx --image=nginx:1.25"), `^deployment.apps/nginx created`) // what alice reads and may not scale

	// apply, then apply an edit: the second is kubectl's three-way strategic merge patch.
	manifest := filepath.Join(t.TempDir(), "web.yaml")
	write := func(replicas string) {
		t.Helper()
		doc := strings.Join([]string{"apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: web", "spec:",
			"  replicas: " + replicas, "  selector:", "    matchLabels: {app: web}", "  template:", "    metadata:",
			"      labels: {app: web}", "    spec:", "      containers:", "      - name: web", "        image: nginx:1.25", ""}, "\n")
		if err := os.WriteFile(manifest, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("2")
	expect(a("apply -f "+manifest), `^deployment.apps/web created`)
	write("3")
	expect(a("apply -f "+manifest), `^deployment.apps/web configured`)
	expect(a("get deployment web -o jsonpath={.spec.replicas}"), `^3$`)
	expect(a("scale deployment web --replicas=1"), `^deployment.apps/web scaled`)
	expect(a("get deployment web -o yaml"), `(?m)^kind: Deployment$`, `kubectl.kubernetes.io/last-applied-configuration`, `(?m)^  replicas: 1$`)
	expect(a("delete deployment web"), `^deployment.apps "web" deleted`)

	// Each error in kubectl's own words.
	expect(a("get deployment web"), `^Error from server \(NotFound\): deployments.apps "web" not found`)
	expect(a("get pod nope"), `^Error from server \(NotFound\): pods "nope" not found`)
	expect(a("--context kubesim-alice get pods"),
		`^Error from server \(Forbidden\): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`)
	expect(a("--token not-a-token get pods"), `^error: You must be logged in to the server \(Unauthorized\)`)
	// Granted view in default, alice reads but may not scale: the 403 names the parent object and the
	// verb and subresource kubectl used.
	expect(a("create rolebinding alice-view --clusterrole=view --user=alice"), `^rolebinding.rbac.authorization.k8s.io/alice-view created`)
	expect(a("--context kubesim-alice get deployments"), `nginx [01]/1`) // its pod may be starting
	expect(a("--context kubesim-alice scale deployment nginx --replicas=3"),
		`^Error from server \(Forbidden\): deployments.apps "nginx" is forbidden: User "alice" cannot patch resource "deployments/scale" in API group "apps" in the namespace "default"`)
	expect(a("--context kubesim-alice get --raw /metrics"), `^Error from server \(Forbidden\): forbidden: User "alice" cannot get path "/metrics"`)
	// Article 1, 2.3: the apiserver's log, filtered for refusals.
	expect(a("-n kube-system logs kube-apiserver-control-plane --tail 200"),
		`(?m)^W\d{4} [0-9:.]+ 1 kube-apiserver\] .*403 .*User "alice" cannot patch resource "deployments/scale"`)
	write("2")
	bad := strings.Replace(readFile(t, manifest), "replicas:", "replica:", 1)
	os.WriteFile(manifest, []byte(bad), 0o600)
	expect(a("apply -f "+manifest),
		`Error from server \(BadRequest\): error when creating ".*web.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"`)

	t.Run("auth can-i", func(t *testing.T) {
		if _, ok := api.ResourceFor("selfsubjectaccessreviews"); !ok {
			t.Skip("the apiserver does not serve selfsubjectaccessreviews yet")
		}
		expect(a("auth can-i create deployments"), `^yes`)
		expect(a("--context kubesim-alice auth can-i create deployments"), `^no`)
	})
	s.stopServe()
}

// TestServeCrashLoopAndLogsWithTheRealKubectl is the pods part of the articles' commands: a container
// that crashes and its previous log, a watch, a log followed to its end. It serves its own cluster, so
// that its waits (the back-off of the crash loop) pass beside TestServeDrivenByTheRealKubectl's.
func TestServeCrashLoopAndLogsWithTheRealKubectl(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	s := startServe(t, serveOptions{nodes: 2, speed: 1, port: freePort(t)})
	expect, k := s.expect, s.kubectl

	// A pod that crash-loops (busybox's shell exits 1), and the log of the container that crashed.
	expect([]string{"run", "crash", "--image=busybox:1.36", "--", "sh", "-c", "echo starting up; exit 1"}, `^pod/crash created`)
	var previous string
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		if previous = k(a("logs crash --previous")...); previous == "starting up\n" {
			break
		}
	}
	if previous != "starting up\n" {
		t.Errorf("kubectl logs crash --previous: %q", previous)
	}
	expect(a("get pod crash"), `crash 0/1 (CrashLoopBackOff|Error) [1-9]`)

	// get -w prints the table, then a line per change, until stopped. The label changes only once
	// the table is out (kubectl has listed, and watches from the list's resourceVersion), so the
	// line that shows it can only come from the watch, however slowly kubectl starts; the crash
	// loop's own restarts print lines too, without the label.
	if w := s.watchUntil(30*time.Second, a("get pods -w --show-labels"), `(?m)^crash\s+0/1`, func() {
		expect(a("label pod crash watched=yes"), `^pod/crash labeled`)
	}, `(?m)^crash\s+0/1.*watched=yes`); !regexp.MustCompile(`NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+LABELS\n(?s:.*)crash\s+0/1(?s:.*)\ncrash\s+0/1.*watched=yes`).MatchString(w) {
		t.Errorf("kubectl get pods -w --show-labels: %s\nwant the table, then crash again with its new label", w)
	}

	// logs -f streams until the container ends.
	expect([]string{"run", "ender", "--image=busybox:1.36", "--restart=Never", "--", "sh", "-c", "echo one; sleep 2; echo two"}, `^pod/ender created`)
	expect(a("wait --for=condition=Ready pod/ender --timeout=30s"), `pod/ender condition met`)
	expect(a("logs -f ender"), `^one\ntwo\n$`)

	expect(a("exec crash -- ls"), `pods/exec is not supported in kubesim`)
	s.stopServe()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// With --data-dir, a stopped cluster comes back as it was: etcd's data and the CA stay in the
// directory, so the objects are there and the kubeconfig written by the first run still works. At
// speed 10: the second kube-controller-manager waits out the first one's lease (15 s of cluster
// time), as a restarted one does in a real cluster.
func TestServeDataDirResumesTheCluster(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	dir := t.TempDir()
	o := serveOptions{nodes: 1, speed: 10, port: freePort(t), dataDir: dir}
	first := startServe(t, o)
	first.expect(a("create deployment keep --image=nginx:1.25"), `^deployment.apps/keep created`)
	kubeconfig := readFile(t, first.kubeconfig)
	first.stopServe()

	second := startServe(t, o)
	old := filepath.Join(t.TempDir(), "first-kubeconfig")
	if err := os.WriteFile(old, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	second.kubeconfig = old
	second.expect(a("get deployment keep -o jsonpath={.metadata.name}"), `^keep$`)
	second.expect(a("rollout status deployment/keep --timeout=60s"), `deployment "keep" successfully rolled out`)
	second.stopServe()
	if _, err := os.Stat(filepath.Join(dir, "pki", "ca.crt")); err != nil {
		t.Errorf("the data directory lost its CA: %v", err)
	}
}
