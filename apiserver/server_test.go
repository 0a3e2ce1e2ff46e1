package apiserver

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/trace"
	"kubesim/wire"
)

// testServer is a real apiserver on a real embedded etcd, with a few identities.
type testServer struct {
	*Server
	store *store.Store
	clock *clock.Virtual
	trace *trace.Recorder
}

const (
	adminToken = "admin-token"
	aliceToken = "alice-token"
	node1Token = "node-1-token"
	schedToken = "scheduler-token"
)

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	clk := clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	st, err := store.Open(ctx, store.Config{Clock: clk})
	require.NoError(t, err)
	tr := trace.NewRecorder(clk, true)
	s := New(Config{Store: st, Clock: clk, Trace: tr, Seed: 1})
	require.NoError(t, s.Start(ctx))
	t.Cleanup(func() {
		cancel()
		st.Close()
	})
	s.AddCredential(Credential{Token: adminToken, User: User{Name: "admin", Groups: []string{GroupMasters}}})
	s.AddCredential(Credential{Token: aliceToken, User: User{Name: "alice"}})
	s.AddCredential(Credential{Token: node1Token, User: User{Name: "system:node:node-1", Groups: []string{GroupNodes}}})
	s.AddCredential(Credential{Token: schedToken, User: User{Name: "system:kube-scheduler"}})
	return &testServer{Server: s, store: st, clock: clk, trace: tr}
}

func (ts *testServer) do(t testing.TB, token string, req wire.Request) (*wire.Response, error) {
	t.Helper()
	req.Token = token
	return ts.Do(context.Background(), &req)
}

func (ts *testServer) create(t testing.TB, obj api.Object) api.Object {
	t.Helper()
	res, ok := api.ResourceOf(obj)
	require.True(t, ok)
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: res.Name, Namespace: obj.GetObjectMeta().Namespace, Body: obj})
	require.NoError(t, err)
	return resp.Object
}

// createCached creates pod and waits until the watch cache holds it.
func (ts *testServer) createCached(t testing.TB, pod *api.Pod) *api.Pod {
	t.Helper()
	created := ts.create(t, pod).(*api.Pod)
	require.NoError(t, ts.WaitForRevision(context.Background(), rvOf(t, created)))
	return created
}

// staleCache puts old back into the watch cache's pods under key, as a cache lagging behind etcd
// (another apiserver wrote) would still hold it.
func (ts *testServer) staleCache(key string, old api.Object) {
	ts.cache.mu.Lock()
	defer ts.cache.mu.Unlock()
	ts.cache.resources["pods"].put(key, old)
}

func nginxPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "nginx"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
}

func rvOf(t testing.TB, obj api.Object) int64 {
	t.Helper()
	rv, err := strconv.ParseInt(obj.GetObjectMeta().ResourceVersion, 10, 64)
	require.NoError(t, err)
	return rv
}

func TestCreateFillsServerOwnedFieldsAndStoresReadableJSON(t *testing.T) {
	ts := newTestServer(t)
	pod := ts.create(t, nginxPod("web")).(*api.Pod)
	assert.NotEmpty(t, pod.UID)
	assert.False(t, pod.CreationTimestamp.IsZero())
	assert.Equal(t, int64(1), pod.Generation)
	// Defaulting and admission ran.
	assert.Equal(t, api.RestartPolicyAlways, pod.Spec.RestartPolicy)
	assert.Equal(t, "default-scheduler", pod.Spec.SchedulerName)
	assert.Equal(t, "default", pod.Spec.ServiceAccountName)
	assert.Len(t, pod.Spec.Tolerations, 2, "DefaultTolerationSeconds adds not-ready and unreachable")

	kv, err := ts.store.Get(context.Background(), "/registry/pods/default/web")
	require.NoError(t, err)
	assert.Contains(t, string(kv.Value), `"image":"nginx:1.25"`)
	assert.NotContains(t, string(kv.Value), "resourceVersion", "the resourceVersion is etcd's revision, never stored in the value")
	assert.Equal(t, strconv.FormatInt(kv.ModRevision, 10), pod.ResourceVersion)
}

func TestResourceVersionsStrictlyIncrease(t *testing.T) {
	ts := newTestServer(t)
	var last int64
	for i := 0; i < 20; i++ {
		obj := ts.create(t, nginxPod("p"+strconv.Itoa(i)))
		rv := rvOf(t, obj)
		assert.Greater(t, rv, last)
		last = rv
	}
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "p3"})
	require.NoError(t, err)
	pod := api.DeepCopy(resp.Object.(*api.Pod))
	pod.Labels["tier"] = "web"
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Name: "p3", Body: pod})
	require.NoError(t, err)
	assert.Greater(t, rvOf(t, resp.Object), last)
}

func TestUnknownCredentialsAre401AndWriteNothing(t *testing.T) {
	ts := newTestServer(t)
	for _, token := range []string{"", "forged"} {
		_, err := ts.do(t, token, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("x")})
		require.Error(t, err)
		assert.True(t, apierrors.IsUnauthorized(err))
		assert.Equal(t, "Unauthorized", err.Error())
		assert.Equal(t, 401, apierrors.CodeForError(err))
	}
	_, err := ts.store.Get(context.Background(), "/registry/pods/default/x")
	assert.True(t, store.IsNotFound(err))
}

func TestExpiredCredentialIs401(t *testing.T) {
	ts := newTestServer(t)
	ts.AddCredential(Credential{Token: "short", User: User{Name: "system:node:node-9", Groups: []string{GroupNodes}},
		NotAfter: ts.clock.Now().Add(time.Hour)})
	_, err := ts.do(t, "short", wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-9"})
	assert.True(t, apierrors.IsNotFound(err), "valid for now: passes authentication")
	ts.clock.Advance(2 * time.Hour)
	_, err = ts.do(t, "short", wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-9"})
	assert.True(t, apierrors.IsUnauthorized(err))
	assert.True(t, traceContains(ts.trace, "certificate has expired"), "the trace says why")
}

func traceContains(tr *trace.Recorder, s string) bool {
	for _, e := range tr.Events() {
		if strings.Contains(e.Message, s) {
			return true
		}
	}
	return false
}

func TestRBACDeniesByDefaultWithKubernetesMessage(t *testing.T) {
	ts := newTestServer(t)
	_, err := ts.do(t, aliceToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default"})
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err))
	assert.Equal(t, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`, err.Error())

	_, err = ts.do(t, aliceToken, wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-1"})
	assert.Equal(t, `nodes "node-1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope`, err.Error())

	_, err = ts.do(t, aliceToken, wire.Request{Verb: wire.VerbCreate, Resource: "deployments", Namespace: "default",
		Body: &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "d"}}})
	assert.Equal(t, `deployments.apps "d" is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"`, err.Error())

	// A RoleBinding to the view ClusterRole lets alice read pods in default, and only there.
	ts.create(t, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-view", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "view"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice"}}})
	_, err = ts.do(t, aliceToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default"})
	assert.NoError(t, err)
	_, err = ts.do(t, aliceToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "kube-system"})
	assert.True(t, apierrors.IsForbidden(err))
	_, err = ts.do(t, aliceToken, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "x"})
	assert.True(t, apierrors.IsForbidden(err), "view does not allow delete")
}

func TestNodeAuthorizerLimitsAKubeletToItsOwnObjects(t *testing.T) {
	ts := newTestServer(t)
	for _, n := range []string{"node-1", "node-2"} {
		ts.create(t, &api.Node{ObjectMeta: api.ObjectMeta{Name: n}})
	}
	mine, other := nginxPod("mine"), nginxPod("other")
	mine.Spec.NodeName, other.Spec.NodeName = "node-1", "node-2"
	ts.create(t, mine)
	ts.create(t, other)

	_, err := ts.do(t, node1Token, wire.Request{Verb: wire.VerbList, Resource: "pods", FieldSelector: "spec.nodeName=node-1"})
	assert.NoError(t, err, "a kubelet lists its own pods")
	_, err = ts.do(t, node1Token, wire.Request{Verb: wire.VerbList, Resource: "pods"})
	assert.True(t, apierrors.IsForbidden(err), "but not everyone's")
	_, err = ts.do(t, node1Token, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "other"})
	assert.True(t, apierrors.IsForbidden(err))
	assert.Contains(t, err.Error(), "no relationship found between node 'node-1' and this object")

	got, err := ts.do(t, node1Token, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "mine"})
	require.NoError(t, err)
	pod := api.DeepCopy(got.Object.(*api.Pod))
	pod.Status.Phase = api.PodRunning
	_, err = ts.do(t, node1Token, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Name: "mine", Body: pod})
	assert.NoError(t, err, "and updates their status")

	n2, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-2"})
	require.NoError(t, err)
	_, err = ts.do(t, node1Token, wire.Request{Verb: wire.VerbUpdate, Resource: "nodes", Subresource: "status", Name: "node-2", Body: n2.Object})
	assert.True(t, apierrors.IsForbidden(err), "node-1 may not write node-2")

	lease := &api.Lease{ObjectMeta: api.ObjectMeta{Name: "node-1", Namespace: "kube-node-lease"}}
	_, err = ts.do(t, node1Token, wire.Request{Verb: wire.VerbCreate, Resource: "leases", Namespace: "kube-node-lease", Body: lease})
	assert.NoError(t, err)
	lease.Name = "node-2"
	_, err = ts.do(t, node1Token, wire.Request{Verb: wire.VerbCreate, Resource: "leases", Namespace: "kube-node-lease", Body: lease})
	assert.True(t, apierrors.IsForbidden(err))
}

func TestInvalidObjectsAre422WithCausesNamingTheField(t *testing.T) {
	ts := newTestServer(t)
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Ptr(int32(-1)), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx"}}}}}}
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "deployments", Namespace: "default", Body: d})
	require.Error(t, err)
	assert.True(t, apierrors.IsInvalid(err))
	assert.Equal(t, 422, apierrors.CodeForError(err))
	assert.True(t, strings.HasPrefix(err.Error(), `Deployment.apps "nginx" is invalid: `), err.Error())
	var fields []string
	for _, c := range err.(*apierrors.StatusError).ErrStatus.Details.Causes {
		fields = append(fields, c.Field)
	}
	assert.Contains(t, fields, "spec.replicas")
	assert.Contains(t, fields, "spec.template.spec.containers[0].image")
	_, gerr := ts.store.Get(context.Background(), "/registry/deployments/default/nginx")
	assert.True(t, store.IsNotFound(gerr), "nothing written")

	long := nginxPod(strings.Repeat("a", 254))
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: long})
	assert.True(t, apierrors.IsInvalid(err))
	assert.Contains(t, err.Error(), "metadata.name")
}

func TestStaleResourceVersionIs409Conflict(t *testing.T) {
	ts := newTestServer(t)
	created := ts.create(t, nginxPod("web")).(*api.Pod)
	first, second := api.DeepCopy(created), api.DeepCopy(created)
	first.Labels["writer"] = "first"
	second.Labels["writer"] = "second"
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Name: "web", Body: first})
	require.NoError(t, err)
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Name: "web", Body: second})
	require.Error(t, err)
	assert.True(t, apierrors.IsConflict(err))
	assert.Equal(t, `Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again`, err.Error())
}

func TestCreateTwiceIsAlreadyExistsAndMissingIsNotFound(t *testing.T) {
	ts := newTestServer(t)
	ts.create(t, nginxPod("web"))
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("web")})
	assert.True(t, apierrors.IsAlreadyExists(err))
	assert.Equal(t, `pods "web" already exists`, err.Error())
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "nope"})
	assert.True(t, apierrors.IsNotFound(err))
	assert.Equal(t, `pods "nope" not found`, err.Error())
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "deployments", Namespace: "default", Name: "nope"})
	assert.Equal(t, `deployments.apps "nope" not found`, err.Error())
}

func TestDryRunValidatesEverythingAndWritesNothing(t *testing.T) {
	ts := newTestServer(t)
	before, err := ts.store.CurrentRevision(context.Background())
	require.NoError(t, err)
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("web"), DryRun: true})
	require.NoError(t, err)
	assert.Equal(t, "default", resp.Object.(*api.Pod).Spec.ServiceAccountName, "admission ran")
	bad := nginxPod("web")
	bad.Spec.Containers[0].Image = ""
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: bad, DryRun: true})
	assert.True(t, apierrors.IsInvalid(err), "validation ran")
	after, err := ts.store.CurrentRevision(context.Background())
	require.NoError(t, err)
	assert.Equal(t, before, after, "nothing written to etcd")
}

func TestGenerateNameAndGenerationBumpsOnSpecChangesOnly(t *testing.T) {
	ts := newTestServer(t)
	p := nginxPod("")
	p.GenerateName = "nginx-"
	pod := ts.create(t, p).(*api.Pod)
	assert.Regexp(t, `^nginx-[bcdfghjklmnpqrstvwxz2456789]{5}$`, pod.Name)

	d := ts.create(t, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
		Spec: api.DeploymentSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}}}).(*api.Deployment)
	assert.Equal(t, int64(1), d.Generation)

	labelled := api.DeepCopy(d)
	labelled.Labels = map[string]string{"team": "web"}
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "deployments", Namespace: "default", Name: "nginx", Body: labelled})
	require.NoError(t, err)
	d = resp.Object.(*api.Deployment)
	assert.Equal(t, int64(1), d.Generation, "metadata changes do not bump generation")

	withStatus := api.DeepCopy(d)
	withStatus.Status.ObservedGeneration = 1
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "deployments", Subresource: "status", Namespace: "default", Name: "nginx", Body: withStatus})
	require.NoError(t, err)
	d = resp.Object.(*api.Deployment)
	assert.Equal(t, int64(1), d.Generation, "status changes do not bump generation")
	assert.Equal(t, int64(1), d.Status.ObservedGeneration)

	scaled := api.DeepCopy(d)
	scaled.Spec.Replicas = api.Ptr(int32(5))
	scaled.Status.ObservedGeneration = 99 // ignored: the main resource does not write status
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "deployments", Namespace: "default", Name: "nginx", Body: scaled})
	require.NoError(t, err)
	d = resp.Object.(*api.Deployment)
	assert.Equal(t, int64(2), d.Generation)
	assert.Equal(t, int64(1), d.Status.ObservedGeneration)

	sc, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "deployments", Subresource: "scale", Namespace: "default", Name: "nginx"})
	require.NoError(t, err)
	assert.Equal(t, int32(5), sc.Object.(*api.Scale).Spec.Replicas)
	assert.Equal(t, "app=nginx", sc.Object.(*api.Scale).Status.Selector)
}

// A Service keeps no generation, however its spec changes; a pod's is bumped once more when its
// graceful deletion starts, and not again when the deletion is repeated.
func TestGenerationOnlyWhereTheKindKeepsOneAndOnDeletion(t *testing.T) {
	ts := newTestServer(t)
	svc := ts.create(t, &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Port: 80}}}}).(*api.Service)
	assert.Zero(t, svc.Generation, "a Service has no generation")
	changed := api.DeepCopy(svc)
	changed.Spec.Ports[0].Port = 8080
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "services", Namespace: "default", Name: "web", Body: changed})
	require.NoError(t, err)
	assert.Zero(t, resp.Object.(*api.Service).Generation, "nor after a spec change")

	bound := nginxPod("web")
	bound.Spec.NodeName = "node-1" // a pod on no node is deleted at once, without grace
	pod := ts.create(t, bound).(*api.Pod)
	require.Equal(t, int64(1), pod.Generation)
	for range 2 {
		resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "web"})
		require.NoError(t, err)
		pod = resp.Object.(*api.Pod)
		require.NotNil(t, pod.DeletionTimestamp)
		assert.Equal(t, int64(2), pod.Generation, "bumped when the deletion starts, once")
	}
}

func TestBindingOnlyWhileUnassigned(t *testing.T) {
	ts := newTestServer(t)
	ts.create(t, nginxPod("web"))
	bind := func(node string) error {
		_, err := ts.do(t, schedToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "web",
			Body: &api.Binding{ObjectMeta: api.ObjectMeta{Name: "web"}, Target: api.ObjectReference{Kind: "Node", Name: node}}})
		return err
	}
	require.NoError(t, bind("node-2"))
	err := bind("node-3")
	require.Error(t, err)
	assert.True(t, apierrors.IsConflict(err))
	assert.Equal(t, `Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "node-2"`, err.Error())
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "web"})
	require.NoError(t, err)
	pod := resp.Object.(*api.Pod)
	assert.Equal(t, "node-2", pod.Spec.NodeName)
	require.NotEmpty(t, pod.Status.Conditions)
	assert.Equal(t, api.PodScheduled, pod.Status.Conditions[0].Type)
}

func TestDeletionWithFinalizersAndGracePeriod(t *testing.T) {
	ts := newTestServer(t)
	p := nginxPod("held")
	p.Finalizers = []string{"example.com/hold"}
	ts.create(t, p)
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "held"})
	require.NoError(t, err)
	assert.False(t, resp.Deleted)
	held := resp.Object.(*api.Pod)
	require.NotNil(t, held.DeletionTimestamp, "a finalizer keeps the object, marked for deletion")
	released := api.DeepCopy(held)
	released.Finalizers = nil
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Name: "held", Body: released})
	require.NoError(t, err)
	assert.True(t, resp.Deleted, "removing the last finalizer deletes it")

	bound := nginxPod("bound")
	bound.Spec.NodeName = "node-1"
	ts.create(t, bound)
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "bound"})
	require.NoError(t, err)
	assert.False(t, resp.Deleted, "a running pod gets its grace period")
	pod := resp.Object.(*api.Pod)
	require.NotNil(t, pod.DeletionGracePeriodSeconds)
	assert.Equal(t, int64(30), *pod.DeletionGracePeriodSeconds)
	resp, err = ts.do(t, node1Token, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "bound", GracePeriodSeconds: api.Ptr(int64(0))})
	require.NoError(t, err)
	assert.True(t, resp.Deleted, "the kubelet confirms with grace 0")
}

func TestNamespaceLifecycle(t *testing.T) {
	ts := newTestServer(t)
	homeless := nginxPod("x")
	homeless.Namespace = ""
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "nowhere", Body: homeless})
	assert.True(t, apierrors.IsNotFound(err))
	assert.Equal(t, `namespaces "nowhere" not found`, err.Error())

	ts.create(t, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}, Spec: api.NamespaceSpec{Finalizers: []api.FinalizerName{"kubernetes"}}})
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "namespaces", Name: "team"})
	require.NoError(t, err)
	require.NoError(t, ts.WaitForRevision(context.Background(), mustRev(t, ts)))
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "serviceaccounts", Namespace: "team",
		Body: &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "late"}}})
	assert.True(t, apierrors.IsForbidden(err))
	assert.Contains(t, err.Error(), "unable to create new content in namespace team because it is being terminated")

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "namespaces", Name: "kube-system"})
	assert.True(t, apierrors.IsForbidden(err))
}

func mustRev(t testing.TB, ts *testServer) int64 {
	rev, err := ts.store.CurrentRevision(context.Background())
	require.NoError(t, err)
	return rev
}

func TestBadInputNeverPanicsAndWritesNothing(t *testing.T) {
	ts := newTestServer(t)
	before := mustRev(t, ts)
	cases := []wire.Request{
		{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default"},                                                         // no body
		{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: &api.Node{}},                                      // wrong kind
		{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: &api.Pod{}},                                       // empty pod
		{Verb: wire.VerbCreate, Resource: "widgets", Namespace: "default", Body: nginxPod("x")},                                 // unknown resource
		{Verb: wire.VerbCreate, Resource: "pods", Namespace: "other", Body: nginxPod("x")},                                      // namespace mismatch below
		{Verb: "explode", Resource: "pods", Namespace: "default"},                                                               // unknown verb
		{Verb: wire.VerbList, Resource: "pods", LabelSelector: "app in (", Namespace: "default"},                                // bad selector
		{Verb: wire.VerbList, Resource: "pods", FieldSelector: "spec.color=red", Namespace: "default"},                          // unsupported field
		{Verb: wire.VerbWatch, Resource: "pods", ResourceVersion: "abc"},                                                        // bad resourceVersion
		{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "x", Body: nginxPod("x")}, // wrong body
		{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "nonsense", Namespace: "default", Name: "x", Body: nginxPod("x")},
		{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod(strings.Repeat("x", 100000))},
	}
	cases[4].Body.GetObjectMeta().Namespace = "default"
	for i, c := range cases {
		_, err := ts.do(t, adminToken, c)
		assert.Error(t, err, "case %d", i)
		assert.NotZero(t, apierrors.CodeForError(err), "case %d gives a Status: %v", i, err)
	}
	assert.Equal(t, before, mustRev(t, ts), "nothing written")
}

func TestListAndWatchWithSelectors(t *testing.T) {
	ts := newTestServer(t)
	a, b := nginxPod("a"), nginxPod("b")
	b.Labels = map[string]string{"app": "redis"}
	a.Spec.NodeName = "node-1"
	ts.create(t, a)
	ts.create(t, b)
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", LabelSelector: "app=nginx"})
	require.NoError(t, err)
	require.Len(t, resp.List.Items, 1)
	assert.Equal(t, "a", resp.List.Items[0].GetObjectMeta().Name)
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", FieldSelector: "spec.nodeName=node-1"})
	require.NoError(t, err)
	require.Len(t, resp.List.Items, 1)
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", FieldSelector: "spec.nodeName!=node-1"})
	require.NoError(t, err)
	require.Len(t, resp.List.Items, 1)
	assert.Equal(t, "b", resp.List.Items[0].GetObjectMeta().Name)

	// A watch on node-2's pods sees b arrive as ADDED when it is bound there, and leave as DELETED
	// when it is deleted.
	wresp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbWatch, Resource: "pods", FieldSelector: "spec.nodeName=node-2", ResourceVersion: resp.List.ResourceVersion})
	require.NoError(t, err)
	w := wresp.Watch
	defer w.Stop()
	_, err = ts.do(t, schedToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "b",
		Body: &api.Binding{ObjectMeta: api.ObjectMeta{Name: "b"}, Target: api.ObjectReference{Name: "node-2"}}})
	require.NoError(t, err)
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "b", GracePeriodSeconds: api.Ptr(int64(0))})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ev, ok := w.Next(ctx)
	require.True(t, ok)
	assert.Equal(t, wire.Added, ev.Type)
	assert.Equal(t, "node-2", ev.Object.(*api.Pod).Spec.NodeName)
	ev, ok = w.Next(ctx)
	require.True(t, ok)
	assert.Equal(t, wire.Deleted, ev.Type)
	assert.Equal(t, "b", ev.Object.GetObjectMeta().Name)
}

func TestWatchWithoutResourceVersionStartsWithCurrentState(t *testing.T) {
	ts := newTestServer(t)
	ts.create(t, nginxPod("a"))
	ts.create(t, nginxPod("b"))
	require.NoError(t, ts.WaitForRevision(context.Background(), mustRev(t, ts)))
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbWatch, Resource: "pods", Namespace: "default"})
	require.NoError(t, err)
	defer resp.Watch.Stop()
	var names []string
	for _, ev := range pending(resp.Watch) {
		assert.Equal(t, wire.Added, ev.Type)
		names = append(names, ev.Object.GetObjectMeta().Name)
	}
	assert.Equal(t, []string{"a", "b"}, names)
}

// pending is every event w holds now, in order, without waiting for more.
func pending(w wire.Watch) []wire.WatchEvent {
	var out []wire.WatchEvent
	for {
		ev, ok := w.TryNext()
		if !ok {
			return out
		}
		out = append(out, ev)
	}
}

func TestWatchResumedFromLastResourceVersionSeesEveryLaterEventOnceInOrder(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	first := ts.create(t, nginxPod("p0"))
	resume := rvOf(t, first)
	var want []string
	for i := 1; i <= 30; i++ {
		obj := ts.create(t, nginxPod("p"+strconv.Itoa(i)))
		want = append(want, "ADDED p"+strconv.Itoa(i)+"@"+obj.GetObjectMeta().ResourceVersion)
	}
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "p3"})
	require.NoError(t, err)
	last := mustRev(t, ts)
	want = append(want, "DELETED p3@"+strconv.FormatInt(last, 10))
	require.NoError(t, ts.WaitForRevision(ctx, last))

	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbWatch, Resource: "pods", Namespace: "default", ResourceVersion: strconv.FormatInt(resume, 10)})
	require.NoError(t, err)
	defer resp.Watch.Stop()
	var got []string
	for _, ev := range pending(resp.Watch) {
		got = append(got, string(ev.Type)+" "+ev.Object.GetObjectMeta().Name+"@"+strconv.FormatInt(ev.ResourceVersion, 10))
	}
	assert.Equal(t, want, got)
}

func TestCompactionMakesOldResourceVersions410Gone(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	old := rvOf(t, ts.create(t, nginxPod("a")))
	ts.create(t, nginxPod("b"))
	now := mustRev(t, ts)
	require.NoError(t, ts.WaitForRevision(ctx, now))
	require.NoError(t, ts.Compact(ctx, now))
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbWatch, Resource: "pods", ResourceVersion: strconv.FormatInt(old, 10)})
	require.Error(t, err)
	assert.True(t, apierrors.IsResourceExpired(err))
	assert.Equal(t, 410, apierrors.CodeForError(err))
	assert.Equal(t, "too old resource version: "+strconv.FormatInt(old, 10)+" ("+strconv.FormatInt(now, 10)+")", err.Error())
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbWatch, Resource: "pods", ResourceVersion: strconv.FormatInt(now, 10)})
	require.NoError(t, err, "watching from the compaction point is fine")
	resp.Watch.Stop()
}

func TestBootstrapIsIdempotentOnRestart(t *testing.T) {
	ts := newTestServer(t)
	before := mustRev(t, ts)
	s2 := New(Config{Store: ts.store, Clock: ts.clock, Seed: 2})
	require.NoError(t, s2.Start(context.Background()))
	assert.Equal(t, before, mustRev(t, ts), "a second apiserver on the same etcd finds the bootstrap objects")
}
