// behavior.go: what a container does once started, decided from its image, command and environment.
//
//	families                        each image family's entrypoint, cmd, binaries, ports, memory
//	newBehavior(family, ver, cfg, hostname)   the behaviour of one container (see the table in doc.go)
//	environ(envs, hostname)         the environment its process starts with
//	(*behavior).naturalEnd(...)     when and how it exits on its own (exit, crash, OOM kill), if ever
//	(*behavior).memoryAt(elapsed)   its working set after running for elapsed
//	(*behavior).diskAt(elapsed)     its writable layer's size after running for elapsed (disk.go)
//
// A behaviour is computed once, at CreateContainer, and is a pure function of time after that: the
// runtime never runs anything, it answers "what state is this container in at clock.Now()?". That is
// why 100,000 idle containers cost nothing.

package fakeruntime

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"kubesim/api/resource"
)

// family is what an image contains: its default process and the tools a command can use.
type family struct {
	entrypoint []string
	cmd        []string
	servers    []string // binaries that serve forever on ports
	tools      []string // other binaries on the PATH
	ports      []int32  // where a server listens
	memory     uint64   // working set of the main process once started
	busybox    bool     // busybox's wording in error messages (vs GNU coreutils')
	// component: a control-plane component's image, whose server's log is the component's own
	// (Options.ServerLog).
	component bool
}

// shellTools are on the PATH of every image with a shell (Debian-based and busybox alike).
var shellTools = []string{"ash", "cat", "date", "echo", "env", "false", "hostname", "kill", "ls", "printenv",
	"rm", "sh", "sleep", "tail", "test", "touch", "true", "yes"}

// families is keyed by catalogueImage.family.
var families = map[string]*family{
	"nginx": {entrypoint: []string{"/docker-entrypoint.sh"}, cmd: []string{"nginx", "-g", "daemon off;"},
		servers: []string{"nginx"}, tools: append([]string{"bash", "curl"}, shellTools...), ports: []int32{80}, memory: 8 << 20},
	"httpd": {cmd: []string{"httpd-foreground"},
		servers: []string{"httpd", "httpd-foreground"}, tools: append([]string{"bash"}, shellTools...), ports: []int32{80}, memory: 10 << 20},
	"redis": {entrypoint: []string{"docker-entrypoint.sh"}, cmd: []string{"redis-server"},
		servers: []string{"redis-server"}, tools: append([]string{"bash", "redis-cli"}, shellTools...), ports: []int32{6379}, memory: 6 << 20},
	"busybox": {cmd: []string{"sh"},
		tools: append([]string{"httpd", "nc", "ping", "top", "watch", "wget"}, shellTools...), memory: 512 << 10, busybox: true},
	// app is a distroless Go binary: no shell, so "sh -c" and exec probes fail to start.
	"app":   {entrypoint: []string{"/app"}, servers: []string{"app"}, ports: []int32{8080}, memory: 24 << 20},
	"pause": {entrypoint: []string{"/pause"}, servers: []string{"pause"}, memory: 256 << 10},
	// kubeadm's images (the control plane's, kube-proxy and CoreDNS) are distroless too: the
	// component's binary and nothing else. What they log is the component's own lines
	// (Options.ServerLog); their health endpoints answer 200 on any path.
	"etcd":                    {cmd: []string{"/usr/local/bin/etcd"}, servers: []string{"etcd"}, ports: []int32{2379, 2380, 2381}, memory: 40 << 20, component: true},
	"kube-apiserver":          {cmd: []string{"kube-apiserver"}, servers: []string{"kube-apiserver"}, ports: []int32{6443}, memory: 250 << 20, component: true},
	"kube-controller-manager": {cmd: []string{"kube-controller-manager"}, servers: []string{"kube-controller-manager"}, ports: []int32{10257}, memory: 60 << 20, component: true},
	"kube-proxy":              {cmd: []string{"/usr/local/bin/kube-proxy"}, servers: []string{"kube-proxy"}, ports: []int32{10249, 10256}, memory: 20 << 20, component: true},
	"coredns":                 {entrypoint: []string{"/coredns"}, servers: []string{"coredns"}, ports: []int32{53, 8080, 8181, 9153}, memory: 15 << 20, component: true},
	"kube-scheduler":          {cmd: []string{"kube-scheduler"}, servers: []string{"kube-scheduler"}, ports: []int32{10259}, memory: 25 << 20, component: true},
}

// The environment variables (and the one argument) that steer a container, the kubesim equivalent of
// writing a buggy application. doc.go has the table.
const (
	EnvCrashAfter        = "KUBESIM_CRASH_AFTER"         // "10s": exit with KUBESIM_EXIT_CODE after 10s
	EnvExitCode          = "KUBESIM_EXIT_CODE"           // "3": the code for KUBESIM_CRASH_AFTER (default 1)
	EnvStartDelay        = "KUBESIM_START_DELAY"         // "30s": ports open, and probes pass, only after 30s
	EnvFailLivenessAfter = "KUBESIM_FAIL_LIVENESS_AFTER" // "60s": liveness probes fail from 60s on
	EnvFailReadiness     = "KUBESIM_FAIL_READINESS"      // "true": readiness probes always fail
	EnvMemoryGrowth      = "KUBESIM_MEMORY_GROWTH"       // "10Mi/s": working set grows; OOMKilled past limits.memory
	EnvDiskGrowth        = "KUBESIM_DISK_GROWTH"         // "8Mi/s": it writes to its writable layer (ephemeral-storage)
	ArgCrashAfter        = "kubesim-crash-after="        // the same as KUBESIM_CRASH_AFTER, as an argument
)

// behavior is one container's programme. It is immutable once built.
type behavior struct {
	fam *family
	// envs and hostname make the process's environment (environ), built when something reads it (a
	// shell script at creation, an exec probe): most containers never need it, and a kubelet keeps
	// thousands. envs is the container's config's, shared.
	envs     []KeyValue
	hostname string
	version  string
	startErr string // non-empty: the process cannot start (StartContainer fails with this)
	serves   bool   // a server: listens on fam.ports from startDelay on, runs until stopped
	server   string // which of fam.servers it runs, when it serves

	script *script           // what a shell command does: logs, files, sleeps, exit
	files  map[string]string // the mounted configMap and secret files (ContainerConfig.Files), shared

	exits     bool // the process ends on its own after exitAfter with exitCode
	exitAfter time.Duration
	exitCode  int32
	exitLog   string // a last stderr line when it exits (a crash's complaint)

	startDelay        time.Duration
	failsLiveness     bool
	failLivenessAfter time.Duration
	failReadiness     bool
	growth            uint64 // working-set bytes per second
	diskGrowth        uint64 // bytes written to the writable layer per second

	// gracefulStop: the main process exits 0 on SIGTERM. A shell or sleep running as PID 1 has no
	// SIGTERM handler and the kernel ignores the signal for PID 1, so it dies only by SIGKILL (137)
	// when the grace period ends.
	gracefulStop bool
}

// newBehavior works out what a container will do. Problems in the steering variables become the
// container's own failure (exit 2 with a message), as a real application would fail on bad config.
func newBehavior(fam *family, version string, cfg *ContainerConfig, hostname string) *behavior {
	b := &behavior{fam: fam, version: version, envs: cfg.Envs, hostname: hostname, files: cfg.Files}
	argv := resolveArgv(fam, cfg.Command, cfg.Args)
	if len(argv) > 0 && path.Base(argv[0]) == "docker-entrypoint.sh" {
		argv = argv[1:] // the entrypoint scripts configure, then exec their arguments
	}
	b.program(argv)
	if err := b.steer(cfg); err != nil {
		b.serves, b.script, b.growth, b.diskGrowth = false, nil, 0, 0
		b.exits, b.exitAfter, b.exitCode, b.exitLog = true, 0, 2, "kubesim: "+err.Error()
	}
	return b
}

// resolveArgv applies Kubernetes' rule: command replaces the image's ENTRYPOINT (and drops its CMD),
// args replace CMD.
func resolveArgv(fam *family, command, args []string) []string {
	if len(command) > 0 {
		return slices.Concat(command, args)
	}
	if len(args) > 0 {
		return slices.Concat(fam.entrypoint, args)
	}
	return slices.Concat(fam.entrypoint, fam.cmd)
}

// environ is the environment a container's process starts with, as containerd builds it: the
// image's PATH, HOSTNAME (the pod's hostname), the kubelet's variables in the kubelet's order, then
// HOME, which runc adds when it is missing.
func environ(envs []KeyValue, hostname string) []string {
	env := []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOSTNAME=" + hostname}
	home := true
	for _, kv := range envs {
		env = append(env, kv.Key+"="+kv.Value)
		home = home && kv.Key != "HOME"
	}
	if home {
		env = append(env, "HOME=/root")
	}
	return env
}

// environ is the process's environment, "NAME=value" (the function environ).
func (b *behavior) environ() []string { return environ(b.envs, b.hostname) }

// program decides what argv runs: a server, a shell script, or a single command.
func (b *behavior) program(argv []string) {
	if len(argv) == 0 {
		b.exits = true
		return
	}
	bin := path.Base(argv[0])
	switch {
	case slices.Contains(b.fam.servers, bin):
		b.serves, b.gracefulStop, b.server = true, true, bin
	case !slices.Contains(b.fam.tools, bin):
		b.startErr = fmt.Sprintf("failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: %q: executable file not found in $PATH: unknown", argv[0])
	case (bin == "sh" || bin == "bash" || bin == "ash") && len(argv) >= 3 && argv[1] == "-c":
		b.script = parseScript(argv[2], b.fam, b.environ(), b.files)
	case bin == "sh" || bin == "bash" || bin == "ash":
		// A shell with no -c reads commands from stdin; a pod has none unless stdin: true, so it
		// reads EOF and exits 0 at once. This is why "kubectl create deployment x --image=busybox"
		// ends in CrashLoopBackOff.
		b.exits = true
	default:
		b.script = parseScript(shellQuote(argv), b.fam, b.environ(), b.files)
	}
	if s := b.script; s != nil && s.ends {
		b.exits, b.exitAfter, b.exitCode = true, s.end, s.code
	}
}

// steer applies the KUBESIM_* variables and the kubesim-crash-after= argument.
func (b *behavior) steer(cfg *ContainerConfig) error {
	env := map[string]string{}
	for _, kv := range cfg.Envs {
		env[kv.Key] = kv.Value
	}
	for _, a := range slices.Concat(cfg.Command, cfg.Args) {
		if v, ok := strings.CutPrefix(a, ArgCrashAfter); ok {
			env[EnvCrashAfter] = v
		}
	}
	duration := func(key string) (time.Duration, bool, error) {
		v, ok := env[key]
		if !ok {
			return 0, false, nil
		}
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return 0, false, fmt.Errorf("invalid %s=%q: want a duration such as 30s", key, v)
		}
		return d, true, nil
	}
	if d, ok, err := duration(EnvCrashAfter); err != nil {
		return err
	} else if ok && (!b.exits || d < b.exitAfter) {
		code := int32(1)
		if v, set := env[EnvExitCode]; set {
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n < 0 || n > 255 {
				return fmt.Errorf("invalid %s=%q: want 0-255", EnvExitCode, v)
			}
			code = int32(n)
		}
		b.exits, b.exitAfter, b.exitCode = true, d, code
		b.exitLog = fmt.Sprintf("kubesim: crashing after %s as asked (exit code %d)", d, code)
	}
	var err error
	if b.startDelay, _, err = duration(EnvStartDelay); err != nil {
		return err
	}
	if b.failLivenessAfter, b.failsLiveness, err = duration(EnvFailLivenessAfter); err != nil {
		return err
	}
	if v, ok := env[EnvFailReadiness]; ok {
		if b.failReadiness, err = strconv.ParseBool(v); err != nil {
			return fmt.Errorf("invalid %s=%q: want true or false", EnvFailReadiness, v)
		}
	}
	if b.growth, err = rate(env, EnvMemoryGrowth); err != nil {
		return err
	}
	if b.diskGrowth, err = rate(env, EnvDiskGrowth); err != nil {
		return err
	}
	return nil
}

// rate parses a steering variable that is a rate of bytes ("10Mi/s"); absent is 0.
func rate(env map[string]string, key string) (uint64, error) {
	v, ok := env[key]
	if !ok {
		return 0, nil
	}
	q, err := resource.ParseQuantity(strings.TrimSuffix(v, "/s"))
	if err != nil || !strings.HasSuffix(v, "/s") || q.Sign() < 0 {
		return 0, fmt.Errorf("invalid %s=%q: want a rate such as 10Mi/s", key, v)
	}
	return uint64(q.Value()), nil
}

// exitReason is containerd's reason for an exit code.
func exitReason(code int32) string {
	if code == 0 {
		return "Completed"
	}
	return "Error"
}

// ending is how a container finished: when, with which code, and containerd's reason.
type ending struct {
	at     time.Time
	code   int32
	reason string
	log    string // a last stderr line, if any
}

// naturalEnd returns how a container started at start ends by itself, if it ever does: its programme
// exits, or its memory passes limit (0: unlimited) and the cgroup's OOM killer sends SIGKILL.
func (b *behavior) naturalEnd(start time.Time, limit int64) (ending, bool) {
	var e ending
	ok := false
	if b.exits {
		e, ok = ending{at: start.Add(b.exitAfter), code: b.exitCode, reason: exitReason(b.exitCode), log: b.exitLog}, true
	}
	if limit > 0 && b.growth > 0 || limit > 0 && b.fam.memory > uint64(limit) {
		oom := start
		if m := b.fam.memory; m <= uint64(limit) {
			secs := float64(uint64(limit)-m) / float64(b.growth)
			oom = start.Add(time.Duration(math.Ceil(secs*1000)) * time.Millisecond)
		}
		if !ok || oom.Before(e.at) {
			e, ok = ending{at: oom, code: 137, reason: "OOMKilled"}, true
		}
	}
	return e, ok
}

// memoryAt is the working set after running for elapsed.
func (b *behavior) memoryAt(elapsed time.Duration) uint64 {
	return b.fam.memory + uint64(elapsed.Seconds()*float64(b.growth))
}

// shellQuote joins argv back into one shell command line, quoting words with spaces.
func shellQuote(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t;&|'\"$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words[i] = a
	}
	return strings.Join(words, " ")
}
