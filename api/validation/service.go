// service.go: Service and Endpoints validation (k8s.io/kubernetes pkg/apis/core/validation
// ValidateService, ValidateServiceUpdate, ValidateEndpoints). Interface: ValidateService,
// ValidateServiceUpdate, ValidateEndpoints.
package validation

import (
	"fmt"
	"net/netip"
	"slices"

	"kubesim/api"
	"kubesim/api/field"
)

// supportedServiceTypes is sorted, as Kubernetes lists it.
var supportedServiceTypes = []api.ServiceType{api.ServiceTypeClusterIP, api.ServiceTypeExternalName,
	api.ServiceTypeLoadBalancer, api.ServiceTypeNodePort}

// ValidateService checks a Service on create. Its name is a DNS-1035 label: it becomes a DNS name
// (nginx.default.svc) and the prefix of environment variables (NGINX_SERVICE_HOST), so it must start
// with a letter.
func ValidateService(svc *api.Service) field.ErrorList {
	errs := ValidateObjectMeta(&svc.ObjectMeta, true, NameIsDNS1035Label, field.NewPath("metadata"))
	spec, specPath := &svc.Spec, field.NewPath("spec")
	portsPath := specPath.Child("ports")

	if !slices.Contains(supportedServiceTypes, spec.Type) {
		errs = append(errs, field.NotSupported(specPath.Child("type"), spec.Type, supportedServiceTypes))
	}
	headless := spec.ClusterIP == api.ClusterIPNone
	if len(spec.Ports) == 0 && !headless && spec.Type != api.ServiceTypeExternalName {
		errs = append(errs, field.Required(portsPath, ""))
	}
	names := map[string]bool{}
	seen := map[api.ServicePort]bool{}
	for i := range spec.Ports {
		port, idx := &spec.Ports[i], portsPath.Index(i)
		errs = append(errs, validateServicePort(port, len(spec.Ports) > 1, names, idx)...)
		if spec.Type == api.ServiceTypeClusterIP && port.NodePort != 0 {
			errs = append(errs, field.Forbidden(idx.Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
		}
		// Two ports with the same number and protocol could not be told apart by kube-proxy.
		key := api.ServicePort{Protocol: port.Protocol, Port: port.Port}
		if seen[key] {
			errs = append(errs, field.Duplicate(idx, key))
		}
		seen[key] = true
	}
	errs = append(errs, ValidateLabels(spec.Selector, specPath.Child("selector"))...)
	errs = append(errs, validateClusterIPs(spec, specPath)...)
	errs = append(errs, validateServicePolicies(spec, specPath)...)
	// A node port forwards to the cluster IP's rules: a headless Service has none to forward to.
	if headless && len(spec.ClusterIPs) > 0 && (spec.Type == api.ServiceTypeNodePort || spec.Type == api.ServiceTypeLoadBalancer) {
		errs = append(errs, field.Invalid(specPath.Child("clusterIPs").Index(0), spec.ClusterIPs[0],
			fmt.Sprintf("may not be set to 'None' for %s services", spec.Type)))
	}
	return errs
}

// ValidateServiceUpdate checks a Service update: its cluster IP, once allocated, is fixed, because
// clients and kube-proxy rules already point at it.
func ValidateServiceUpdate(newSvc, oldSvc *api.Service) field.ErrorList {
	errs := ValidateService(newSvc)
	if oldSvc.Spec.ClusterIP != "" && oldSvc.Spec.Type != api.ServiceTypeExternalName && newSvc.Spec.Type != api.ServiceTypeExternalName {
		errs = append(errs, ValidateImmutableField(newSvc.Spec.ClusterIP, oldSvc.Spec.ClusterIP,
			func(a, b string) bool { return a == b }, field.NewPath("spec", "clusterIP"))...)
	}
	return errs
}

func validateServicePort(port *api.ServicePort, requireName bool, names map[string]bool, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case requireName && port.Name == "":
		errs = append(errs, field.Required(path.Child("name"), ""))
	case port.Name != "":
		errs = append(errs, validateName(IsDNS1123Label, port.Name, path.Child("name"))...)
		if names[port.Name] {
			errs = append(errs, field.Duplicate(path.Child("name"), port.Name))
		}
		names[port.Name] = true
	}
	for _, msg := range isValidPortNum(int(port.Port)) {
		errs = append(errs, field.Invalid(path.Child("port"), port.Port, msg))
	}
	errs = append(errs, validateEnum(port.Protocol, supportedPortProtocols, path.Child("protocol"))...)
	return append(errs, ValidatePortNumOrName(port.TargetPort, path.Child("targetPort"))...)
}

// validateClusterIPs: a cluster IP is empty (the apiserver allocates one), "None" (headless), or an
// address; clusterIPs, the dual-stack list, starts with it.
func validateClusterIPs(spec *api.ServiceSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if ip := spec.ClusterIP; ip != "" && ip != api.ClusterIPNone {
		if _, err := netip.ParseAddr(ip); err != nil {
			errs = append(errs, field.Invalid(path.Child("clusterIP"), ip, "must be empty, 'None', or a valid IP address"))
		}
	}
	ipsPath := path.Child("clusterIPs")
	for i, ip := range spec.ClusterIPs {
		if ip == api.ClusterIPNone {
			continue
		}
		if _, err := netip.ParseAddr(ip); err != nil {
			errs = append(errs, field.Invalid(ipsPath.Index(i), ip, "must be empty, 'None', or a valid IP address"))
		}
	}
	if len(spec.ClusterIPs) > 0 && spec.ClusterIPs[0] != spec.ClusterIP {
		errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "first value must match `clusterIP`"))
	}
	return errs
}

// ValidateEndpoints checks an Endpoints object, which the endpoints controller writes.
func ValidateEndpoints(ep *api.Endpoints) field.ErrorList {
	errs := ValidateObjectMeta(&ep.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	subsetsPath := field.NewPath("subsets")
	for i := range ep.Subsets {
		ss, idx := &ep.Subsets[i], subsetsPath.Index(i)
		if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, field.Required(idx, "must specify `addresses` or `notReadyAddresses`"))
		}
		for j := range ss.Addresses {
			errs = append(errs, validateEndpointAddress(&ss.Addresses[j], idx.Child("addresses").Index(j))...)
		}
		for j := range ss.NotReadyAddresses {
			errs = append(errs, validateEndpointAddress(&ss.NotReadyAddresses[j], idx.Child("notReadyAddresses").Index(j))...)
		}
		for j, port := range ss.Ports {
			errs = append(errs, validateEndpointPort(port, len(ss.Ports) > 1, idx.Child("ports").Index(j))...)
		}
	}
	return errs
}

// validateEndpointAddress: an endpoint must be a pod's routable address, never a loopback,
// link-local or unspecified one, which would point traffic at whichever node handles it.
func validateEndpointAddress(addr *api.EndpointAddress, path *field.Path) field.ErrorList {
	ipPath := path.Child("ip")
	errs := validateIP(addr.IP, ipPath)
	if len(errs) == 0 {
		ip := netip.MustParseAddr(addr.IP)
		switch {
		case ip.IsUnspecified():
			errs = append(errs, field.Invalid(ipPath, addr.IP, "may not be unspecified (0.0.0.0)"))
		case ip.IsLoopback():
			errs = append(errs, field.Invalid(ipPath, addr.IP, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
		case ip.IsLinkLocalUnicast():
			errs = append(errs, field.Invalid(ipPath, addr.IP, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
		case ip.IsLinkLocalMulticast():
			errs = append(errs, field.Invalid(ipPath, addr.IP, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
		}
	}
	if addr.Hostname != "" {
		errs = append(errs, validateName(IsDNS1123Label, addr.Hostname, path.Child("hostname"))...)
	}
	if addr.NodeName != nil {
		errs = append(errs, validateName(IsDNS1123Subdomain, *addr.NodeName, path.Child("nodeName"))...)
	}
	return errs
}

func validateEndpointPort(port api.EndpointPort, requireName bool, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if requireName && port.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), ""))
	} else if port.Name != "" {
		errs = append(errs, validateName(IsDNS1123Label, port.Name, path.Child("name"))...)
	}
	for _, msg := range isValidPortNum(int(port.Port)) {
		errs = append(errs, field.Invalid(path.Child("port"), port.Port, msg))
	}
	return append(errs, validateEnum(port.Protocol, supportedPortProtocols, path.Child("protocol"))...)
}

// validateServicePolicies checks the enumerations a Service's defaulting fills in, with the values
// Kubernetes accepts.
func validateServicePolicies(spec *api.ServiceSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	affinities := []api.ServiceAffinity{api.ServiceAffinityClientIP, api.ServiceAffinityNone}
	if spec.SessionAffinity != "" && !slices.Contains(affinities, spec.SessionAffinity) { // "": not defaulted yet
		errs = append(errs, field.NotSupported(path.Child("sessionAffinity"), spec.SessionAffinity, affinities))
	}
	errs = append(errs, validateSessionAffinityConfig(spec, path.Child("sessionAffinityConfig"))...)
	policies := []api.ServiceTrafficPolicy{api.ServiceTrafficPolicyCluster, api.ServiceTrafficPolicyLocal}
	if p := spec.InternalTrafficPolicy; p != nil && !slices.Contains(policies, *p) {
		errs = append(errs, field.NotSupported(path.Child("internalTrafficPolicy"), *p, policies))
	}
	external := spec.Type == api.ServiceTypeNodePort || spec.Type == api.ServiceTypeLoadBalancer
	switch p := spec.ExternalTrafficPolicy; {
	case p != "" && !external:
		errs = append(errs, field.Invalid(path.Child("externalTrafficPolicy"), p, "may only be set for externally-accessible services"))
	case p != "" && !slices.Contains(policies, p):
		errs = append(errs, field.NotSupported(path.Child("externalTrafficPolicy"), p, policies))
	}
	return errs
}

// validateSessionAffinityConfig: ClientIP affinity needs its timeout, between 1 second and a day;
// None takes no configuration.
func validateSessionAffinityConfig(spec *api.ServiceSpec, path *field.Path) field.ErrorList {
	cfg := spec.SessionAffinityConfig
	switch spec.SessionAffinity {
	case api.ServiceAffinityNone:
		if cfg != nil {
			return field.ErrorList{field.Forbidden(path, "must not be set when session affinity is None")}
		}
	case api.ServiceAffinityClientIP:
		const needed = "when session affinity type is ClientIP"
		switch {
		case cfg == nil:
			return field.ErrorList{field.Required(path, needed)}
		case cfg.ClientIP == nil:
			return field.ErrorList{field.Required(path.Child("clientIP"), needed)}
		case cfg.ClientIP.TimeoutSeconds == nil:
			return field.ErrorList{field.Required(path.Child("clientIP").Child("timeoutSeconds"), needed)}
		}
		if t := *cfg.ClientIP.TimeoutSeconds; t <= 0 || t > api.MaxClientIPServiceAffinitySeconds {
			return field.ErrorList{field.Invalid(path.Child("clientIP").Child("timeoutSeconds"), t,
				fmt.Sprintf("must be greater than 0 and less than %d", api.MaxClientIPServiceAffinitySeconds))}
		}
	}
	return nil
}
