package labels

import (
	"strings"
	"testing"
)

// The fast checks must agree with the regular expressions on every input: a fast "yes" the pattern
// would refuse would let an invalid name through.
func TestFastChecksAgreeWithThePatterns(t *testing.T) {
	inputs := []string{"", "a", "A", "-", "a-", "-a", "a-b", "a.b", "a..b", ".a", "a.", "nginx-7c5d9f8b6-x2k9p",
		"Nginx", "my_name", "my.name", "123-abc", "a/b", "example.com/MyKey", "/a", "a/", "a/b/c", "EXAMPLE.com/x",
		"app.kubernetes.io/name", "x" + strings.Repeat("y", 62), "x" + strings.Repeat("y", 63),
		strings.Repeat("a", 63) + "." + strings.Repeat("b", 63), "a_b", "a b", "ä", "a\x00b", "0", "9-9", "a.-b", "a-.b"}
	for _, in := range inputs {
		if got, want := validDNS1123Label(in), dns1123LabelRegexp.MatchString(in) && len(in) <= dns1123LabelMaxLength; got != want {
			t.Errorf("DNS-1123 label %q: fast %v, pattern %v", in, got, want)
		}
		if got, want := validDNS1123Subdomain(in), dns1123SubdomainRegexp.MatchString(in) && len(in) <= dns1123SubdomainMaxLength; got != want {
			t.Errorf("DNS-1123 subdomain %q: fast %v, pattern %v", in, got, want)
		}
		if got, want := validNamePart(in), qualifiedNameRegexp.MatchString(in) && len(in) <= qualifiedNameMaxLength; got != want {
			t.Errorf("name part %q: fast %v, pattern %v", in, got, want)
		}
		if got, want := validQualifiedName(in), len(IsQualifiedNameSlow(in)) == 0; got != want {
			t.Errorf("qualified name %q: fast %v, slow %v", in, got, want)
		}
	}
}

// IsQualifiedNameSlow is IsQualifiedName without its fast path.
func IsQualifiedNameSlow(value string) []string {
	var errs []string
	name := value
	switch parts := strings.Split(value, "/"); len(parts) {
	case 1:
	case 2:
		if parts[0] == "" || !dns1123SubdomainRegexp.MatchString(parts[0]) || len(parts[0]) > dns1123SubdomainMaxLength {
			errs = append(errs, "prefix")
		}
		name = parts[1]
	default:
		return []string{"too many slashes"}
	}
	if name == "" || len(name) > qualifiedNameMaxLength || !qualifiedNameRegexp.MatchString(name) {
		errs = append(errs, "name")
	}
	return errs
}

func FuzzFastChecksAgreeWithThePatterns(f *testing.F) {
	for _, s := range []string{"a", "a.b", "example.com/MyKey", "-", "a..b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if validDNS1123Subdomain(in) != (dns1123SubdomainRegexp.MatchString(in) && len(in) <= dns1123SubdomainMaxLength) {
			t.Errorf("DNS-1123 subdomain %q disagrees", in)
		}
		if validNamePart(in) != (qualifiedNameRegexp.MatchString(in) && len(in) <= qualifiedNameMaxLength) {
			t.Errorf("name part %q disagrees", in)
		}
	})
}
