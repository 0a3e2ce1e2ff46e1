package endpointslice_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// webPod is a pod that Service web selects, its nginx serving the port named http; spec holds extra
// lines of its spec, each indented by two spaces and ending in a newline.
func webPod(name, spec string) string {
	return `apiVersion: v1
kind: Pod
metadata:
  name: ` + name + `
  labels:
    app: web
spec:
` + spec + `  containers:
  - name: nginx
    image: nginx:1.25
    ports:
    - name: http
      containerPort: 80
---
`
}

const webService = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: http
`

var manifest = webPod("web-1", "") + webService

// newCluster is a one-node cluster in step mode with the controller manager and the scheduler.
func newCluster(t *testing.T) (*sim.Cluster, context.Context) {
	t.Helper()
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1, Nodes: 1, ControllerManager: true, Scheduler: true})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c, ctx
}

func sliceOf(ctx context.Context, t *testing.T, c *sim.Cluster) *api.EndpointSlice {
	t.Helper()
	list, _, err := client.For[api.EndpointSlice](c.Kubectl.Client()).List(ctx, "default", client.ListOptions{LabelSelector: api.LabelServiceName + "=web"})
	require.NoError(t, err)
	if len(list) != 1 {
		return nil
	}
	return list[0]
}

// https://kubernetes.io/docs/concepts/services-networking/endpoint-slices/#conditions: a pod being
// deleted stays in the slice as terminating, still serving while its readiness holds, but no longer
// ready; the Endpoints object drops it.
func TestATerminatingPodIsServingButNotReady(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Apply(ctx, []byte(manifest))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "web-1 is a ready endpoint", func() (bool, error) {
		s := sliceOf(ctx, t, c)
		return s != nil && len(s.Endpoints) == 1 && *s.Endpoints[0].Conditions.Ready, nil
	}, 0))
	s := sliceOf(ctx, t, c)
	require.Len(t, s.Ports, 1)
	assert.Equal(t, int32(80), *s.Ports[0].Port, "targetPort http resolved to the container port")
	assert.Equal(t, "Service", s.OwnerReferences[0].Kind)
	assert.Equal(t, "endpointslice-controller.k8s.io", s.Labels[api.LabelManagedBy])
	node, err := client.For[api.Node](c.Kubectl.Client()).Get(ctx, "", "node-1")
	require.NoError(t, err)
	require.NotEmpty(t, node.Labels[api.LabelTopologyZone])
	ep := s.Endpoints[0]
	require.NotNil(t, ep.NodeName)
	require.NotNil(t, ep.Zone, "the endpoint carries its node's zone")
	assert.Equal(t, "node-1", *ep.NodeName)
	assert.Equal(t, node.Labels[api.LabelTopologyZone], *ep.Zone)

	require.NoError(t, c.Kubectl.Delete(ctx, "pods", "default", "web-1", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunUntil(ctx, "web-1 is terminating in the slice", func() (bool, error) {
		s := sliceOf(ctx, t, c)
		return s != nil && len(s.Endpoints) == 1 && *s.Endpoints[0].Conditions.Terminating, nil
	}, 0))
	cond := sliceOf(ctx, t, c).Endpoints[0].Conditions
	assert.False(t, *cond.Ready)
	assert.True(t, *cond.Serving)

	require.NoError(t, c.Driver.RunUntil(ctx, "the Endpoints drop web-1", func() (bool, error) {
		ep, err := client.For[api.Endpoints](c.Kubectl.Client()).Get(ctx, "default", "web")
		return err == nil && len(ep.Subsets) == 0, nil
	}, 0))
}

// A pod's hostname is its endpoint's only when the pod names the Service as its subdomain
// (ShouldSetHostname): web-0 says subdomain web, web-1 says another subdomain, web-2 has none.
func TestAnEndpointCarriesTheHostnameOfAPodInTheServicesSubdomain(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Apply(ctx, []byte(webPod("web-0", "  hostname: web-0\n  subdomain: web\n")+
		webPod("web-1", "  hostname: web-1\n  subdomain: elsewhere\n")+webPod("web-2", "  subdomain: web\n")+webService))
	require.NoError(t, err)
	hostnames := func() map[string]string {
		out := map[string]string{}
		if s := sliceOf(ctx, t, c); s != nil {
			for _, ep := range s.Endpoints {
				out[ep.TargetRef.Name] = ""
				if ep.Hostname != nil {
					out[ep.TargetRef.Name] = *ep.Hostname
				}
			}
		}
		return out
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "three endpoints", func() (bool, error) { return len(hostnames()) == 3, nil }, 0))
	assert.Equal(t, map[string]string{"web-0": "web-0", "web-1": "", "web-2": ""}, hostnames())

	require.NoError(t, c.Driver.RunUntil(ctx, "the Endpoints list three addresses", func() (bool, error) {
		ep, err := client.For[api.Endpoints](c.Kubectl.Client()).Get(ctx, "default", "web")
		return err == nil && len(ep.Subsets) == 1 && len(ep.Subsets[0].Addresses)+len(ep.Subsets[0].NotReadyAddresses) == 3, nil
	}, 0))
	ep, err := client.For[api.Endpoints](c.Kubectl.Client()).Get(ctx, "default", "web")
	require.NoError(t, err)
	got := map[string]string{}
	for _, a := range append(ep.Subsets[0].Addresses, ep.Subsets[0].NotReadyAddresses...) {
		got[a.TargetRef.Name] = a.Hostname
	}
	assert.Equal(t, map[string]string{"web-0": "web-0", "web-1": "", "web-2": ""}, got)
}

// The placeholder slice of a Service that selects nothing becomes its first real slice under the
// same name (Kubernetes' reconciler turns a create beside a delete into an update), and becomes the
// placeholder again when the last pod goes.
func TestThePlaceholderSliceIsUpdatedInPlace(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Apply(ctx, []byte(webService))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "the placeholder slice", func() (bool, error) { return sliceOf(ctx, t, c) != nil, nil }, 0))
	placeholder := sliceOf(ctx, t, c)
	require.Empty(t, placeholder.Endpoints)
	require.Empty(t, placeholder.Ports)

	_, err = c.Kubectl.Apply(ctx, []byte(webPod("web-1", "")))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "web-1 in a slice", func() (bool, error) {
		s := sliceOf(ctx, t, c)
		return s != nil && len(s.Endpoints) == 1, nil
	}, 0))
	assert.Equal(t, placeholder.Name, sliceOf(ctx, t, c).Name, "the placeholder took the endpoint")

	require.NoError(t, c.Kubectl.Delete(ctx, "pods", "default", "web-1", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunUntil(ctx, "the slice is empty again", func() (bool, error) {
		s := sliceOf(ctx, t, c)
		return s != nil && len(s.Endpoints) == 0 && len(s.Ports) == 0, nil
	}, 0))
	assert.Equal(t, placeholder.Name, sliceOf(ctx, t, c).Name, "the slice became the placeholder again")
}

// A Service's labels are its slices' and its Endpoints' labels too, with the headless label when it
// has no cluster IP; relabelling the Service relabels them.
func TestSlicesAndEndpointsCarryTheServicesLabels(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Apply(ctx, []byte(`apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    team: a
spec:
  clusterIP: None
  selector:
    app: web
  ports:
  - port: 80
`))
	require.NoError(t, err)
	endpointsLabels := func() map[string]string {
		ep, err := client.For[api.Endpoints](c.Kubectl.Client()).Get(ctx, "default", "web")
		if err != nil {
			return nil
		}
		return ep.Labels
	}
	labelled := func(team string) func() (bool, error) {
		return func() (bool, error) {
			s := sliceOf(ctx, t, c)
			return s != nil && s.Labels["team"] == team && endpointsLabels()["team"] == team, nil
		}
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "slice and Endpoints labelled team=a", labelled("a"), 0))
	assert.Equal(t, map[string]string{"team": "a", api.LabelIsHeadlessService: "", api.LabelServiceName: "web",
		api.LabelManagedBy: "endpointslice-controller.k8s.io"}, sliceOf(ctx, t, c).Labels)
	assert.Equal(t, map[string]string{"team": "a", api.LabelIsHeadlessService: "", "endpoints.kubernetes.io/managed-by": "endpoint-controller"},
		endpointsLabels())

	svc, err := client.For[api.Service](c.Kubectl.Client()).Get(ctx, "default", "web")
	require.NoError(t, err)
	svc.Labels["team"] = "b"
	_, err = client.For[api.Service](c.Kubectl.Client()).Update(ctx, svc)
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "slice and Endpoints relabelled team=b", labelled("b"), 0))
}

// endpoints.kubernetes.io/last-change-trigger-time (k8s.io/endpointslice util/trigger_time_tracker.go,
// pkg/controller/endpoint/endpoints_controller.go): the Service's creation time at its first sync,
// then the lastTransitionTime of the Ready condition that moved, on both the EndpointSlice and the
// Endpoints; a write that no such change caused (the Service's labels edited) removes it.
func TestWritesCarryTheLastChangeTriggerTime(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Apply(ctx, []byte(webService))
	require.NoError(t, err)
	endpoints := func() *api.Endpoints {
		ep, err := client.For[api.Endpoints](c.Kubectl.Client()).Get(ctx, "default", "web")
		if err != nil {
			return nil
		}
		return ep
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "placeholder slice and Endpoints", func() (bool, error) {
		return sliceOf(ctx, t, c) != nil && endpoints() != nil, nil
	}, 0))
	svc, err := client.For[api.Service](c.Kubectl.Client()).Get(ctx, "default", "web")
	require.NoError(t, err)
	const key = "endpoints.kubernetes.io/last-change-trigger-time"
	created := svc.CreationTimestamp.UTC().Format(time.RFC3339Nano)
	assert.Equal(t, created, sliceOf(ctx, t, c).Annotations[key], "the first sync: the Service's creation")
	assert.Equal(t, created, endpoints().Annotations[key], "the first sync: the Service's creation")

	_, err = c.Kubectl.Apply(ctx, []byte(webPod("web-1", "")))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "web-1 is a ready endpoint", func() (bool, error) {
		s, ep := sliceOf(ctx, t, c), endpoints()
		return s != nil && len(s.Endpoints) == 1 && *s.Endpoints[0].Conditions.Ready &&
			ep != nil && len(ep.Subsets) == 1 && len(ep.Subsets[0].Addresses) == 1, nil
	}, 0))
	pod, err := client.For[api.Pod](c.Kubectl.Client()).Get(ctx, "default", "web-1")
	require.NoError(t, err)
	var ready string
	for _, cond := range pod.Status.Conditions {
		if cond.Type == api.PodReady {
			ready = cond.LastTransitionTime.UTC().Format(time.RFC3339Nano)
		}
	}
	require.NotEmpty(t, ready)
	require.NotEqual(t, created, ready, "the test needs the pod to turn Ready after the Service's creation")
	assert.Equal(t, ready, sliceOf(ctx, t, c).Annotations[key], "web-1 turned Ready")
	assert.Equal(t, ready, endpoints().Annotations[key], "web-1 turned Ready")

	svc.Labels = map[string]string{"tier": "front"}
	_, err = client.For[api.Service](c.Kubectl.Client()).Update(ctx, svc)
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "the Service's label on its Endpoints", func() (bool, error) {
		ep := endpoints()
		return ep != nil && ep.Labels["tier"] == "front", nil
	}, 0))
	_, has := endpoints().Annotations[key]
	assert.False(t, has, "a write no trigger caused removes the annotation: %v", endpoints().Annotations)
	require.NoError(t, c.Driver.RunUntil(ctx, "the Service's label on its slice", func() (bool, error) {
		s := sliceOf(ctx, t, c)
		return s != nil && s.Labels["tier"] == "front", nil
	}, 0))
	_, has = sliceOf(ctx, t, c).Annotations[key]
	assert.False(t, has, "a write no trigger caused removes the annotation: %v", sliceOf(ctx, t, c).Annotations)
}
