// fastpath.go: quick answers for the common case. Every create validates a handful of names and
// label keys; matching them with a regular expression was one of the apiserver's largest costs. These
// checks accept exactly what the patterns accept, without allocating; only a value they reject goes on
// to the regular expressions, which word the error.
package labels

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || c >= 'A' && c <= 'Z' }

// validDNS1123Label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 characters.
func validDNS1123Label(s string) bool {
	if len(s) == 0 || len(s) > dns1123LabelMaxLength || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// validDNS1123Subdomain: dot-separated DNS-1123 labels, at most 253 characters in all.
func validDNS1123Subdomain(s string) bool {
	if len(s) == 0 || len(s) > dns1123SubdomainMaxLength {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			label := s[start:i]
			if len(label) == 0 || !isLowerAlnum(label[0]) || !isLowerAlnum(label[len(label)-1]) {
				return false
			}
			for j := 1; j < len(label)-1; j++ {
				if c := label[j]; !isLowerAlnum(c) && c != '-' {
					return false
				}
			}
			start = i + 1
		}
	}
	return true
}

// validNamePart: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 characters (label names and
// values).
func validNamePart(s string) bool {
	if len(s) == 0 || len(s) > qualifiedNameMaxLength || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// validQualifiedName: an optional DNS-1123 subdomain prefix and '/', then a name part.
func validQualifiedName(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return validDNS1123Subdomain(s[:i]) && validNamePart(s[i+1:])
		}
	}
	return validNamePart(s)
}
