// discovery.go: EndpointSlice validation (k8s.io/kubernetes pkg/apis/discovery/validation).
// Interface: ValidateEndpointSlice, ValidateEndpointSliceUpdate.
package validation

import (
	"net/netip"
	"slices"

	"kubesim/api"
	"kubesim/api/field"
)

// supportedAddressTypes is sorted, as Kubernetes lists it.
var supportedAddressTypes = []api.AddressType{"FQDN", api.AddressTypeIPv4, "IPv6"}

// ValidateEndpointSlice checks an EndpointSlice: its address type, each endpoint's addresses of that
// type, and its ports' names and protocols.
func ValidateEndpointSlice(s *api.EndpointSlice) field.ErrorList {
	errs := ValidateObjectMeta(&s.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, validateEnum(s.AddressType, supportedAddressTypes, field.NewPath("addressType"))...)
	epsPath := field.NewPath("endpoints")
	for i, ep := range s.Endpoints {
		addrPath := epsPath.Index(i).Child("addresses")
		if len(ep.Addresses) == 0 {
			errs = append(errs, field.Required(addrPath, "must contain at least 1 address"))
		}
		for j, a := range ep.Addresses {
			ip, err := netip.ParseAddr(a)
			switch {
			case s.AddressType == api.AddressTypeIPv4 && (err != nil || !ip.Is4()):
				errs = append(errs, field.Invalid(addrPath.Index(j), a, "must be an IPv4 address"))
			case s.AddressType == "IPv6" && (err != nil || !ip.Is6()):
				errs = append(errs, field.Invalid(addrPath.Index(j), a, "must be an IPv6 address"))
			}
		}
	}
	portsPath := field.NewPath("ports")
	var names []string
	for i, p := range s.Ports {
		idx := portsPath.Index(i)
		name := ""
		if p.Name != nil {
			name = *p.Name
		}
		if name != "" {
			errs = append(errs, validateName(IsDNS1123Label, name, idx.Child("name"))...)
		}
		if slices.Contains(names, name) {
			errs = append(errs, field.Duplicate(idx.Child("name"), name))
		}
		names = append(names, name)
		var proto api.Protocol
		if p.Protocol != nil {
			proto = *p.Protocol
		}
		errs = append(errs, validateEnum(proto, supportedPortProtocols, idx.Child("protocol"))...)
	}
	return errs
}

// ValidateEndpointSliceUpdate also keeps the address type: a slice of IPv4 addresses stays one.
func ValidateEndpointSliceUpdate(newSlice, oldSlice *api.EndpointSlice) field.ErrorList {
	return append(ValidateEndpointSlice(newSlice), ValidateImmutableField(newSlice.AddressType, oldSlice.AddressType,
		func(a, b api.AddressType) bool { return a == b }, field.NewPath("addressType"))...)
}
