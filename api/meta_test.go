package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// metav1.Time refuses an empty string (only null is no time), and a MicroTime has exactly six
// fractional digits, as Kubernetes writes and reads them.
func TestTimesReadWhatKubernetesReads(t *testing.T) {
	var tm Time
	assert.Error(t, json.Unmarshal([]byte(`""`), &tm))
	assert.NoError(t, json.Unmarshal([]byte(`null`), &tm))
	assert.NoError(t, json.Unmarshal([]byte(`"2025-01-02T03:04:05+02:00"`), &tm))
	assert.Equal(t, "2025-01-02T01:04:05Z", tm.UTC().Format("2006-01-02T15:04:05Z07:00"))

	var mt MicroTime
	assert.NoError(t, json.Unmarshal([]byte(`"2025-01-02T03:04:05.123456Z"`), &mt))
	assert.Error(t, json.Unmarshal([]byte(`"2025-01-02T03:04:05Z"`), &mt))
	assert.Error(t, json.Unmarshal([]byte(`"2025-01-02T03:04:05.123Z"`), &mt))
}
