package apiserver

// The security table: one row per rule of least privilege, each a request by some identity and the
// answer Kubernetes v1.34 gives it (401, 403 with its exact sentence, or allowed). Rows that are allowed
// are there so that the table fails when a rule is too strict as well as when it is too loose.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

const (
	bobToken   = "bob-token"   // may write Roles and RoleBindings in "default", and read pods there
	carolToken = "carol-token" // bob's rights, plus "escalate" on roles and "bind" on ClusterRole admin
)

// securityFixture is the cluster every row runs against: two nodes, pods bound to each, and the RBAC
// rights of bob and carol.
func securityFixture(t *testing.T) *testServer {
	ts := newTestServer(t)
	for _, n := range []string{"node-1", "node-2"} {
		ts.create(t, &api.Node{ObjectMeta: api.ObjectMeta{Name: n}})
	}
	for name, node := range map[string]string{"mine": "node-1", "mine-to-delete": "node-1", "other": "node-2", "victim": "node-2"} {
		p := nginxPod(name)
		p.Spec.NodeName = node
		p.Spec.Volumes = []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: name + "-data"}}}}
		if name == "mine" {
			p.Spec.Containers[0].EnvFrom = []api.EnvFromSource{{ConfigMapRef: &api.ConfigMapEnvSource{
				LocalObjectReference: api.LocalObjectReference{Name: "mine-config"}}}}
		}
		ts.create(t, p)
	}
	ts.AddCredential(Credential{Token: bobToken, User: User{Name: "bob"}})
	ts.AddCredential(Credential{Token: carolToken, User: User{Name: "carol"}})
	rbac := []string{api.RBACGroupName}
	writer := []api.PolicyRule{
		{APIGroups: rbac, Resources: []string{"roles", "rolebindings"}, Verbs: []string{"get", "create", "update"}},
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}},
	}
	ts.create(t, &api.Role{ObjectMeta: api.ObjectMeta{Name: "role-writer", Namespace: "default"}, Rules: writer})
	ts.create(t, &api.Role{ObjectMeta: api.ObjectMeta{Name: "escalator", Namespace: "default"}, Rules: append(writer,
		api.PolicyRule{APIGroups: rbac, Resources: []string{"roles"}, Verbs: []string{"escalate"}},
		api.PolicyRule{APIGroups: rbac, Resources: []string{"clusterroles"}, Verbs: []string{"bind"}, ResourceNames: []string{"admin"}})})
	ts.create(t, &api.Role{ObjectMeta: api.ObjectMeta{Name: "pod-reader", Namespace: "default"},
		Rules: []api.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}}}})
	for user, role := range map[string]string{"bob": "role-writer", "carol": "escalator"} {
		ts.create(t, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: user, Namespace: "default"},
			RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "Role", Name: role},
			Subjects: []api.Subject{{Kind: "User", Name: user, APIGroup: api.RBACGroupName}}})
	}
	return ts
}

// securityRule is one row: who asks what, and what Kubernetes answers.
type securityRule struct {
	name  string
	token string
	req   func(t *testing.T, ts *testServer) wire.Request
	code  int    // 0: allowed
	msg   string // the exact error, when code is not 0
}

func req(r wire.Request) func(*testing.T, *testServer) wire.Request {
	return func(*testing.T, *testServer) wire.Request { return r }
}

// changed reads an object as the admin and returns a request that writes it back with a label added.
func changed(resource, namespace, name, subresource string) func(*testing.T, *testServer) wire.Request {
	return func(t *testing.T, ts *testServer) wire.Request {
		resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: resource, Namespace: namespace, Name: name})
		require.NoError(t, err)
		obj := api.DeepCopy(resp.Object)
		if subresource == "" {
			m := obj.GetObjectMeta()
			m.Labels = map[string]string{"touched": "yes"}
		}
		if pod, ok := obj.(*api.Pod); ok && subresource == "status" {
			pod.Status.Phase = api.PodRunning
		}
		if node, ok := obj.(*api.Node); ok && subresource == "status" {
			node.Status.Conditions = append(node.Status.Conditions, api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue})
		}
		return wire.Request{Verb: wire.VerbUpdate, Resource: resource, Subresource: subresource, Namespace: namespace, Name: name, Body: obj}
	}
}

func role(name string, rules ...api.PolicyRule) wire.Request {
	return wire.Request{Verb: wire.VerbCreate, Resource: "roles", Namespace: "default",
		Body: &api.Role{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Rules: rules}}
}

func binding(name, kind, roleName string) wire.Request {
	return wire.Request{Verb: wire.VerbCreate, Resource: "rolebindings", Namespace: "default",
		Body: &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: kind, Name: roleName},
			Subjects: []api.Subject{{Kind: "User", Name: "mallory", APIGroup: api.RBACGroupName}}}}
}

var (
	podRules   = api.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list", "delete"}}
	readPods   = api.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}}
	secretRule = api.PolicyRule{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get"}}
)

func mirrorPod(name string, node *api.Node) *api.Pod {
	p := nginxPod(name)
	p.Spec.NodeName = node.Name
	p.Annotations = map[string]string{mirrorPodAnnotation: "hash"}
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID, Controller: api.Ptr(true)}}
	return p
}

var securityRules = []securityRule{
	// Authentication.
	{name: "anonymous requests are rejected", token: "",
		req: req(wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default"}), code: 401, msg: "Unauthorized"},
	{name: "an unknown token is rejected", token: "forged-token",
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-1"}), code: 401, msg: "Unauthorized"},

	// Default deny.
	{name: "a user with no binding may not list pods", token: aliceToken,
		req: req(wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default"}), code: 403,
		msg: `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`},
	{name: "a user with no binding may not read a node", token: aliceToken,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-1"}), code: 403,
		msg: `nodes "node-1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope`},
	{name: "a user with no binding may still ask what it may do", token: aliceToken,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectaccessreviews",
			Body: &api.SelfSubjectAccessReview{Spec: api.SelfSubjectAccessReviewSpec{ResourceAttributes: &api.ResourceAttributes{Verb: "list", Resource: "pods"}}}})},

	// A kubelet and its own node.
	{name: "a kubelet reads its own Node", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-1"})},
	{name: "a kubelet watches only its own Node", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbList, Resource: "nodes", FieldSelector: "metadata.name=node-1"})},
	{name: "a kubelet updates its own Node status", token: node1Token, req: changed("nodes", "", "node-1", "status")},
	{name: "a kubelet may not read another node", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-2"}), code: 403,
		msg: `nodes "node-2" is forbidden: User "system:node:node-1" cannot get resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object`},
	{name: "a kubelet may not list every node", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbList, Resource: "nodes"}), code: 403,
		msg: `nodes is forbidden: User "system:node:node-1" cannot list resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read all nodes, only its own Node object`},
	{name: "a kubelet may not update another node", token: node1Token, req: changed("nodes", "", "node-2", ""), code: 403,
		msg: `nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"`},
	{name: "a kubelet may not update another node's status", token: node1Token, req: changed("nodes", "", "node-2", "status"), code: 403,
		msg: `nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"`},
	{name: "a kubelet may not register another node", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "nodes", Body: &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-3"}}}), code: 403,
		msg: `nodes "node-3" is forbidden: node "node-1" is not allowed to modify node "node-3"`},
	{name: "a kubelet may not delete its own Node", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbDelete, Resource: "nodes", Name: "node-1"}), code: 403,
		msg: `nodes "node-1" is forbidden: User "system:node:node-1" cannot delete resource "nodes" in API group "" at the cluster scope`},
	{name: "a kubelet may not renew another node's Lease", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "leases", Namespace: "kube-node-lease",
			Body: &api.Lease{ObjectMeta: api.ObjectMeta{Name: "node-2", Namespace: "kube-node-lease"}}}), code: 403,
		msg: `leases.coordination.k8s.io "node-2" is forbidden: can only access node lease with the same name as the requesting node`},
	{name: "a kubelet renews its own Lease", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "leases", Namespace: "kube-node-lease",
			Body: &api.Lease{ObjectMeta: api.ObjectMeta{Name: "node-1", Namespace: "kube-node-lease"}}})},

	// A kubelet and the claims of its pods.
	{name: "a kubelet may read a claim a pod bound to it uses (here it does not exist)", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "persistentvolumeclaims", Namespace: "default", Name: "mine-data"}), code: 404,
		msg: `persistentvolumeclaims "mine-data" not found`},
	{name: "a kubelet may not read a claim only another node's pod uses", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "persistentvolumeclaims", Namespace: "default", Name: "other-data"}), code: 403,
		msg: `persistentvolumeclaims "other-data" is forbidden: User "system:node:node-1" cannot get resource "persistentvolumeclaims" in API group "" in the namespace "default": no relationship found between node 'node-1' and this object`},

	// A kubelet and pods.
	{name: "a kubelet reads a pod bound to it", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "mine"})},
	{name: "a kubelet updates the status of a pod bound to it", token: node1Token, req: changed("pods", "default", "mine", "status")},
	{name: "a kubelet deletes a pod bound to it", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "mine-to-delete"})},
	{name: "a kubelet may not read a pod bound elsewhere", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "other"}), code: 403,
		msg: `pods "other" is forbidden: User "system:node:node-1" cannot get resource "pods" in API group "" in the namespace "default": no relationship found between node 'node-1' and this object`},
	{name: "a kubelet may read a ConfigMap a pod bound to it names, existing or not", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "configmaps", Namespace: "default", Name: "mine-config"}), code: 404,
		msg: `configmaps "mine-config" not found`},
	{name: "a kubelet may not read a Secret no pod bound to it names", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbGet, Resource: "secrets", Namespace: "default", Name: "db"}), code: 403,
		msg: `secrets "db" is forbidden: User "system:node:node-1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'node-1' and this object`},
	{name: "a kubelet may not list every pod", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbList, Resource: "pods"}), code: 403,
		msg: `pods is forbidden: User "system:node:node-1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector`},
	{name: "a kubelet may not update the status of a pod bound elsewhere", token: node1Token, req: changed("pods", "default", "other", "status"), code: 403,
		msg: `pods "other" is forbidden: node "node-1" can only update pod status for pods with spec.nodeName set to itself`},
	{name: "a kubelet may not delete a pod bound elsewhere", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "other"}), code: 403,
		msg: `pods "other" is forbidden: node "node-1" can only delete pods with spec.nodeName set to itself`},
	{name: "a kubelet may not evict a pod bound elsewhere", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "eviction", Namespace: "default", Name: "other",
			Body: &api.Eviction{ObjectMeta: api.ObjectMeta{Name: "other", Namespace: "default"}}}), code: 403,
		msg: `pods "other" is forbidden: node node-1 can only evict pods with spec.nodeName set to itself`},
	{name: "a kubelet may not change a pod's spec, even its own", token: node1Token, req: changed("pods", "default", "mine", ""), code: 403,
		msg: `pods "mine" is forbidden: User "system:node:node-1" cannot update resource "pods" in API group "" in the namespace "default"`},
	{name: "a kubelet may not create a pod that is not a mirror pod", token: node1Token,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("sneaky")}), code: 403,
		msg: `pods "sneaky" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "node-1" can only create mirror pods`},
	{name: "a kubelet may not create a mirror pod for another node", token: node1Token,
		req: func(t *testing.T, ts *testServer) wire.Request {
			resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-2"})
			require.NoError(t, err)
			return wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: mirrorPod("static-web-node-2", resp.Object.(*api.Node))}
		}, code: 403,
		msg: `pods "static-web-node-2" is forbidden: node "node-1" can only create pods with spec.nodeName set to itself`},
	{name: "a kubelet creates the mirror pod of its static pod", token: node1Token,
		req: func(t *testing.T, ts *testServer) wire.Request {
			resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-1"})
			require.NoError(t, err)
			return wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: mirrorPod("static-web-node-1", resp.Object.(*api.Node))}
		}},
	{name: "a mirror pod may not name a service account", token: node1Token,
		req: func(t *testing.T, ts *testServer) wire.Request {
			resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "nodes", Name: "node-1"})
			require.NoError(t, err)
			p := mirrorPod("static-sa-node-1", resp.Object.(*api.Node))
			p.Spec.ServiceAccountName = "default"
			return wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: p}
		}, code: 403,
		msg: `pods "static-sa-node-1" is forbidden: a mirror pod may not reference service accounts`},

	// The scheduler: what system:kube-scheduler's ClusterRole grants and no more. (It may delete pods:
	// Kubernetes grants it that for preemption, and kubesim's preemption needs it too.)
	{name: "the scheduler may not delete nodes", token: schedToken,
		req: req(wire.Request{Verb: wire.VerbDelete, Resource: "nodes", Name: "node-2"}), code: 403,
		msg: `nodes "node-2" is forbidden: User "system:kube-scheduler" cannot delete resource "nodes" in API group "" at the cluster scope`},
	{name: "the scheduler may not create pods", token: schedToken,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("from-scheduler")}), code: 403,
		msg: `pods "from-scheduler" is forbidden: User "system:kube-scheduler" cannot create resource "pods" in API group "" in the namespace "default"`},
	{name: "the scheduler may not change a pod's spec", token: schedToken, req: changed("pods", "default", "other", ""), code: 403,
		msg: `pods "other" is forbidden: User "system:kube-scheduler" cannot update resource "pods" in API group "" in the namespace "default"`},
	{name: "the scheduler may not delete a ReplicaSet", token: schedToken,
		req: req(wire.Request{Verb: wire.VerbDelete, Resource: "replicasets", Namespace: "default", Name: "web"}), code: 403,
		msg: `replicasets.apps "web" is forbidden: User "system:kube-scheduler" cannot delete resource "replicasets" in API group "apps" in the namespace "default"`},
	{name: "the scheduler lists every pod", token: schedToken,
		req: req(wire.Request{Verb: wire.VerbList, Resource: "pods"})},
	{name: "the scheduler deletes a pod to preempt it", token: schedToken,
		req: req(wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "victim"})},

	// RBAC escalation prevention.
	{name: "a user may create a Role granting what it holds", token: bobToken, req: req(role("reader", readPods))},
	{name: "a user may not create a Role granting what it does not hold", token: bobToken, req: req(role("deleter", podRules, secretRule)), code: 403,
		msg: `roles.rbac.authorization.k8s.io "deleter" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:` +
			"\n" + `{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}` + "\n" + `{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`},
	{name: "a user may not widen a Role to more than it holds", token: bobToken,
		req: func(t *testing.T, ts *testServer) wire.Request {
			r := changed("roles", "default", "pod-reader", "")(t, ts)
			r.Body.(*api.Role).Rules = []api.PolicyRule{podRules}
			return r
		}, code: 403,
		msg: `roles.rbac.authorization.k8s.io "pod-reader" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:` +
			"\n" + `{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`},
	{name: "a user may bind a Role whose rules it holds", token: bobToken, req: req(binding("mallory-reads", "Role", "pod-reader"))},
	{name: "a user may not bind a role with more than it holds", token: bobToken, req: req(binding("mallory-admin", "ClusterRole", "admin")), code: 403,
		msg: `rolebindings.rbac.authorization.k8s.io "mallory-admin" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:` +
			"\n" + `{APIGroups:["*"], Resources:["*"], Verbs:["*"]}`},
	{name: "a user may not bind a role that does not exist", token: bobToken, req: req(binding("mallory-ghost", "Role", "ghost")), code: 404,
		msg: `roles.rbac.authorization.k8s.io "ghost" not found`},
	{name: `the "escalate" verb lets a user create any Role`, token: carolToken, req: req(role("carols-deleter", podRules, secretRule))},
	{name: `the "bind" verb lets a user bind that role`, token: carolToken, req: req(binding("mallory-admin-by-carol", "ClusterRole", "admin"))},
	{name: `the "bind" verb covers only the role it names`, token: carolToken, req: req(binding("mallory-edit", "ClusterRole", "edit")), code: 403,
		msg: `rolebindings.rbac.authorization.k8s.io "mallory-edit" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:` +
			"\n" + `{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:[""], Resources:["endpoints"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:[""], Resources:["events"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:[""], Resources:["persistentvolumeclaims"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:[""], Resources:["pods"], Verbs:["watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:[""], Resources:["serviceaccounts"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection" "impersonate"]}` +
			"\n" + `{APIGroups:[""], Resources:["services"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:["apps"], Resources:["daemonsets"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:["apps"], Resources:["deployments/scale"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:["apps"], Resources:["replicasets"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}` +
			"\n" + `{APIGroups:["apps"], Resources:["replicasets/scale"], Verbs:["get" "list" "watch" "create" "update" "patch" "delete" "deletecollection"]}`},
	{name: "a user may not create a ClusterRole at all without a binding for it", token: bobToken,
		req: req(wire.Request{Verb: wire.VerbCreate, Resource: "clusterroles",
			Body: &api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "everything"}, Rules: []api.PolicyRule{podRules}}}), code: 403,
		msg: `clusterroles.rbac.authorization.k8s.io "everything" is forbidden: User "bob" cannot create resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope`},
}

func TestSecurityRules(t *testing.T) {
	ts := securityFixture(t)
	for _, rule := range securityRules {
		t.Run(rule.name, func(t *testing.T) {
			r := rule.req(t, ts)
			r.Token = rule.token
			_, err := ts.Do(context.Background(), &r)
			if rule.code == 0 {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, rule.code, apierrors.CodeForError(err))
			assert.Equal(t, rule.msg, err.Error())
		})
	}
	t.Run("tokens never appear in the trace", func(t *testing.T) {
		secrets := []string{node1Token, bobToken, "forged-token", schedToken}
		for _, tok := range secrets {
			_, _ = ts.Do(context.Background(), &wire.Request{Token: tok, Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "mine"})
		}
		events := ts.trace.Events()
		require.NotEmpty(t, events)
		out, err := json.Marshal(events)
		require.NoError(t, err)
		for _, tok := range append(secrets, adminToken, aliceToken, carolToken) {
			assert.False(t, strings.Contains(string(out), tok), "token %q is in the trace", tok)
		}
	})
}

// A binding to a service account names the user its token authenticates as,
// system:serviceaccount:<namespace>:<name>, and nobody else.
func TestServiceAccountSubjectsMatchTheirTokensUserName(t *testing.T) {
	for _, tc := range []struct {
		user, namespace, name string
		want                  bool
	}{
		{"system:serviceaccount:default:builder", "default", "builder", true},
		{"system:serviceaccount:default:builder", "default", "build", false},
		{"system:serviceaccount:default:builder", "defaults", "builder", false},
		{"system:serviceaccount:default:builder", "default:builder", "", false},
		{"system:serviceaccount:defaultxbuilder", "default", "builder", false},
		{"system:serviceaccounts:default:builder", "default", "builder", false},
		{"builder", "default", "builder", false},
	} {
		assert.Equal(t, tc.want, isServiceAccount(tc.user, tc.namespace, tc.name), "%s as %s/%s", tc.user, tc.namespace, tc.name)
	}
	u := User{Name: "system:serviceaccount:shop:deployer"}
	subj, ok := bindingSubject([]api.Subject{{Kind: "User", Name: "alice"}, {Kind: "ServiceAccount", Name: "deployer"}}, u, "shop")
	assert.True(t, ok)
	assert.Equal(t, `ServiceAccount "shop/deployer"`, fmt.Sprint(subj), "worded as Kubernetes' audit annotation")
}
