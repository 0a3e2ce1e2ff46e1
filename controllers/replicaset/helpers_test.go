package replicaset_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/internal"
	"kubesim/controllers/replicaset"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

// cluster is a step-mode cluster with only the ReplicaSet controller: no scheduler, no kubelet.
// Tests play the kubelet by writing pod status.
type cluster struct {
	*sim.Cluster
	t     *testing.T
	ctx   context.Context
	admin *client.Client
	rsc   *replicaset.Controller
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	c, ctx := testenv.Cluster(t, testenv.Step)
	rsc, err := startController(ctx, c)
	require.NoError(t, err)
	return &cluster{Cluster: c, t: t, ctx: ctx, admin: c.Kubectl.Client(), rsc: rsc}
}

// addController is startController as a testenv.Setup, for an Example.
func addController(ctx context.Context, c *sim.Cluster) error {
	_, err := startController(ctx, c)
	return err
}

// startController adds the ReplicaSet controller to c, alone, as kube-controller-manager builds it.
func startController(ctx context.Context, c *sim.Cluster) (*replicaset.Controller, error) {
	d := testenv.ForController(c, replicaset.Name)
	rsc := replicaset.New(d.Client, d.Informers, d.Clock, d.Trace, d.Events)
	return rsc, c.Add(ctx, rsc)
}

// newReplicaSet is a ReplicaSet "web" of n nginx pods labelled app=web.
func newReplicaSet(n int32) *api.ReplicaSet {
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ReplicaSetSpec{
			Replicas: api.Ptr(n),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}},
			},
		},
	}
}

func (c *cluster) create(rs *api.ReplicaSet) *api.ReplicaSet {
	created, err := client.For[api.ReplicaSet](c.admin).Create(c.ctx, rs)
	require.NoError(c.t, err)
	return created
}

func (c *cluster) replicaSet(name string) *api.ReplicaSet {
	rs, err := client.For[api.ReplicaSet](c.admin).Get(c.ctx, "default", name)
	require.NoError(c.t, err)
	return rs
}

// pods lists the pods that count (not finished, not terminating), sorted by name.
func (c *cluster) pods() []*api.Pod {
	all, _, err := client.For[api.Pod](c.admin).List(c.ctx, "default", client.ListOptions{})
	require.NoError(c.t, err)
	var out []*api.Pod
	for _, p := range all {
		if internal.IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

func names(pods []*api.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		out[i] = p.Name
	}
	return out
}

// makeReady plays the kubelet for one pod: Running, Ready since now.
func (c *cluster) makeReady(p *api.Pod) {
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue,
		LastTransitionTime: api.NewTime(c.Now())})
	_, err := client.For[api.Pod](c.admin).UpdateStatus(c.ctx, p)
	require.NoError(c.t, err)
}

func (c *cluster) runUntil(what string, cond func() bool) {
	c.t.Helper()
	require.NoError(c.t, c.Driver.RunUntil(c.ctx, what, func() (bool, error) { return cond(), nil }, 200))
}

// settle runs every unit of work there is now, without letting time pass.
func (c *cluster) settle() {
	c.t.Helper()
	require.NoError(c.t, c.Driver.Advance(c.ctx, 0))
}

// events returns "Reason: message" of every event about a ReplicaSet, in the order they were made.
func (c *cluster) events() []string {
	evs, _, err := client.For[api.Event](c.admin).List(c.ctx, "default", client.ListOptions{})
	require.NoError(c.t, err)
	var out []string
	for _, e := range evs {
		if e.InvolvedObject.Kind == "ReplicaSet" {
			out = append(out, e.Type+" "+e.Reason+": "+e.Message)
		}
	}
	return out
}
