// generic.go: the small checks every kind's validation is built from, with Kubernetes' messages:
// non-negative numbers, immutable fields, DNS names in fields, port numbers and names, IP addresses
// and CIDRs. Interface: ValidateNonnegativeField, ValidateImmutableField, ValidatePortNumOrName.
package validation

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
)

// Kubernetes' shared detail strings.
const (
	isNegativeErrorMsg     = "must be greater than or equal to 0"
	isNotPositiveErrorMsg  = "must be greater than zero"
	isNotIntegerErrorMsg   = "must be an integer"
	fieldImmutableErrorMsg = "field is immutable"
)

// ValidateNonnegativeField reports a negative count, duration or size:
// `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
func ValidateNonnegativeField(value int64, path *field.Path) field.ErrorList {
	if value < 0 {
		return field.ErrorList{field.Invalid(path, value, isNegativeErrorMsg)}
	}
	return nil
}

// ValidateImmutableField reports a field that changed although it may only be set at creation:
// `spec.selector: Invalid value: {...}: field is immutable`. equal decides what "changed" means.
func ValidateImmutableField[T any](newVal, oldVal T, equal func(a, b T) bool, path *field.Path) field.ErrorList {
	if !equal(newVal, oldVal) {
		return field.ErrorList{field.Invalid(path, newVal, fieldImmutableErrorMsg)}
	}
	return nil
}

// validateName turns each message of a name rule into an Invalid error on path.
func validateName(check func(string) []string, value string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range check(value) {
		errs = append(errs, field.Invalid(path, value, msg))
	}
	return errs
}

// validateOptionalName checks a reference to another object by name (nodeName, serviceAccountName,
// priorityClassName) when it is set.
func validateOptionalName(value string, path *field.Path) field.ErrorList {
	if value == "" {
		return nil
	}
	return validateName(IsDNS1123Subdomain, value, path)
}

// validateOptionalLabel checks a DNS label (a pod's hostname and subdomain) when it is set.
func validateOptionalLabel(value string, path *field.Path) field.ErrorList {
	if value == "" {
		return nil
	}
	return validateName(IsDNS1123Label, value, path)
}

// isValidPortNum is Kubernetes' port range check.
func isValidPortNum(port int) []string {
	if 1 <= port && port <= 65535 {
		return nil
	}
	return []string{inclusiveRangeError(1, 65535)}
}

func inclusiveRangeError(lo, hi int) string {
	return fmt.Sprintf("must be between %d and %d, inclusive", lo, hi)
}

var (
	portNameCharsetRegexp   = regexp.MustCompile("^[-a-z0-9]+$")
	portNameOneLetterRegexp = regexp.MustCompile("[a-z]")
)

// isValidPortName checks an IANA_SVC_NAME (RFC 6335) such as "http" or "metrics-1", which is what a
// named container port, and a targetPort or probe port that refers to one, must be.
func isValidPortName(port string) []string {
	var errs []string
	if len(port) > 15 {
		errs = append(errs, field.MaxLenError(15))
	}
	if !portNameCharsetRegexp.MatchString(port) {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !portNameOneLetterRegexp.MatchString(port) {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(port, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if len(port) > 0 && (port[0] == '-' || port[len(port)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

// ValidatePortNumOrName checks a port given as a number (1-65535) or as the name of a container port.
func ValidatePortNumOrName(port api.IntOrString, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if port.Type == api.StringType {
		for _, msg := range isValidPortName(port.StrVal) {
			errs = append(errs, field.Invalid(path, port.StrVal, msg))
		}
		return errs
	}
	for _, msg := range isValidPortNum(int(port.IntVal)) {
		errs = append(errs, field.Invalid(path, port.IntVal, msg))
	}
	return errs
}

// supportedPortProtocols is sorted, as Kubernetes lists it in messages.
var supportedPortProtocols = []api.Protocol{api.ProtocolSCTP, api.ProtocolTCP, api.ProtocolUDP}

// validateEnum checks a field that holds one of a fixed set of values (a policy, a protocol, a
// type): empty is Required (defaulting fills the optional ones before validation), anything outside
// the set is NotSupported, with the set listed as Kubernetes lists it.
func validateEnum[T ~string](value T, supported []T, path *field.Path) field.ErrorList {
	switch {
	case value == "":
		return field.ErrorList{field.Required(path, "")}
	case !slices.Contains(supported, value):
		return field.ErrorList{field.NotSupported(path, value, supported)}
	}
	return nil
}

// validateIP checks an address field such as an endpoint's ip.
func validateIP(value string, path *field.Path) field.ErrorList {
	if _, err := netip.ParseAddr(value); err != nil {
		return field.ErrorList{field.Invalid(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")}
	}
	return nil
}

// validateCIDR checks a network field such as a node's podCIDR.
func validateCIDR(value string, path *field.Path) field.ErrorList {
	if _, err := netip.ParsePrefix(value); err != nil {
		return field.ErrorList{field.Invalid(path, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")}
	}
	return nil
}

// sortedKeys returns a map's keys in order, so that errors about a map come out in the same order
// every run, as kubesim's deterministic traces need (Kubernetes itself iterates in random order).
func sortedKeys[K ~string, V any](m map[K]V) []K {
	if len(m) == 0 {
		return nil // most maps validated are empty or absent: no allocation for them
	}
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
