package kubelet_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// createService creates a Service in namespace default and returns it as stored (cluster IP given).
func createService(t *testing.T, ctx context.Context, c *sim.Cluster, svc *api.Service) *api.Service {
	t.Helper()
	svc.Namespace = "default"
	created, err := client.For[api.Service](admin(c)).Create(ctx, svc)
	require.NoError(t, err)
	return created
}

// envOf runs a pod whose container prints its environment (sh -c env, then sleeps) and returns what
// kubectl logs shows, as a map.
func envOf(t *testing.T, ctx context.Context, c *sim.Cluster, node *testNode, p *api.Pod) map[string]string {
	t.Helper()
	p.Spec.Containers[0].Command = []string{"sh", "-c", "env; sleep 3600"}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, p.Name+" running", func() bool { return containerStatus(getPod(t, ctx, c, p.Name)).State.Running != nil })
	_, id, _ := strings.Cut(containerStatus(getPod(t, ctx, c, p.Name)).ContainerID, "://")
	lines, err := node.rt.ContainerLogs(ctx, id, -1)
	require.NoError(t, err)
	env := map[string]string{}
	for _, l := range lines {
		k, v, ok := strings.Cut(l.Log, "=")
		require.True(t, ok, "an env line: %q", l.Log)
		env[k] = v
	}
	return env
}

// The kubelet gives a container the Docker-links-style variables of every Service of its namespace
// with a cluster IP (pkg/kubelet/envvars/envvars.go FromServices), and of the Service "kubernetes" in
// default; not those of a headless Service, nor of another namespace's. A declared variable wins over
// a Service's, and $(VAR) in a declared value sees them. The whole environment is compared, so a
// variable missing, wrong or extra fails the test.
func TestServiceLinksAreInTheContainersEnvironment(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	web := createService(t, ctx, c, &api.Service{ObjectMeta: api.ObjectMeta{Name: "web-frontend"}, Spec: api.ServiceSpec{
		Selector: map[string]string{"app": "web"},
		Ports: []api.ServicePort{{Name: "http", Port: 80, TargetPort: api.FromInt32(8080)},
			{Name: "dns-udp", Protocol: api.ProtocolUDP, Port: 53, TargetPort: api.FromInt32(53)}}}})
	createService(t, ctx, c, &api.Service{ObjectMeta: api.ObjectMeta{Name: "db"}, Spec: api.ServiceSpec{
		ClusterIP: api.ClusterIPNone, Selector: map[string]string{"app": "db"}, Ports: []api.ServicePort{{Port: 5432}}}})
	_, err := client.For[api.Namespace](admin(c)).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "shop"}})
	require.NoError(t, err)
	_, err = client.For[api.Service](admin(c)).Create(ctx, &api.Service{ObjectMeta: api.ObjectMeta{Name: "cart", Namespace: "shop"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "cart"}, Ports: []api.ServicePort{{Port: 80}}}})
	require.NoError(t, err)

	p := newPod("client", "node-1", "busybox:1.36")
	p.Spec.Containers[0].Env = []api.EnvVar{
		{Name: "WEB_FRONTEND_SERVICE_PORT", Value: "8080"},
		{Name: "URL", Value: "http://$(WEB_FRONTEND_SERVICE_HOST):$(WEB_FRONTEND_SERVICE_PORT)/"},
	}
	env := envOf(t, ctx, c, node, p)

	ip := web.Spec.ClusterIP
	require.NotEmpty(t, ip)
	assert.Equal(t, map[string]string{
		"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOSTNAME": "client", "HOME": "/root",
		"WEB_FRONTEND_SERVICE_PORT": "8080",
		"URL":                       "http://" + ip + ":8080/",

		"WEB_FRONTEND_SERVICE_HOST":         ip,
		"WEB_FRONTEND_SERVICE_PORT_HTTP":    "80",
		"WEB_FRONTEND_SERVICE_PORT_DNS_UDP": "53",
		"WEB_FRONTEND_PORT":                 "tcp://" + ip + ":80",
		"WEB_FRONTEND_PORT_80_TCP":          "tcp://" + ip + ":80",
		"WEB_FRONTEND_PORT_80_TCP_PROTO":    "tcp",
		"WEB_FRONTEND_PORT_80_TCP_PORT":     "80",
		"WEB_FRONTEND_PORT_80_TCP_ADDR":     ip,
		"WEB_FRONTEND_PORT_53_UDP":          "udp://" + ip + ":53",
		"WEB_FRONTEND_PORT_53_UDP_PROTO":    "udp",
		"WEB_FRONTEND_PORT_53_UDP_PORT":     "53",
		"WEB_FRONTEND_PORT_53_UDP_ADDR":     ip,

		"KUBERNETES_SERVICE_HOST":       "10.96.0.1",
		"KUBERNETES_SERVICE_PORT":       "443",
		"KUBERNETES_SERVICE_PORT_HTTPS": "443",
		"KUBERNETES_PORT":               "tcp://10.96.0.1:443",
		"KUBERNETES_PORT_443_TCP":       "tcp://10.96.0.1:443",
		"KUBERNETES_PORT_443_TCP_PROTO": "tcp",
		"KUBERNETES_PORT_443_TCP_PORT":  "443",
		"KUBERNETES_PORT_443_TCP_ADDR":  "10.96.0.1",
	}, env)
}

// enableServiceLinks: false leaves out the namespace's Services but not the Service "kubernetes";
// a Service created later is in the environment of the containers started after it (the kubelet's
// informer watches Services).
func TestServiceLinksOffAndServicesCreatedLater(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	createService(t, ctx, c, &api.Service{ObjectMeta: api.ObjectMeta{Name: "web"}, Spec: api.ServiceSpec{
		Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Port: 80}}}})

	off := newPod("off", "node-1", "busybox:1.36")
	off.Spec.EnableServiceLinks = api.Ptr(false)
	env := envOf(t, ctx, c, node, off)
	assert.Equal(t, "10.96.0.1", env["KUBERNETES_SERVICE_HOST"])
	assert.NotContains(t, env, "WEB_SERVICE_HOST")

	on := envOf(t, ctx, c, node, newPod("on", "node-1", "busybox:1.36"))
	assert.Contains(t, on, "WEB_SERVICE_HOST")
	createService(t, ctx, c, &api.Service{ObjectMeta: api.ObjectMeta{Name: "late"}, Spec: api.ServiceSpec{
		Selector: map[string]string{"app": "late"}, Ports: []api.ServicePort{{Port: 80}}}})
	later := envOf(t, ctx, c, node, newPod("later", "node-1", "busybox:1.36"))
	assert.Contains(t, later, "LATE_SERVICE_HOST")
}
