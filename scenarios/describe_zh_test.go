// describe_zh_test.go: every scenario tells what it shows and teaches in Chinese too, for `kubesim
// list --lang zh` and `kubesim describe --lang zh`.
package scenarios_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/scenarios"
)

func TestEveryScenarioHasChineseSummaryAndTeaches(t *testing.T) {
	for _, sc := range scenarios.All() {
		for field, text := range map[string]string{"SummaryZH": sc.SummaryZH, "TeachesZH": sc.TeachesZH} {
			assert.True(t, hasChinese(text), "%s: %s is empty or has no Chinese: %q", sc.Name, field, text)
		}
	}
}
