// table_network.go: the Table columns of services, endpoints and endpointslices, with the cell wording
// of Kubernetes' printers (printService, printEndpoints, printEndpointSlice): what a learner reads when
// "the app runs but I cannot reach it" (a selector that matches nothing shows ENDPOINTS <none>).
package httpfront

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"kubesim/api"
	"kubesim/api/labels"
)

// maxListed is how many addresses an ENDPOINTS cell lists before "+ N more...".
const maxListed = 3

var serviceColumns = []column{nameColumn,
	{name: "Type", typ: "string", describe: "The type of the service.",
		cell: func(_ *Handler, o api.Object) any { return string(serviceType(o.(*api.Service))) }},
	{name: "Cluster-IP", typ: "string", describe: "The cluster IP of the service.",
		cell: func(_ *Handler, o api.Object) any {
			s := o.(*api.Service)
			if len(s.Spec.ClusterIPs) > 0 {
				return s.Spec.ClusterIPs[0]
			}
			return orNone(s.Spec.ClusterIP)
		}},
	{name: "External-IP", typ: "string", describe: "The external IP of the service.",
		cell: func(_ *Handler, o api.Object) any { return serviceExternalIP(o.(*api.Service)) }},
	{name: "Port(s)", typ: "string", describe: "The ports of the service.",
		cell: func(_ *Handler, o api.Object) any { return servicePorts(o.(*api.Service).Spec.Ports) }},
	ageColumn,
	{name: "Selector", typ: "string", wide: true, describe: "The selectors of the service.",
		cell: func(_ *Handler, o api.Object) any { return orNone(labels.Set(o.(*api.Service).Spec.Selector).String()) }},
}

func serviceType(s *api.Service) api.ServiceType {
	if s.Spec.Type == "" {
		return api.ServiceTypeClusterIP
	}
	return s.Spec.Type
}

// serviceExternalIP is <none> but for a LoadBalancer, whose address is <pending> until a cloud
// gives one (kubesim has no cloud).
func serviceExternalIP(s *api.Service) string {
	if serviceType(s) != api.ServiceTypeLoadBalancer {
		return "<none>"
	}
	var ips []string
	for _, in := range s.Status.LoadBalancer.Ingress {
		if in.IP != "" {
			ips = append(ips, in.IP)
		} else if in.Hostname != "" {
			ips = append(ips, in.Hostname)
		}
	}
	if len(ips) == 0 {
		return "<pending>"
	}
	return strings.Join(ips, ",")
}

// servicePorts is "80/TCP,443:30443/TCP".
func servicePorts(ports []api.ServicePort) string {
	if len(ports) == 0 {
		return "<none>"
	}
	pieces := make([]string, len(ports))
	for i, p := range ports {
		proto := string(p.Protocol)
		if proto == "" {
			proto = "TCP"
		}
		pieces[i] = fmt.Sprintf("%d/%s", p.Port, proto)
		if p.NodePort > 0 {
			pieces[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, proto)
		}
	}
	return strings.Join(pieces, ",")
}

var endpointsColumns = []column{nameColumn,
	{name: "Endpoints", typ: "string", describe: "Endpoints of the resource.",
		cell: func(_ *Handler, o api.Object) any { return endpointsCell(o.(*api.Endpoints)) }},
	ageColumn,
}

// endpointsCell lists the ready addresses with each port, "10.244.1.5:80,10.244.2.7:80 + 1 more...",
// or <none>.
func endpointsCell(e *api.Endpoints) string {
	var listed []string
	count := 0
	for _, ss := range e.Subsets {
		if len(ss.Ports) == 0 { // a headless Service without ports
			for _, a := range ss.Addresses {
				if len(listed) < maxListed {
					listed = append(listed, a.IP)
				}
				count++
			}
			continue
		}
		for _, p := range ss.Ports {
			for _, a := range ss.Addresses {
				if len(listed) < maxListed {
					listed = append(listed, net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))))
				}
				count++
			}
		}
	}
	switch {
	case count == 0:
		return "<none>"
	case count > maxListed:
		return fmt.Sprintf("%s + %d more...", strings.Join(listed, ","), count-maxListed)
	}
	return strings.Join(listed, ",")
}

var endpointSliceColumns = []column{nameColumn,
	{name: "AddressType", typ: "string", describe: "The type of address held in the EndpointSlice.",
		cell: func(_ *Handler, o api.Object) any { return string(o.(*api.EndpointSlice).AddressType) }},
	{name: "Ports", typ: "string", describe: "The ports of the EndpointSlice.",
		cell: func(_ *Handler, o api.Object) any {
			return sliceLimited(len(o.(*api.EndpointSlice).Ports), portAt(o.(*api.EndpointSlice)))
		}},
	{name: "Endpoints", typ: "string", describe: "The addresses of the EndpointSlice's endpoints.",
		cell: func(_ *Handler, o api.Object) any {
			var addrs []string
			for _, e := range o.(*api.EndpointSlice).Endpoints {
				addrs = append(addrs, e.Addresses...)
			}
			return sliceLimited(len(addrs), func(i int) string { return addrs[i] })
		}},
	ageColumn,
}

// portAt is a port of the slice by number, else by name, else "*" (every port).
func portAt(s *api.EndpointSlice) func(int) string {
	return func(i int) string {
		switch p := s.Ports[i]; {
		case p.Port != nil:
			return strconv.Itoa(int(*p.Port))
		case p.Name != nil:
			return *p.Name
		}
		return "*"
	}
}

// sliceLimited is an EndpointSlice cell: the first three of n items, "+ N more...", or <unset>.
func sliceLimited(n int, item func(int) string) string {
	if n == 0 {
		return "<unset>"
	}
	var listed []string
	for i := 0; i < n && i < maxListed; i++ {
		listed = append(listed, item(i))
	}
	if n > maxListed {
		return fmt.Sprintf("%s + %d more...", strings.Join(listed, ","), n-maxListed)
	}
	return strings.Join(listed, ",")
}
