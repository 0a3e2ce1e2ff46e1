package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The name rules return apimachinery's exact messages, which kubectl shows after "Invalid value".
func TestNameRulesReturnKubernetesMessages(t *testing.T) {
	assert.Equal(t, []string{"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
		"and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
		"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}, IsDNS1123Subdomain("Nginx"))
	assert.Equal(t, []string{"must be no more than 253 characters"}, IsDNS1123Subdomain(longName(254)))
	assert.Empty(t, IsDNS1123Subdomain(longName(253)))

	assert.Equal(t, []string{"must not contain dots"}, IsDNS1123Label("kube.system"))
	assert.Empty(t, IsDNS1123Label("123-abc"))

	assert.Equal(t, []string{"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an " +
		"alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for " +
		"validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"}, IsDNS1035Label("1web"))
	assert.Equal(t, []string{"must be no more than 63 characters"}, IsDNS1035Label(longName(64)))
}

// Each kind's name function accepts what that kind accepts.
func TestNameFunctionsPerKind(t *testing.T) {
	cases := []struct {
		name  string
		fn    ValidateNameFunc
		value string
		valid bool
	}{
		{"pods may contain dots", NameIsDNSSubdomain, "nginx.v1", true},
		{"namespaces may not contain dots", NameIsDNSLabel, "team.a", false},
		{"services may not start with a digit", NameIsDNS1035Label, "1web", false},
		{"services may start with a letter", NameIsDNS1035Label, "web-1", true},
		{"RBAC names may contain colons", NameIsPathSegment, "system:kube-scheduler", true},
		{"RBAC names may not contain slashes", NameIsPathSegment, "a/b", false},
		{"RBAC names may not be ..", NameIsPathSegment, "..", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.valid, len(tc.fn(tc.value, false)) == 0, "%v", tc.fn(tc.value, false))
		})
	}
}

// generateName "nginx-" is a valid prefix even though a name may not end in '-': the apiserver
// appends five random characters.
func TestGenerateNamePrefixMayEndInDash(t *testing.T) {
	assert.Empty(t, NameIsDNSSubdomain("nginx-", true))
	assert.NotEmpty(t, NameIsDNSSubdomain("nginx-", false))
	assert.NotEmpty(t, NameIsDNSSubdomain("Nginx-", true))
}

// Kubernetes masks the last two characters of a prefix ending in '-' with one "a", so the character
// before the dash is never checked and the prefix may be one character longer than a name.
func TestGenerateNameMaskCoversTheLastTwoCharacters(t *testing.T) {
	assert.Empty(t, NameIsDNSSubdomain("web_-", true))
	assert.Empty(t, NameIsDNSLabel(longName(63)+"-", true))
	assert.NotEmpty(t, NameIsDNSLabel(longName(64)+"-", true))
	assert.NotEmpty(t, NameIsDNSLabel("web_-", false))
}
