package labels

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const nameRegexErr = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

// Label key rules: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set
func TestIsQualifiedName(t *testing.T) {
	for _, valid := range []string{"app", "App_1", "a.b-c", "app.kubernetes.io/name", "example.com/MyKey", "1", strings.Repeat("a", 63)} {
		assert.Empty(t, IsQualifiedName(valid), valid)
	}
	for _, tc := range []struct {
		in   string
		errs []string
	}{
		{"", []string{"name part must be non-empty", nameRegexErr}},
		{"-app", []string{nameRegexErr}},
		{"app_", []string{nameRegexErr}},
		{strings.Repeat("a", 64), []string{"name part must be no more than 63 characters"}},
		{"/app", []string{"prefix part must be non-empty"}},
		{"Example.com/app", []string{"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
		{strings.Repeat("a", 254) + "/app", []string{"prefix part must be no more than 253 characters"}},
		{"example.com/", []string{"name part must be non-empty", nameRegexErr}},
	} {
		assert.Equal(t, tc.errs, IsQualifiedName(tc.in), tc.in)
	}
}

func TestIsValidLabelValue(t *testing.T) {
	for _, valid := range []string{"", "web", "v1.2.3", "a_b-c", strings.Repeat("x", 63)} {
		assert.Empty(t, IsValidLabelValue(valid), valid)
	}
	assert.Equal(t, []string{"must be no more than 63 characters"}, IsValidLabelValue(strings.Repeat("x", 64)))
	assert.Equal(t, []string{"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
		IsValidLabelValue("web server"))
}

func TestIsDNS1123SubdomainAndLabel(t *testing.T) {
	assert.Empty(t, IsDNS1123Subdomain("nginx-deployment.v1"))
	assert.Len(t, IsDNS1123Subdomain("Nginx"), 1)
	assert.Equal(t, []string{"must be no more than 253 characters"}, IsDNS1123Subdomain(strings.Repeat("a", 254)))

	assert.Empty(t, IsDNS1123Label("kube-system"))
	assert.Equal(t, []string{"must not contain dots"}, IsDNS1123Label("a.b"))
	assert.Equal(t, []string{"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
		IsDNS1123Label("my_ns"))
}
