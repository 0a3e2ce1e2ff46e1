package deployment_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/deployment"
	"kubesim/controllers/internal"
	"kubesim/controllers/replicaset"
	"kubesim/internal/testenv"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

// cluster is a step-mode cluster with the ReplicaSet and Deployment controllers and no scheduler or
// kubelet: pods stay unbound, and tests play the kubelet by writing pod status.
type cluster struct {
	*sim.Cluster
	t     *testing.T
	ctx   context.Context
	admin *client.Client
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	return withControllers(t, testenv.Step)
}

// withControllers starts cfg's cluster with the ReplicaSet and Deployment controllers. The ReplicaSet
// controller goes first: when both have work, pods catch up with a resize before the Deployment
// controller moves again.
func withControllers(t *testing.T, cfg sim.Config) *cluster {
	c, ctx := testenv.Cluster(t, cfg, addControllers)
	return &cluster{Cluster: c, t: t, ctx: ctx, admin: c.Kubectl.Client()}
}

// addControllers adds the ReplicaSet then the Deployment controller to c, each as
// kube-controller-manager would build it.
func addControllers(ctx context.Context, c *sim.Cluster) error {
	rs, d := testenv.ForController(c, replicaset.Name), testenv.ForController(c, deployment.Name)
	if err := c.Add(ctx, replicaset.New(rs.Client, rs.Informers, rs.Clock, rs.Trace, rs.Events)); err != nil {
		return err
	}
	return c.Add(ctx, deployment.New(d.Client, d.Informers, d.Clock, d.Trace, d.Events))
}

func (c *cluster) applyNginx() *api.Deployment {
	objs, err := c.Kubectl.Apply(c.ctx, []byte(manifests.NginxDeployment))
	require.NoError(c.t, err)
	return objs[0].(*api.Deployment)
}

func (c *cluster) deployment(name string) *api.Deployment {
	d, err := client.For[api.Deployment](c.admin).Get(c.ctx, "default", name)
	require.NoError(c.t, err)
	return d
}

func (c *cluster) update(d *api.Deployment) {
	_, err := client.For[api.Deployment](c.admin).Update(c.ctx, d)
	require.NoError(c.t, err)
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

func (c *cluster) replicaSets() []*api.ReplicaSet {
	rss, _, err := client.For[api.ReplicaSet](c.admin).List(c.ctx, "default", client.ListOptions{})
	require.NoError(c.t, err)
	return rss
}

// kubelet plays every kubelet: each pod not yet ready becomes Running and Ready.
func (c *cluster) kubelet() {
	pods := client.For[api.Pod](c.admin)
	for _, p := range c.pods() {
		if api.IsPodReady(p) {
			continue
		}
		p.Status.Phase = api.PodRunning
		p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue,
			LastTransitionTime: api.NewTime(c.Now())})
		_, err := pods.UpdateStatus(c.ctx, p)
		require.NoError(c.t, err)
	}
}

// runUntil steps the cluster until cond holds.
func (c *cluster) runUntil(what string, cond func() bool) {
	c.t.Helper()
	require.NoError(c.t, c.Driver.RunUntil(c.ctx, what, func() (bool, error) { return cond(), nil }, 500))
}

// rolledOut: the Deployment reports every replica updated and available at its current generation.
func (c *cluster) rolledOut(name string) bool {
	d := c.deployment(name)
	want := *d.Spec.Replicas
	return d.Status.ObservedGeneration == d.Generation && d.Status.UpdatedReplicas == want &&
		d.Status.Replicas == want && d.Status.AvailableReplicas == want
}

// events returns the messages of the events about objects of kind.
func (c *cluster) events(kind string) []string {
	evs, _, err := client.For[api.Event](c.admin).List(c.ctx, "default", client.ListOptions{})
	require.NoError(c.t, err)
	var out []string
	for _, e := range evs {
		if e.InvolvedObject.Kind == kind {
			out = append(out, e.Reason+": "+e.Message)
		}
	}
	return out
}

// settle runs every unit of work there is now, without letting time pass.
func (c *cluster) settle() {
	c.t.Helper()
	require.NoError(c.t, c.Driver.Advance(c.ctx, 0))
}

// rollout runs the cluster until the Deployment has rolled out, playing the kubelet after every step.
// check, if set, is called after every step.
func (c *cluster) rollout(name string, check func()) {
	c.t.Helper()
	for i := 0; ; i++ {
		require.Less(c.t, i, 500, "no rollout after 500 steps")
		require.NoError(c.t, c.Driver.Settle(c.ctx))
		if c.rolledOut(name) {
			c.settle()
			return
		}
		more, err := c.Driver.Step(c.ctx)
		require.NoError(c.t, err)
		require.True(c.t, more, "the cluster went idle")
		c.kubelet()
		if check != nil {
			check()
		}
	}
}

// setImage is `kubectl set image deployment/NAME nginx=IMAGE`.
func (c *cluster) setImage(name, image string) {
	d := c.deployment(name)
	d.Spec.Template.Spec.Containers[0].Image = image
	c.update(d)
}

// newRS returns the ReplicaSet whose template runs image.
func (c *cluster) rsWithImage(image string) *api.ReplicaSet {
	for _, rs := range c.replicaSets() {
		if rs.Spec.Template.Spec.Containers[0].Image == image {
			return rs
		}
	}
	c.t.Fatalf("no ReplicaSet runs %s", image)
	return nil
}
