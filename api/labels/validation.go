// validation.go holds the name checks Kubernetes applies to label keys,
// label values and object names, with Kubernetes' own error strings
// (k8s.io/apimachinery/pkg/util/validation). Interface: IsQualifiedName,
// IsValidLabelValue, IsDNS1123Subdomain, IsDNS1123Label.
//
// Each returns a list of problems; an empty list means valid. Callers prefix
// them with the field path, as in `metadata.labels: Invalid value: "a b": ...`.
package labels

import (
	"regexp"
	"strings"

	"kubesim/api/field"
)

const (
	qualifiedNameFmt       = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameErrMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	qualifiedNameMaxLength = 63

	labelValueFmt       = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg    = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMaxLength = 63

	dns1123LabelFmt       = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg    = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123LabelMaxLength = 63

	dns1123SubdomainFmt       = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrMsg    = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1123SubdomainMaxLength = 253
)

var (
	qualifiedNameRegexp    = regexp.MustCompile("^" + qualifiedNameFmt + "$")
	labelValueRegexp       = regexp.MustCompile("^" + labelValueFmt + "$")
	dns1123LabelRegexp     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRegexp = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
)

// IsQualifiedName checks a label key (or annotation key): an optional DNS
// subdomain prefix of at most 253 characters and a '/', then a name of at
// most 63 alphanumerics, '-', '_' and '.', starting and ending alphanumeric.
// "app", "app.kubernetes.io/name" and "example.com/MyKey" are valid.
func IsQualifiedName(value string) []string {
	if validQualifiedName(value) {
		return nil
	}
	var errs []string
	name := value
	switch parts := strings.Split(value, "/"); len(parts) {
	case 1:
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part "+field.EmptyError)
		} else {
			for _, msg := range IsDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+msg)
			}
		}
	default:
		return []string{"a qualified name " + field.RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part "+field.EmptyError)
	} else if len(name) > qualifiedNameMaxLength {
		errs = append(errs, "name part "+field.MaxLenError(qualifiedNameMaxLength))
	}
	if !qualifiedNameRegexp.MatchString(name) {
		errs = append(errs, "name part "+field.RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value: empty, or at most 63 alphanumerics,
// '-', '_' and '.', starting and ending alphanumeric.
func IsValidLabelValue(value string) []string {
	if value == "" || validNamePart(value) {
		return nil
	}
	var errs []string
	if len(value) > labelValueMaxLength {
		errs = append(errs, field.MaxLenError(labelValueMaxLength))
	}
	if !labelValueRegexp.MatchString(value) {
		errs = append(errs, field.RegexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsDNS1123Subdomain checks most object names (pods, deployments, nodes):
// lowercase alphanumerics, '-' and '.', at most 253 characters.
func IsDNS1123Subdomain(value string) []string {
	if validDNS1123Subdomain(value) {
		return nil
	}
	var errs []string
	if len(value) > dns1123SubdomainMaxLength {
		errs = append(errs, field.MaxLenError(dns1123SubdomainMaxLength))
	}
	if !dns1123SubdomainRegexp.MatchString(value) {
		errs = append(errs, field.RegexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1123Label checks names that must also be a single DNS label
// (namespaces, services, container names): lowercase alphanumerics and '-',
// at most 63 characters.
func IsDNS1123Label(value string) []string {
	if validDNS1123Label(value) {
		return nil
	}
	var errs []string
	if len(value) > dns1123LabelMaxLength {
		errs = append(errs, field.MaxLenError(dns1123LabelMaxLength))
	}
	if !dns1123LabelRegexp.MatchString(value) {
		if dns1123SubdomainRegexp.MatchString(value) {
			// A valid subdomain that is not a valid label can only differ by dots.
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, field.RegexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}
