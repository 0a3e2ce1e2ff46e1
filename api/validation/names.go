// names.go: which names are valid for which kinds, with Kubernetes' messages. Interface:
// IsDNS1123Subdomain, IsDNS1123Label, IsDNS1035Label, ValidateNameFunc and the per-rule name
// functions NameIsDNSSubdomain, NameIsDNSLabel, NameIsDNS1035Label, NameIsPathSegment.
//
// A name ends up in a URL path, an etcd key and often a DNS name, so each kind picks the strictest
// rule its uses need: most kinds (pods, deployments, nodes) are DNS-1123 subdomains, names that
// become a single DNS label (namespaces) are DNS-1123 labels, services are DNS-1035 labels (they must
// start with a letter, because a service name becomes an environment variable prefix and a DNS name),
// and RBAC objects only need to be safe path segments ("system:kube-scheduler").
package validation

import (
	"fmt"
	"regexp"
	"strings"

	"kubesim/api/field"
	"kubesim/api/labels"
)

// IsDNS1123Subdomain checks a name like "nginx" or "nginx.example.com": lowercase alphanumerics, '-'
// and '.', starting and ending alphanumeric, at most 253 characters.
func IsDNS1123Subdomain(value string) []string { return labels.IsDNS1123Subdomain(value) }

// IsDNS1123Label checks a name like "default" or "web-1": one DNS label of at most 63 lowercase
// alphanumerics and '-', starting and ending alphanumeric.
func IsDNS1123Label(value string) []string { return labels.IsDNS1123Label(value) }

const (
	dns1035LabelFmt       = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg    = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	dns1035LabelMaxLength = 63
)

var dns1035LabelRegexp = regexp.MustCompile("^" + dns1035LabelFmt + "$")

// IsDNS1035Label checks a service name: like a DNS-1123 label, but it must start with a letter.
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > dns1035LabelMaxLength {
		errs = append(errs, field.MaxLenError(dns1035LabelMaxLength))
	}
	if !dns1035LabelRegexp.MatchString(value) {
		errs = append(errs, field.RegexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// ValidateNameFunc checks a name for one kind. With prefix true it checks a generateName prefix,
// which may end in '-' because the apiserver appends random characters to it.
type ValidateNameFunc func(name string, prefix bool) []string

// NameIsDNSSubdomain is the name rule of most kinds.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	return IsDNS1123Subdomain(maskTrailingDash(name, prefix))
}

// NameIsDNSLabel is the name rule of namespaces.
func NameIsDNSLabel(name string, prefix bool) []string {
	return IsDNS1123Label(maskTrailingDash(name, prefix))
}

// NameIsDNS1035Label is the name rule of services.
func NameIsDNS1035Label(name string, prefix bool) []string {
	return IsDNS1035Label(maskTrailingDash(name, prefix))
}

// NameIsPathSegment is the name rule of RBAC kinds (Kubernetes' ValidatePathSegmentName): anything
// that can sit in a URL path, so "system:node-proxier" is fine but "a/b" is not.
func NameIsPathSegment(name string, prefix bool) []string {
	if !prefix {
		for _, bad := range []string{".", ".."} {
			if name == bad {
				return []string{fmt.Sprintf("may not be '%s'", bad)}
			}
		}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// maskTrailingDash lets a generateName prefix such as "nginx-" pass a rule that forbids a trailing
// '-': the generated suffix will follow it. Kubernetes replaces the last two characters, not just the
// dash, with one "a" (apimachinery's validation.maskTrailingDash), so "a_-" passes and a prefix may be
// one character longer than a name.
func maskTrailingDash(name string, prefix bool) string {
	if prefix && len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}
