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

// Deref reads an optional field, falling back to its default when it is unset.
func TestDerefReadsOrDefaults(t *testing.T) {
	assert.Equal(t, int32(1), Deref[int32](nil, 1))
	assert.Equal(t, int32(0), Deref(Ptr[int32](0), 1), "a value set to zero is not the default")
	assert.Equal(t, VolumeBindingImmediate, (&StorageClass{}).BindingMode())
}
