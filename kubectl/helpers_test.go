package kubectl_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/kubectl"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

// cluster is a whole step-mode cluster (controllers, scheduler, two nodes) and its admin's kubectl.
type cluster struct {
	*sim.Cluster
	t   *testing.T
	ctx context.Context
	k   *kubectl.Kubectl
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	c, ctx := testenv.Cluster(t, testenv.Full(2))
	return &cluster{Cluster: c, t: t, ctx: ctx, k: c.Kubectl}
}

// applyNginx is `kubectl apply -f nginx-deployment.yaml`, the seed's Deployment (3 x nginx:1.25).
func (c *cluster) applyNginx() {
	c.t.Helper()
	_, err := c.k.Apply(c.ctx, []byte(manifests.NginxDeployment))
	require.NoError(c.t, err)
}

// rolledOut steps the cluster until `kubectl rollout status deployment/nginx` says it is done.
func (c *cluster) rolledOut() {
	c.t.Helper()
	require.NoError(c.t, c.Driver.RunUntil(c.ctx, "rolled out", func() (bool, error) {
		_, done, err := c.k.RolloutStatus(c.ctx, "default", "nginx")
		return done, err
	}, 0))
}

func (c *cluster) deployment() *api.Deployment {
	c.t.Helper()
	d, err := client.For[api.Deployment](c.k.Client()).Get(c.ctx, "default", "nginx")
	require.NoError(c.t, err)
	return d
}

// said lists what kubectl told the trace since the given number of events, one line per event.
func (c *cluster) said(since int) []string {
	var out []string
	for _, e := range c.Trace.Events()[since:] {
		if e.Component == "kubectl" {
			out = append(out, e.Actor+": "+e.Message)
		}
	}
	return out
}

// images lists the images of nginx's running pods, sorted as the apiserver lists them.
func (c *cluster) images() []string {
	c.t.Helper()
	pods, _, err := client.For[api.Pod](c.k.Client()).List(c.ctx, "default", client.ListOptions{LabelSelector: "app=nginx"})
	require.NoError(c.t, err)
	var out []string
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			out = append(out, p.Spec.Containers[0].Image)
		}
	}
	return out
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }
