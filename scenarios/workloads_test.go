package scenarios_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSelfHealingReplacesADeletedPodWithANewOne(t *testing.T) {
	expectSigns(t, "self-healing",
		"kubectl delete pod nginx-",
		"wants 3, has 2 -> create 1 pods (expecting 1 adds)",
		"event Normal SuccessfulCreate: Created pod: nginx-",
		"one of them is new: nginx-",
		"event Normal Scheduled: Successfully assigned default/nginx-")
}

func TestScaleDownRemovesUnscheduledPodsFirst(t *testing.T) {
	expectSigns(t, "scale",
		"from 3 to 5",
		"0/3 nodes are available: 3 node(s) were unschedulable.",
		"from 5 to 2",
		"wants 2, has 5 -> delete 3 pods (expecting 3 deletes)",
		"(unassigned, Pending, not ready), nginx-",
		"the 2 pods kept are original, Running ones",
		"READY 2/2")
}

func TestRollingUpdateStaysWithinMaxSurgeAndMaxUnavailableAndUndoes(t *testing.T) {
	expectSigns(t, "rolling-update",
		"kubectl set image deployment/nginx nginx=nginx:1.27",
		"from 0 to 1",
		"from 3 to 2",
		"at most 4 pods wanted (3 + maxSurge 1; at most 4 seen) and at least 3 ready (3 - maxUnavailable 0; at least 3 seen)",
		"deployment.kubernetes.io/revision: 2",
		"kubectl rollout undo deployment/nginx",
		"revision 3, revision-history 1 (no third ReplicaSet)",
		"every one Running nginx:1.25")
}

func TestDeleteCascadeGarbageCollectsOrOrphansDependents(t *testing.T) {
	expectSigns(t, "delete-cascade",
		"is gone (background propagation)",
		"No resources found in default namespace.",
		"finalizers [orphan]",
		"remove their ownerReference, then the orphan finalizer",
		"with no ownerReferences (an orphan)",
		"the same 3 Pods keep running")
}

func TestUnauthenticatedRequestsGet401AndWriteNothing(t *testing.T) {
	expectSigns(t, "unauthenticated",
		"invalid bearer token -> 401 Unauthorized",
		"Error from server (Unauthorized): Unauthorized",
		"x509: certificate has expired or is not yet valid",
		"nothing was written")
}

func TestForbiddenUntilARoleBindingGrantsExactlyWhatItSays(t *testing.T) {
	expectSigns(t, "forbidden",
		`Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`,
		"kubectl auth can-i list pods -n default --as alice -> no",
		`user "kubernetes-admin" (groups [system:masters system:authenticated]) acts as user "alice" (groups [system:authenticated])`,
		`allowed by RoleBinding "default/alice-reads-pods" of Role "pod-reader" to User "alice"`,
		`pods "web" is forbidden: User "alice" cannot delete resource "pods"`,
		`in the namespace "kube-system"`)
}

func TestInvalidObjectGets422WithOneCausePerFieldAnd400ForAnUnknownField(t *testing.T) {
	expectSigns(t, "invalid-object",
		`Error from server (Invalid): Deployment.apps "Nginx_Web" is invalid`,
		"one cause per field path: metadata.name, spec.replicas, spec.template.spec.containers[0].image",
		`strict decoding error: unknown field "spec.replica"`,
		"deployment.apps/nginx created")
}

func TestConflictGets409AndARetryOnAFreshReadKeepsBothChanges(t *testing.T) {
	expectSigns(t, "conflict",
		`Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again`,
		"writer 2's retry from resourceVersion",
		"replicas 4 and image nginx:1.27: neither writer's change was lost")
}

func TestWatchResumeDeliversExactlyTheMissedEvents(t *testing.T) {
	expectSigns(t, "watch-resume",
		"the watch connection is lost; last resourceVersion applied: 36",
		"handler: OnAdd default/web (resourceVersion 38",
		"handler: OnDelete default/web (its final state, resourceVersion 40: the deletion's revision)",
		"exactly the missed events, in etcd's order, none twice",
		"it did not list again")
}

func TestWatchExpiredGets410AndRelists(t *testing.T) {
	expectSigns(t, "watch-expired",
		"compacted history up to revision",
		"answered 410 Gone (too old resource version",
		"the informer relisted once (Relists() = 1)",
		`apiserver_request_total{verb="WATCH", resource="deployments", code="410"}: 0 -> 1`,
		"the relist",
		"web, created and deleted while it was away, never appeared")
}

func TestEtcdSlowShowsTheWaitInEtcd(t *testing.T) {
	expectSigns(t, "etcd-slow",
		"etcd's disk is slow: every write now waits 200ms for fsync",
		"(the write waited 200ms in etcd)",
		"the POST took 200ms in the apiserver: exactly the 200ms it waited for etcd",
		"the pods were bound 5.2s after the apply instead of 0s")
}

func TestLeaderElectionHandsTheLeaseOverAndLosesNoWork(t *testing.T) {
	expectSigns(t, "leader-election",
		`successfully acquired lease kube-system/kube-controller-manager as control-plane-2_89ae71dc-fadd-45f3-baf9-d6722a521748 (previous holder "control-plane_1b666357-df6d-48b9-80d2-9b9b7a425d43", leaseTransitions 1)`,
		"event LeaderElection on the Lease: control-plane-2_89ae71dc-fadd-45f3-baf9-d6722a521748 became leader",
		"its ReplicaSet still says 3: no controller is running",
		"ReplicaSet nginx-77bf8679f9: replicas 5")
}

func TestSplitBrainConvergesWithNoExtraPods(t *testing.T) {
	expectSigns(t, "split-brain",
		"both think they lead: kube-controller-manager IsLeader true, kube-controller-manager-2 IsLeader true",
		"connection refused (network partition) -> requeued with backoff",
		"wants 5, has 5: nothing to do",
		"control-plane_1b666357-df6d-48b9-80d2-9b9b7a425d43 stops leading",
		"5 pods (3 + exactly 2 created), not 7")
}

func TestStaleCacheExpectationsPreventADoubleCreate(t *testing.T) {
	expectSigns(t, "stale-cache",
		"wants 3, has 0 -> create 3 pods (expecting 3 adds)",
		"the pod informer holds 3 events it has not applied",
		"wants 3, its cache shows 0, but 3 adds and 0 deletes it made are not in the cache yet -> wait (expectations)",
		"still 3 pods, not 6",
		"wants 3, has 3: nothing to do")
}

func TestWorkloadScenariosTellTheirStepsInChinese(t *testing.T) {
	told := storyInChinese(t, "split-brain")
	assert.Contains(t, told, "集群收敛了")
	assert.Contains(t, told, "第二个副本 kube-controller-manager-2 待命")
}

func TestConfigMissingIsCreateContainerConfigErrorUntilCreated(t *testing.T) {
	expectSigns(t, "config-missing",
		`✓ kubectl get pod app: STATUS CreateContainerConfigError: configmap "app-config" not found`,
		`event Warning Failed: Error: configmap "app-config" not found`,
		`✓ kubectl get pod app: STATUS CreateContainerConfigError: secret "app-secret" not found`,
		"✓ stored Secret app-secret: type Opaque, data keys password, username, stringData none",
		"✓ kubectl get pod app: Running")
}

func TestInitContainerFailureHoldsTheAppContainer(t *testing.T) {
	expectSigns(t, "init-container-failure",
		"✓ kubectl get pods -w: web-5f5dd7549b-",
		" Pending, Init:0/1, Init:Error, Init:0/1, Init:Error, Init:CrashLoopBackOff",
		"✓ app container web: waiting (PodInitializing), restarts 0: never created",
		"✓ condition Initialized=False (ContainersNotInitialized): containers with incomplete status: [wait-for-db]",
		"✓ kubectl get pods -w: migrate-once Pending, Init:0/1, Init:Error, phase Failed",
		"Init:0/1, PodInitializing, Running")
}
