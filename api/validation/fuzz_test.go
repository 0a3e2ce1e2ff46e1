package validation

// Fuzz target for validation. `go test` runs the seeds in testdata/fuzz.

import (
	"encoding/json"
	"testing"

	"kubesim/api"
)

// FuzzValidate: validation never panics, whatever an object holds. The bytes are read leniently (no
// strict field check, no apiVersion or kind needed) into every kind, so that each validator sees
// shapes a manifest could never reach it with.
func FuzzValidate(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, res := range api.Resources() {
			obj := res.NewObject()
			if json.Unmarshal(data, obj) != nil {
				continue
			}
			ValidateObject(obj)
			old := res.NewObject()
			_ = json.Unmarshal(data, old)
			old.GetObjectMeta().ResourceVersion = "1"
			ValidateObjectUpdate(obj, old)
		}
	})
}
