// serve.go: `kubesim serve`, a cluster that the real kubectl drives. It boots a whole cluster in real
// time (embedded etcd, kube-apiserver, kube-controller-manager, kube-scheduler, N kubelets), puts the
// apiserver's HTTP front behind an HTTPS listener on 127.0.0.1, writes a kubeconfig with two users,
// and prints the one line that points kubectl at it:
//
//	kubesim serve [--nodes 3 | --node-spec FILE] [--etcd-endpoints URL,...] [--speed 1] [--port 6443] [--data-dir DIR] [--kubeconfig PATH] [--scenario NAME] [--step] [--web ADDR] [--audit-log FILE]
//	export KUBECONFIG=/tmp/kubesim-serve-123/kubeconfig
//
// The kubeconfig's contexts are kubesim-admin (client certificate CN=kubernetes-admin,
// O=system:masters, as kubeadm's admin.conf) and kubesim-alice (a bearer token for user alice, who
// has no RBAC grants: every request of hers is a 403 to read). Ctrl-C or SIGTERM stops the cluster;
// without --data-dir its temporary directory goes with it.
//
// --node-spec FILE gives the nodes as YAML (nodespec.go); --etcd-endpoints URL,... keeps the cluster in
// an etcd of your own (a real etcd cluster, say) instead of the embedded one. --scenario NAME sets up a scenario's exercise (serve_scenarios.go); --step runs the cluster in step
// mode (serve_step.go); --web ADDR serves the web view beside it (serve_web.go); --audit-log FILE appends the HTTP front's audit trail to FILE, a JSON line
// per request (apiserver/httpfront/audit.go), and prints the jq command that reads it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/apiserver/httpfront"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
	"kubesim/store"
	"kubesim/trace"
)

// serveShutdownGrace bounds how long open requests (watches, mostly) may take to finish on exit.
const serveShutdownGrace = 500 * time.Millisecond

// serveOptions are serve's flags.
type serveOptions struct {
	nodes      int
	speed      float64
	port       int
	dataDir    string
	kubeconfig string
	scenario   string // set up this scenario's exercise (serve_scenarios.go)
	step       bool   // step mode: the cluster advances only when asked (serve_step.go)
	auditLog   string // append the audit trail here
	nodeSpec   string // a YAML file of nodes (nodespec.go)
	etcd       string // comma-separated client URLs of an external etcd
	web        string // serve the web view on this address (serve_web.go)
	stdin      io.Reader
}

func serve(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("serve", "usage: kubesim serve [flags]\n\nRuns a cluster in real time (or step by step, --step) that the real kubectl can drive over HTTPS.", stderr)
	o := serveOptions{stdin: stdin}
	fs.IntVar(&o.nodes, "nodes", 3, "number of worker nodes (4 CPUs, 8Gi each, zones a, b, c)")
	fs.Float64Var(&o.speed, "speed", 1, "how fast cluster time runs: 60 turns Kubernetes' 5-minute eviction timeout into 5 s")
	fs.IntVar(&o.port, "port", 0, "HTTPS port on 127.0.0.1 (default 6443 if free, else any free port)")
	fs.StringVar(&o.dataDir, "data-dir", "", "keep etcd's data and the cluster's CA here, so a restart resumes the same cluster (default: a temporary directory removed on exit)")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "where to write the kubeconfig (default: kubeconfig in the data directory)")
	fs.StringVar(&o.scenario, "scenario", "", "set up this scenario's cluster, manifests and faults as an exercise, and print what to investigate ("+strings.Join(exerciseNames(), ", ")+"); its nodes replace --nodes")
	fs.BoolVar(&o.step, "step", false, "step mode: nothing advances until you say so (Enter here, or kubesim step [N] / --until COND from another terminal); the story of each step prints here")
	fs.StringVar(&o.nodeSpec, "node-spec", "", "a YAML file listing the nodes (name, cpu, memory, pods, zone, arch, labels, taints); it replaces --nodes")
	fs.StringVar(&o.etcd, "etcd-endpoints", "", "comma-separated client URLs of an etcd of your own (e.g. http://127.0.0.1:2379) to keep the cluster in, instead of the embedded one")
	fs.StringVar(&o.web, "web", "", "also serve the web view on this address (e.g. 127.0.0.1:7070): with --step its buttons step the cluster")
	fs.StringVar(&o.auditLog, "audit-log", "", "append the audit trail to this file: one JSON line per request (audit.k8s.io/v1 Event: user, verb, requestURI, objectRef, responseStatus.code, timestamps)")
	rest, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(rest) > 0 || o.nodes < 0 || o.speed < 0 {
		fs.Usage()
		return 2
	}
	speedSet := false
	fs.Visit(func(f *flag.Flag) { speedSet = speedSet || f.Name == "speed" })
	if o.step && speedSet {
		fmt.Fprintln(stderr, "kubesim serve: --speed is for real time; with --step the cluster moves only when you say so")
		return 2
	}
	if o.scenario != "" {
		if _, _, err := lookupExercise(o.scenario); err != nil {
			fmt.Fprintf(stderr, "kubesim serve: --scenario: %v\n", err)
			return 2
		}
		if o.nodeSpec != "" {
			fmt.Fprintln(stderr, "kubesim serve: --node-spec and --scenario both give the nodes: a scenario brings its own")
			return 2
		}
	}
	if o.nodeSpec != "" {
		if _, err := readNodeSpecs(o.nodeSpec); err != nil {
			fmt.Fprintf(stderr, "kubesim serve: %v\n", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runServe(ctx, o, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "kubesim serve: %v\n", err)
		return 1
	}
	return 0
}

// runServe is the boot sequence: a directory, the cluster, certificates, the listener, the
// kubeconfig; then it serves until ctx ends.
func runServe(ctx context.Context, o serveOptions, stdout, stderr io.Writer) error {
	dir := o.dataDir
	if dir == "" {
		// Marked as this process's, so that a serve killed with SIGKILL leaves nothing for long.
		tmp, err := store.NewTempDir("serve")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}

	// The cluster, in real time: etcd keeps its data under dir/etcd.
	cfg := sim.FullCluster(o.nodes)
	var sc sim.Scenario
	var ex exercise
	if o.scenario != "" {
		var err error
		if sc, ex, err = lookupExercise(o.scenario); err != nil {
			return err
		}
		cfg = scenarioConfig(sc, o.nodes)
	}
	if o.nodeSpec != "" {
		specs, err := readNodeSpecs(o.nodeSpec)
		if err != nil {
			return err
		}
		cfg.Nodes, cfg.NodeSpecs = 0, specs
	}
	cfg = kubeadmShaped(cfg)
	workers := len(cfg.NodeSpecs) - 1
	etcdAt := filepath.Join(dir, "etcd")
	if o.etcd != "" {
		cfg.EtcdEndpoints = strings.Split(o.etcd, ",")
		etcdAt = o.etcd
	}
	fmt.Fprintf(stderr, "Starting a cluster of a control-plane node and %d worker nodes (etcd at %s)...\n", workers, etcdAt)
	cfg.Mode, cfg.Speed, cfg.DataDir, cfg.Seed = sim.RealTime, o.speed, filepath.Join(dir, "etcd"), time.Now().UnixNano()
	var page *serveWeb
	if o.web != "" {
		var err error
		if page, err = startServeWeb(o.web, fmt.Sprintf("kubesim serve: %d nodes", max(cfg.Nodes, len(cfg.NodeSpecs)))); err != nil {
			return err
		}
		defer page.close()
	}
	var st *stepper
	if o.step {
		var observe func(trace.Event)
		var err error
		storyTo := stderr
		if page != nil {
			storyTo = io.MultiWriter(stderr, page.story())
		}
		if st, observe, err = newStepper(storyTo); err != nil {
			return err
		}
		cfg.Mode, cfg.Speed, cfg.Observe = sim.StepMode, 0, observe
	}
	// Certificates: a CA (kept in dir/pki), the server's, and the admin's client certificate. The CA
	// is also the one the cluster publishes to its pods (kube-root-ca.crt) and the one that signs its
	// kubelets' client certificates (/var/lib/kubelet/pki in the serve terminal).
	pki, err := loadOrCreatePKI(filepath.Join(dir, "pki"))
	if err != nil {
		return fmt.Errorf("certificates: %w", err)
	}
	cfg.RootCA, cfg.RootCAKey = pki.caPEM, pki.caKey
	c, err := sim.New(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close()
	var control http.Handler
	if st != nil {
		st.start(c)
		control = st
	}
	ln, err := listen(o.port)
	if err != nil {
		return err
	}
	tlsConfig, err := pki.serverTLS()
	if err != nil {
		ln.Close()
		return err
	}
	// The audit trail goes to --audit-log, and in step mode into the story too.
	var sinks []func(httpfront.AuditEvent)
	if o.auditLog != "" {
		f, err := os.OpenFile(o.auditLog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			ln.Close()
			return fmt.Errorf("--audit-log: %w", err)
		}
		defer f.Close()
		sinks = append(sinks, httpfront.AuditWriter(f))
	}
	if st != nil {
		sinks = append(sinks, st.request)
	}
	frontCfg := httpfront.Config{Server: c.APIServer, Clock: c.Clock, Logs: runtimeLogs(c), Control: control}
	if len(sinks) > 0 {
		frontCfg.Audit = func(ev httpfront.AuditEvent) {
			for _, sink := range sinks {
				sink(ev)
			}
		}
	}
	front := httpfront.New(frontCfg)
	srv := &http.Server{Handler: front, TLSConfig: tlsConfig, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	served := make(chan error, 1)
	go func() { served <- srv.ServeTLS(ln, "", "") }()

	if ex.steps > 0 {
		fmt.Fprintf(stderr, "Setting up scenario %s...\n", sc.Name)
		if err := sim.SetUp(ctx, sc, c, ex.steps); err != nil {
			srv.Close()
			return fmt.Errorf("setting up: %w", err)
		}
	}

	// The kubeconfig: the admin by certificate, alice by bearer token.
	path := o.kubeconfig
	if path == "" {
		path = filepath.Join(dir, "kubeconfig")
	}
	server := "https://" + ln.Addr().String()
	if err := pki.writeKubeconfig(path, server, c.Token("alice")); err != nil {
		srv.Close()
		return fmt.Errorf("writing the kubeconfig: %w", err)
	}
	fmt.Fprintf(stderr, "kube-apiserver is serving on %s (contexts kubesim-admin and kubesim-alice). Ctrl-C stops the cluster.\n", server)
	if urls := c.Store.ClientURLs(); len(urls) > 0 {
		// etcd's client URL, where etcdctl (and a backup job) reaches it as on a control-plane node.
		endpoints := strings.Join(urls, ",")
		fmt.Fprintf(stderr, "etcd: etcdctl --endpoints %s get --prefix --keys-only /registry/pods\n", endpoints)
		fmt.Fprintf(stderr, "backup: kubesim snapshot save FILE --endpoints %s (or etcdctl --endpoints %s snapshot save FILE)\n", endpoints, endpoints)
	}
	if o.auditLog != "" {
		fmt.Fprintf(stderr, "audit: a JSON line per request in %s; read it with\n  %s\n", o.auditLog, auditReadHint(o.auditLog))
	}
	if ex.steps > 0 {
		printHint(stderr, sc, ex)
	}
	if page != nil {
		fmt.Fprintf(stderr, "web view: http://%s/\n", page.addr)
		go page.follow(ctx, c, st)
	}
	fmt.Fprintf(stdout, "export KUBECONFIG=%s\n", path)
	switch {
	case st != nil:
		fmt.Fprintf(stderr, "The cluster is paused, in step mode.\n%s\n", stepHelp)
		if o.stdin != nil {
			go st.console(ctx, o.stdin, stderr)
		}
	case o.stdin != nil:
		fmt.Fprintln(stderr, nodeHelp)
		go nodeConsole(ctx, c, o.stdin, stderr)
	}

	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	fmt.Fprintln(stderr, "Stopping the cluster...")
	shutdown, cancel := context.WithTimeout(context.Background(), serveShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close() // watches do not end on their own
	}
	if o.kubeconfig != "" && o.dataDir == "" {
		os.Remove(path) // it names a cluster that is gone
	}
	return nil
}

// listen opens 127.0.0.1:port, or 6443 when free, else any free port.
func listen(port int) (net.Listener, error) {
	if port != 0 {
		return net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	}
	if ln, err := net.Listen("tcp", "127.0.0.1:6443"); err == nil {
		return ln, nil
	}
	return net.Listen("tcp", "127.0.0.1:0")
}

// kubeadmShaped is cfg as kubeadm makes a cluster: a control-plane node that runs the control plane
// as static pods (kubectl -n kube-system get pods lists them, kubectl -n kube-system logs reads them)
// and gets CoreDNS and kube-proxy, then cfg's nodes as the workers; the kubelets' journals and the
// components' logs kept.
func kubeadmShaped(cfg sim.Config) sim.Config {
	workers := cfg.NodeSpecs
	if len(workers) == 0 {
		workers = sim.DefaultNodes(cfg.Nodes)
	}
	cfg.Nodes, cfg.NodeSpecs = 0, append([]sim.NodeSpec{sim.ControlPlaneNode()}, workers...)
	cfg.JournalLines = sim.PromptJournalLines
	return cfg
}

// runtimeLogs reads a container's log from the fake runtime of the pod's node, as the kubelet's
// /containerLogs endpoint reads the runtime's log file for the apiserver.
func runtimeLogs(c *sim.Cluster) httpfront.LogSource {
	return func(ctx context.Context, pod *api.Pod, container string, previous bool, tail int) ([]httpfront.LogLine, error) {
		var id string
		for _, cs := range pod.Status.ContainerStatuses {
			if cs.Name != container {
				continue
			}
			id = cs.ContainerID
			if previous {
				id = ""
				if t := cs.LastTerminationState.Terminated; t != nil {
					id = t.ContainerID
				}
			}
		}
		if id == "" {
			if previous {
				return nil, apierrors.NewBadRequest(fmt.Sprintf("previous terminated container %q in pod %q not found", container, pod.Name))
			}
			return nil, apierrors.NewBadRequest(fmt.Sprintf("container %q in pod %q is waiting to start: ContainerCreating", container, pod.Name))
		}
		node, ok := c.Node(pod.Spec.NodeName)
		if !ok {
			return nil, apierrors.NewServiceUnavailable(fmt.Sprintf("node %q is not running a kubelet", pod.Spec.NodeName))
		}
		rid, _ := strings.CutPrefix(id, "containerd://")
		lines, err := node.Runtime.ContainerLogs(ctx, rid, tail)
		if err != nil {
			if fakeruntime.IsNotFound(err) {
				return nil, apierrors.NewBadRequest(fmt.Sprintf("previous terminated container %q in pod %q not found", container, pod.Name))
			}
			return nil, apierrors.NewInternalError(err)
		}
		out := make([]httpfront.LogLine, len(lines))
		for i, l := range lines {
			out[i] = httpfront.LogLine{Time: l.Time, Text: l.Log}
		}
		return out, nil
	}
}

// auditReadHint is the command that shows the audit trail as who, verb, URI, code and latency.
func auditReadHint(path string) string {
	return fmt.Sprintf(`tail -f %s | jq -r '[.user.username, .verb, .requestURI, .responseStatus.code, .annotations["%s"]] | @tsv'`,
		path, httpfront.LatencyAnnotation)
}
