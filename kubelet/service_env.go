// service_env.go: the Service environment variables, successors of Docker links, that the kubelet
// gives every container it starts (pkg/kubelet/kubelet_pods.go getServiceEnvVarMap and
// pkg/kubelet/envvars/envvars.go FromServices).
//
//	serviceEnv(pod) ([]KeyValue, error)     the variables of the Services a pod's containers see
//	serviceLinkVars(svc) []api.EnvVar       one Service's variables
//
// Which Services: every Service of the pod's namespace when the pod's enableServiceLinks is true
// (the default), and the Service "kubernetes" of namespace default always, which is how in-cluster
// clients find the apiserver. A Service without a cluster IP (headless, clusterIP None) has none. For
// a Service web at 10.96.0.10 with one port 80/TCP named http:
//
//	WEB_SERVICE_HOST=10.96.0.10            WEB_PORT=tcp://10.96.0.10:80 (the first port)
//	WEB_SERVICE_PORT=80 (the first port)   WEB_PORT_80_TCP=tcp://10.96.0.10:80
//	WEB_SERVICE_PORT_HTTP=80 (named ports) WEB_PORT_80_TCP_PROTO=tcp, _PORT=80, _ADDR=10.96.0.10
//
// The name is the Service's in upper case, dashes as underscores. The kubelet reads Services from an
// informer of its own over all namespaces (fieldSelector spec.clusterIP!=None, since 1.30: headless
// Services have no variables), which the Node authorizer lets a kubelet list and watch. Only the
// Services that exist when a container starts are in its environment: one created later is not, until
// the container restarts (why Kubernetes recommends DNS to find a Service). A variable the container
// declares (env, envFrom) wins over a Service's, and $(VAR) in a declared value sees them
// (config_sources.go containerEnv).
//
// Simplified: a real node passes the environment in Go map order; kubesim sorts the Service
// variables by name, after the declared ones. The real kubelet works the variables out afresh for
// every container it starts; kubesim works them out once per namespace while the Services stay as
// they are, and the containers that declare no variables of their own share one list (a node
// holds the KUBERNETES_* variables of its pods once, not once per container).
package kubelet

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
)

// errServicesNotSynced is the kubelet's error when its Service informer has not listed yet: the
// container is not created (CreateContainerConfigError) rather than started without
// KUBERNETES_SERVICE_HOST.
var errServicesNotSynced = errors.New("services have not yet been read at least once, cannot construct envvars")

// serviceVarsKey is what a pod's Service variables depend on, besides the Services: its namespace
// if its enableServiceLinks is on ("" if not: then only the Service kubernetes counts).
type serviceVarsKey struct {
	namespace string
	links     bool
}

// serviceVarsMemo is the Service variables worked out since the Services informer was last at
// another resourceVersion. Only the pod side touches it.
type serviceVarsMemo struct {
	rv    string
	byKey map[serviceVarsKey][]fakeruntime.KeyValue
}

// serviceEnv is the Service variables of a pod's containers, sorted by name: the environment of a
// container that declares no variable. Shared: never modify it (its capacity is its length, so
// that an append copies).
func (k *Kubelet) serviceEnv(p *api.Pod) ([]fakeruntime.KeyValue, error) {
	if !k.services.HasSynced() {
		return nil, errServicesNotSynced
	}
	links := p.Spec.EnableServiceLinks == nil || *p.Spec.EnableServiceLinks
	key := serviceVarsKey{links: links}
	if links {
		key.namespace = p.Namespace
	}
	// The resourceVersion is read before the list: the informer moves it on only after it has
	// applied an event, so the list is at least as new as the version it is remembered under.
	memo := &k.serviceVars
	if rv := k.services.LastResourceVersion(); rv != memo.rv || memo.byKey == nil {
		memo.rv, memo.byKey = rv, map[serviceVarsKey][]fakeruntime.KeyValue{}
	}
	if v, ok := memo.byKey[key]; ok {
		return v, nil
	}
	byName := map[string]*api.Service{}
	for _, svc := range k.services.List() {
		if !api.IsServiceIPSet(svc) {
			continue
		}
		switch {
		case svc.Namespace == api.NamespaceDefault && svc.Name == "kubernetes":
			if _, ok := byName[svc.Name]; !ok {
				byName[svc.Name] = svc
			}
		case svc.Namespace == p.Namespace && links:
			byName[svc.Name] = svc // the namespace's own Service of that name wins
		}
	}
	env := map[string]string{}
	for _, svc := range byName {
		for _, v := range serviceLinkVars(svc) {
			env[v.Name] = v.Value
		}
	}
	var vars []fakeruntime.KeyValue
	for _, name := range slices.Sorted(maps.Keys(env)) {
		vars = append(vars, fakeruntime.KeyValue{Key: name, Value: env[name]})
	}
	vars = slices.Clip(vars)
	memo.byKey[key] = vars
	return vars, nil
}

// serviceLinkVars is one Service's variables, in FromServices' order.
func serviceLinkVars(svc *api.Service) []api.EnvVar {
	if len(svc.Spec.Ports) == 0 {
		return nil // validation requires a port of every Service with a cluster IP
	}
	prefix := envVarName(svc.Name)
	ip := svc.Spec.ClusterIP
	first := strconv.Itoa(int(svc.Spec.Ports[0].Port))
	vars := []api.EnvVar{{Name: prefix + "_SERVICE_HOST", Value: ip}, {Name: prefix + "_SERVICE_PORT", Value: first}}
	for _, sp := range svc.Spec.Ports {
		if sp.Name != "" {
			vars = append(vars, api.EnvVar{Name: prefix + "_SERVICE_PORT_" + envVarName(sp.Name), Value: strconv.Itoa(int(sp.Port))})
		}
	}
	for i, sp := range svc.Spec.Ports {
		proto := string(api.ProtocolTCP)
		if sp.Protocol != "" {
			proto = string(sp.Protocol)
		}
		port := strconv.Itoa(int(sp.Port))
		url := strings.ToLower(proto) + "://" + net.JoinHostPort(ip, port)
		if i == 0 {
			vars = append(vars, api.EnvVar{Name: prefix + "_PORT", Value: url}) // Docker's special case
		}
		p := fmt.Sprintf("%s_PORT_%d_%s", prefix, sp.Port, strings.ToUpper(proto))
		vars = append(vars,
			api.EnvVar{Name: p, Value: url},
			api.EnvVar{Name: p + "_PROTO", Value: strings.ToLower(proto)},
			api.EnvVar{Name: p + "_PORT", Value: port},
			api.EnvVar{Name: p + "_ADDR", Value: ip})
	}
	return vars
}

// envVarName is a Service or port name as a variable name: upper case, dashes as underscores.
func envVarName(name string) string { return strings.ToUpper(strings.ReplaceAll(name, "-", "_")) }
