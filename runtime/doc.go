// Package fakeruntime is containerd behind the Container Runtime Interface, in miniature: the only
// thing a kubesim kubelet talks to about containers. The directory is runtime/ but the package is
// fakeruntime, so that it never shadows the standard library's runtime package.
//
// It mirrors k8s.io/cri-api/pkg/apis/runtime/v1 (the RuntimeService and ImageService gRPC services,
// with their method names and message shapes) as implemented by containerd's CRI plugin, runc and a
// bridge CNI plugin with host-local IPAM. Read next: cri.go for the contract, then container.go for
// the lifecycle; in Kubernetes, api.proto in k8s.io/cri-api, then pkg/kubelet/kuberuntime
// (kuberuntime_sandbox.go, kuberuntime_container.go, kuberuntime_image.go) for the caller's side,
// and pkg/kubelet/pleg/generic.go for how the kubelet notices what changed.
//
// # What the caller (the kubelet) does
//
//  1. New(Options{Clock, NodeName}) once per node; the pause image is already present. Once the
//     Node has its podCIDR, UpdateRuntimeConfig (cni.go); until then sandboxes fail.
//  2. Per pod: RunPodSandbox (CNI ADD: the pod IP comes from the podCIDR; a hostNetwork sandbox
//     skips CNI and has no IP of its own), then for each container PullImage
//     (if the image policy asks), CreateContainer, StartContainer.
//  3. Relist: ListPodSandbox and ListContainers, compare with the last relist, and ask
//     ContainerStatus for what changed. The runtime never calls back; exits are found this way.
//  4. Probe with ProbeContainer; read logs with ContainerLogs; read usage with Stats.
//  5. To kill a pod: StopContainer for each container (with the grace period), StopPodSandbox,
//     later RemoveContainer / RemovePodSandbox.
//
// # What a container does
//
// The image and the command decide; the KUBESIM_* environment variables then bend it. Every rule
// is a function of the start time and the clock's Now, so idle containers cost nothing.
//
//	image / command                  behaviour
//	-------------------------------  -----------------------------------------------------------
//	nginx, httpd (default cmd)       serve forever on :80; startup banner in the log; HTTP probes
//	                                 pass on "/" and "/index.html" (other paths: 404) and write
//	                                 an access-log line; SIGTERM -> exit 0 "Completed"
//	redis (default cmd)              serve forever on :6379; TCP probes pass; "redis-cli ping"
//	                                 exec probes answer PONG; SIGTERM -> exit 0
//	registry.example.com/.../app     a distroless server on :8080, every HTTP path 200; no shell,
//	                                 so "sh -c" fails to start and exec probes fail to exec
//	registry.k8s.io/kube-apiserver,  kubeadm's images (KubeadmImages): the component serves
//	  etcd, kube-controller-manager,  forever; its log is the component's own lines
//	  kube-scheduler, kube-proxy,    (Options.ServerLog); HTTP probes pass on any path;
//	  coredns/coredns                Options.Preloaded puts them on a node
//	busybox (no command)             "sh" with no stdin: exits 0 at once ("Completed") -> a
//	                                 Deployment of it ends in CrashLoopBackOff
//	sleep N                          exits 0 after N seconds; "sleep infinity" never exits
//	sh -c "exit 1", false            exits 1 right after start ("Error")
//	sh -c "echo hi; sleep 5; ..."    echo writes log lines at their time; touch/rm create files
//	                                 for "cat /tmp/healthy" exec probes; a "while true; do ...;
//	                                 done" loop repeats forever (script.go lists what is understood)
//	env, printenv, echo $NAME        the environment containerd gives the process: PATH, HOSTNAME,
//	                                 the kubelet's variables (Service links among them), HOME
//	hostname                         the pod's hostname (spec.hostname, else the pod's name; the
//	                                 node's on the host network), as $HOSTNAME holds it
//	tail -f, ping, top, nc, a server runs until stopped
//	a binary the image lacks         StartContainer fails: "exec: \"x\": executable file not
//	                                 found in $PATH"; exit code 128, reason "StartError"
//	a shell or sleep as PID 1        ignores SIGTERM: StopContainer waits the whole grace period,
//	                                 then SIGKILL -> exit 137 "Error"
//
//	steering                         effect
//	-------------------------------  -----------------------------------------------------------
//	KUBESIM_CRASH_AFTER=10s          exit with KUBESIM_EXIT_CODE (default 1) 10s after start;
//	  or argument kubesim-crash-after=10s
//	KUBESIM_START_DELAY=30s          ports open (and probes pass) only 30s after start
//	KUBESIM_FAIL_LIVENESS_AFTER=60s  liveness probes fail from 60s on (HTTP 500, TCP timeout,
//	                                 exec exit 1)
//	KUBESIM_FAIL_READINESS=true      readiness probes always fail (HTTP 503, ...)
//	KUBESIM_MEMORY_GROWTH=10Mi/s     the working set grows from the image's base; past
//	                                 limits.memory the OOM killer ends it: exit 137 "OOMKilled";
//	                                 without a limit it grows until the kubelet evicts the pod
//	KUBESIM_DISK_GROWTH=8Mi/s        it writes to its writable layer at this rate, filling the
//	                                 node's disk (disk.go) until the kubelet evicts the pod
//	a bad value in any of these      the container exits 2 at once, saying why, in its log
//
// A node crash (SetFault(FaultKill{})) ends every running container with exit 255, reason
// "Unknown", as containerd reports containers whose task vanished.
//
// # What this package promises
//
//   - Names, states, exit codes, reasons and error texts are containerd's and the kubelet's, so
//     kubectl describe in kubesim reads like a real cluster's (images.go has the pull failures).
//   - Errors are gRPC-shaped (*Error with a Code, "rpc error: code = NotFound desc = ..."), and the
//     faults (faults.go) fail calls the way a slow, hung or dead containerd would.
//   - Determinism: IDs are 64 hex digits derived from the node name and a counter, times come from
//     the injected clock, lists are in creation order, images by ID, stats by container ID.
//   - Calls that take time (pulls, graceful stops, slow or hung faults) wait on the clock with
//     Clock.Sleep: blocking on a Real clock, advancing a Virtual one (see faults.go's wait).
//
// # What it simplifies
//
//   - No processes, files, namespaces or cgroups: behaviour is computed, not run (behavior.go). The
//     only files are those a command's touch or echo > make, and the configMap and secret files the
//     kubelet projects (ContainerConfig.Files), which cat prints.
//   - HTTP and TCP probes go through the runtime (ProbeContainer), not from the kubelet to the pod
//     IP; ExecSync, Exec, Attach and PortForward are not offered.
//   - Stats is one summary call, instead of ListContainerStats, ListPodSandboxStats and ImageFsInfo
//     assembled by the kubelet's stats provider; sandboxes count no memory.
//   - IPv4 only, one pod network; hostPort mappings are stored, not enforced.
//   - Three registries with a fixed catalogue (catalogue.go); credentials are one user and password.
package fakeruntime
