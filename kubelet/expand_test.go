package kubelet

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// expandEnv follows Kubernetes' expansion (third_party/forked/golang/expansion): a known $(NAME) is
// replaced, an unknown one kept as written, $$ escapes a $, and an unclosed or bare $ stays.
func TestExpandEnv(t *testing.T) {
	vars := map[string]string{"A": "1", "EMPTY": ""}
	for in, want := range map[string]string{
		"$(A)":            "1",
		"x$(A)y$(A)":      "x1y1",
		"$(B)":            "$(B)",
		"$$(A)":           "$(A)",
		"$$$(A)":          "$1",
		"$(EMPTY)-":       "-",
		"$(A":             "$(A",
		"$A $":            "$A $",
		"100$":            "100$",
		"$()":             "$()",
		"$(A)$(A)$$":      "11$",
		"no references":   "no references",
		"nested $(A$(A))": "nested $(A$(A))",
	} {
		assert.Equal(t, want, expandEnv(in, vars), "expand %q", in)
	}
}
