// server.go: CoreDNS, the component, and the records it serves.
//
//	New(Options) *Server
//	Name, Informers, Step, Run   the component contract (client.Component)
//	(*Server).Query(name)        one question: the A records of a name, or NXDOMAIN
//	(*Server).Resolve(pod, name) what the pod's resolver does: each candidate name in turn
//	Identity                     the user CoreDNS authenticates as
//
// Like CoreDNS's kubernetes plugin, the server answers from its informers' caches; a change is
// visible as soon as the informer has it, so Step never has work of its own.
package dns

import (
	"context"
	"sort"
	"strings"

	"kubesim/api"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/trace"
)

// Identity is CoreDNS's user: the ServiceAccount kube-system/coredns, bound to system:coredns.
const Identity = "system:serviceaccount:kube-system:coredns"

// Groups are the groups of that ServiceAccount.
var Groups = []string{"system:serviceaccounts", "system:serviceaccounts:kube-system"}

// Name is the component's name in the trace.
const Name = "coredns"

// Options build the server.
type Options struct {
	Client *client.Client // authenticated as Identity
	Clock  clock.Clock
	Trace  *trace.Recorder
}

// Server is CoreDNS.
type Server struct {
	services *client.Informer[api.Service, *api.Service]
	slices   *client.Informer[api.EndpointSlice, *api.EndpointSlice]
}

// New builds the server.
func New(o Options) *Server {
	return &Server{
		services: client.NewInformer[api.Service](o.Client, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: Name + " services"}),
		slices:   client.NewInformer[api.EndpointSlice](o.Client, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: Name + " endpointslices"}),
	}
}

// Name is the component's name.
func (s *Server) Name() string { return Name }

// Informers are the Service and EndpointSlice informers.
func (s *Server) Informers() []client.InformerHandle {
	return []client.InformerHandle{s.services, s.slices}
}

// Step has nothing to do: queries are answered from the caches.
func (s *Server) Step(context.Context) (bool, error) { return false, nil }

// Run waits for ctx to end.
func (s *Server) Run(ctx context.Context) { <-ctx.Done() }

// Rcodes of an answer.
const (
	NoError  = "NOERROR"
	NXDomain = "NXDOMAIN"
)

// Answer is the reply to one query.
type Answer struct {
	Name     string
	Rcode    string
	A        []string     // the addresses
	Service  *api.Service // the Service the name belongs to, if any
	Headless bool         // the addresses are the pods' own
	Endpoint string       // the endpoint the name asked for (<endpoint>.<service>...), if any
	Upstream bool         // the name is outside the cluster domain: forwarded upstream
}

// Query answers name (without a trailing dot): <service>.<namespace>.svc.cluster.local, or
// <endpoint>.<service>.<namespace>.svc.cluster.local for one endpoint of a Service, named by its
// hostname (a pod with spec.hostname and spec.subdomain) or by its dashed IP (10-244-1-5).
func (s *Server) Query(name string) Answer {
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	a := Answer{Name: name, Rcode: NXDomain}
	rest, ok := strings.CutSuffix(name, ".svc."+ClusterDomain)
	if !ok {
		a.Upstream = !strings.HasSuffix(name, ClusterDomain)
		return a
	}
	parts := strings.Split(rest, ".")
	if len(parts) != 2 && len(parts) != 3 {
		return a
	}
	endpoint := ""
	if len(parts) == 3 {
		endpoint, parts = parts[0], parts[1:]
	}
	svc, ok := s.services.Get(parts[1] + "/" + parts[0])
	if !ok {
		return a
	}
	a.Service = svc
	switch {
	case endpoint != "":
		a.Endpoint = endpoint
		a.A = s.readyAddresses(svc, endpoint)
	case svc.Spec.ClusterIP == api.ClusterIPNone:
		a.Headless = true
		a.A = s.readyAddresses(svc, "")
	case svc.Spec.ClusterIP != "":
		a.A = []string{svc.Spec.ClusterIP}
	}
	if len(a.A) > 0 {
		a.Rcode = NoError
	}
	return a
}

// readyAddresses are the ready endpoints of svc, sorted; with endpoint set, only those it names.
func (s *Server) readyAddresses(svc *api.Service, endpoint string) []string {
	var out []string
	for _, sl := range s.slices.ByIndex(client.IndexNamespace, svc.Namespace) {
		if sl.Labels[api.LabelServiceName] != svc.Name {
			continue
		}
		for _, ep := range sl.Endpoints {
			if ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
				continue
			}
			for _, addr := range ep.Addresses {
				if endpoint == "" || endpoint == endpointName(ep, addr) {
					out = append(out, addr)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// endpointName is the name an endpoint's address has under its Service: the pod's hostname when
// the endpoint carries one, else the address with its dots turned into dashes (CoreDNS without
// endpoint_pod_names, its default).
func endpointName(ep api.Endpoint, addr string) string {
	if ep.Hostname != nil && *ep.Hostname != "" {
		return *ep.Hostname
	}
	return strings.ReplaceAll(addr, ".", "-")
}

// Resolution is what a pod's resolver did for one name.
type Resolution struct {
	Conf    ResolvConf
	Queries []Answer // each name tried, in order, up to the first answer
}

// Answer is the first successful answer, or nil.
func (r Resolution) Answer() *Answer {
	if n := len(r.Queries); n > 0 && r.Queries[n-1].Rcode == NoError {
		return &r.Queries[n-1]
	}
	return nil
}

// Resolve runs the pod's resolver on name: each candidate of the search path in turn, asking the
// cluster DNS, or the node's resolver (which knows no cluster names) under dnsPolicy Default.
func (s *Server) Resolve(pod *api.Pod, name string) Resolution {
	r := Resolution{Conf: ResolvConfFor(pod)}
	for _, cand := range r.Conf.Candidates(name) {
		var a Answer
		if r.Conf.ClusterDNS() {
			a = s.Query(cand)
		} else {
			a = Answer{Name: cand, Rcode: NXDomain, Upstream: true}
		}
		r.Queries = append(r.Queries, a)
		if a.Rcode == NoError {
			break
		}
	}
	return r
}

// ServicesNamed lists the Services called name in any namespace, to say where a short name would
// have worked.
func (s *Server) ServicesNamed(name string) []*api.Service {
	var out []*api.Service
	for _, svc := range s.services.List() {
		if svc.Name == name {
			out = append(out, svc)
		}
	}
	return out
}
