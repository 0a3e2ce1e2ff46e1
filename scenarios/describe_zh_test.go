// describe_zh_test.go: every scenario tells what it shows and teaches in Chinese too, for `kubesim
// list --lang zh` and `kubesim describe --lang zh`.
package scenarios

import (
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

func TestEveryScenarioHasChineseSummaryAndTeaches(t *testing.T) {
	for _, sc := range All() {
		for field, text := range map[string]string{"SummaryZH": sc.SummaryZH, "TeachesZH": sc.TeachesZH} {
			assert.True(t, hasHan(text), "%s: %s is empty or has no Chinese: %q", sc.Name, field, text)
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}
