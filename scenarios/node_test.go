package scenarios_test

import (
	"testing"
)

// The node scenarios (section 6 of the catalogue) tell their stories with the signs a real cluster
// shows: the kubelet's events, the pod and node conditions, the controllers' reactions.
func TestNodeScenariosShowKubernetesSigns(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		signs    []string
	}{
		{"image-pull-backoff", []string{
			`Failed to pull image "ngnix:1.25": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/ngnix:1.25"`,
			"pull access denied, repository does not exist or may require authorization",
			"no basic auth credentials",
			"no match for platform in manifest: not found",
			"event Warning Failed: Error: ErrImagePull",
			`event Normal BackOff: Back-off pulling image "ngnix:1.25"`,
			"event Warning Failed: Error: ImagePullBackOff",
			"STATUS ErrImagePull",
			"STATUS ImagePullBackOff",
			"kubectl shows ErrImagePull until the retry in",
			"up to the pod worker's next retry: 14.3s, 27.5s, 43.5s, 1m29.5s;",
		}},
		{"crash-loop", []string{
			"Last State Terminated, Reason Error, Exit Code 1",
			"back-off 10s restarting failed container=app pod=crasher_default(",
			"the back-offs were 10s, 20s, 40s, 1m20s, 2m40s, 5m0s",
			"event Warning BackOff: Back-off restarting failed container app in pod crasher_default(",
			"STATUS CrashLoopBackOff, RESTARTS 6",
		}},
		{"probes", []string{
			"Liveness probe failed: HTTP probe failed with statuscode: 500",
			"event Normal Killing: Container nginx failed liveness probe, will be restarted",
			"Readiness probe failed: cat: can't open '/tmp/healthy'",
			"READY 0/1, STATUS Running, RESTARTS 0",
			"Startup probe failed: Get",
			"slow-start: Ready once its server listened (60s), RESTARTS 0",
		}},
		{"oom-killed", []string{
			"Last State: Terminated, Reason: OOMKilled, Exit Code: 137",
			"STATUS CrashLoopBackOff, RESTARTS 1, last state OOMKilled (137)",
		}},
		{"node-pressure-eviction", []string{
			"event Warning EvictionThresholdMet: Attempting to reclaim memory",
			"The node was low on resource: memory. Threshold quantity: 100Mi, available:",
			"Container cache was using",
			"request is 0, has larger consumption of memory.",
			"MemoryPressure True, KubeletHasInsufficientMemory",
			"node.kubernetes.io/memory-pressure:NoSchedule",
			"evicted cache at 1m50s, then api at 4m0s",
		}},
		{"disk-pressure", []string{
			"event Warning EvictionThresholdMet: Attempting to reclaim ephemeral-storage",
			"reclaiming dead containers and unused images first",
			"image-gc: removed image docker.io/library/nginx:1.25",
			"Images no longer include docker.io/library/nginx:1.25, docker.io/library/httpd:2.4, docker.io/library/redis:7.2; logger still Running",
			"The node was low on resource: ephemeral-storage. Threshold quantity: 644245120, available:",
			"Container logger was using",
			"request is 0, has larger consumption of ephemeral-storage.",
			"Conditions DisruptionTarget True (TerminationByKubelet)",
			"DiskPressure True, KubeletHasDiskPressure, kubelet has disk pressure",
			"node.kubernetes.io/disk-pressure:NoSchedule",
			"1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }",
			"container-gc: removed sandbox",
			"DiskPressure False, KubeletHasNoDiskPressure, kubelet has no disk pressure; taints: <none>",
		}},
		{"node-down", []string{
			"kubelet on node-2 stopped: no more Lease renewals",
			"Ready Unknown, NodeStatusUnknown, Kubelet stopped posting node status.",
			"event Normal NodeNotReady: Node node-2 status is now: NodeNotReady",
			"taint node node-2 with node.kubernetes.io/unreachable:NoExecute",
			"TaintManagerEviction: Marking for deletion Pod default/nginx-",
			"evicted 5m0s after the taint: tolerationSeconds 300",
			"node-2 is Ready again",
		}},
		{"runtime-hung", []string{
			"PLEG relist failed after 2m0s: rpc error: code = DeadlineExceeded",
			"Ready False, KubeletNotReady, container runtime is down",
			"[container runtime is down, PLEG is not healthy: pleg was last seen active 3m",
			"the kubelet is alive, so the node is NotReady, not Unknown",
			"node.kubernetes.io/not-ready:NoExecute",
			"the same container, running since before the hang",
			"RESTARTS 0, same container ID",
		}},
		{"kubelet-cert-expired", []string{
			"x509: certificate has expired or is not yet valid",
			"-> 401 Unauthorized",
			"lease: failed to renew lease: Unauthorized",
			"NotReady (Ready Unknown, NodeStatusUnknown",
			"the container of nginx-",
			"renewed the Lease again after failures (Unauthorized)",
			"the clock of node-3 is off by 17520h0m0s",
			"x509: certificate has expired or is not yet valid: current time 2027-01-01T00:01:10Z is after 2026-01-01T00:00:00Z",
		}},
		{"node-join", []string{
			"registered node node-4: capacity cpu 4, memory 8Gi, pods 110; allocatable cpu 4, memory 8092Mi; podCIDR none yet",
			"event Normal NodeNotReady: Node node-4 status is now: NodeNotReady",
			"just registered: Ready False (KubeletNotReady): container runtime network not ready: NetworkReady=false " +
				"reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized",
			"node node-4 has no podCIDR: assign 10.244.3.0/24",
			"taint: node node-4: NoSchedule taints follow its conditions: add node.kubernetes.io/not-ready:NoSchedule",
			"pod network configured: podCIDR 10.244.3.0/24",
			"node status: Ready=True (KubeletReady) -> changed: Ready False->True",
			"event Normal NodeReady: Node node-4 status is now: NodeReady",
			"node-4 untainted: node.kubernetes.io/not-ready:NoSchedule removed once it is Ready",
			"kubectl get nodes: 4 nodes",
			"created Lease kube-node-lease/node-4",
			"to node-4",
			"a pod of nginx runs on node-4 and is Ready",
		}},
		{"local-autonomy", []string{
			"network partition: kubelet/node-1 can no longer reach kube-apiserver",
			"failed to renew lease: update leases: dial kube-apiserver: connection refused (network partition)",
			"NotReady (Ready Unknown), tainted node.kubernetes.io/unreachable:NoExecute",
			"nginx still running in the same container",
			"the kubelet restarted it on its own (attempt 1)",
			"kubectl get pod worker: RESTARTS 1",
		}},
		{"cordon-drain", []string{
			"kubectl cordon node-1",
			"Ready,SchedulingDisabled",
			"node.kubernetes.io/unschedulable:NoSchedule",
			"ignoring DaemonSet-managed pod default/log-agent-",
			"evicting pod default/nginx-",
			"allowed (no PodDisruptionBudget)",
			"still Running on node-1 (--ignore-daemonsets)",
		}},
	} {
		t.Run(tc.scenario, func(t *testing.T) { expectSigns(t, tc.scenario, tc.signs...) })
	}
}

func TestPDBBlocksDrainUntilAReplacementIsReady(t *testing.T) {
	expectSigns(t, "pdb-blocks-drain",
		"✓ kubectl get pdb web-pdb: MAX UNAVAILABLE 1, ALLOWED DISRUPTIONS 1 (expected 6, desired 5, healthy 6; DisruptionAllowed=True)",
		"allowed by PodDisruptionBudget web-pdb (disruptionsAllowed now 0)",
		`-> 429 Cannot evict pod as it would violate the pod's disruption budget.`,
		`drain: error when evicting pods/"web-569b55686c-`,
		`" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
		"✓ node-1 runs no web pod; deployment web: 6/6 available")
}
