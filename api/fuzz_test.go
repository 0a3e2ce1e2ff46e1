package api_test

// Fuzz target for manifest decoding, beyond FuzzDecode (decode_test.go). `go test` runs the seeds in
// testdata/fuzz; `go test -fuzz FuzzStrictLenientRoundTrip ./api` searches for more.

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"kubesim/api"
)

// FuzzStrictLenientRoundTrip: whatever Decode accepts, a lenient decoder (sigs.k8s.io/yaml into the same type, no
// strict field check) reads the same way; and encoding a decoded object, then decoding and encoding
// it again, changes nothing (the encoding is a fixed point), in JSON and in YAML.
func FuzzStrictLenientRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := api.Decode(data)
		if err != nil {
			return
		}
		// An invalid UTF-8 byte in a JSON manifest becomes U+FFFD (encoding/json's rule, which
		// Kubernetes' JSON decoding shares), where the YAML parser refuses it: the two paths agree
		// only on text.
		if len(objs) == 1 && !bytes.Contains(data, []byte("---")) && utf8.Valid(data) {
			tm := objs[0].GetTypeMeta()
			res, ok := api.ResourceForKind(tm.APIVersion, tm.Kind)
			if !ok {
				t.Fatalf("Decode returned a %s %s the scheme does not know", tm.APIVersion, tm.Kind)
			}
			lenient := res.NewObject()
			if err := yaml.Unmarshal(data, lenient); err != nil {
				t.Fatalf("strict decoding accepted what lenient decoding refuses: %v", err)
			}
			if a, b := mustEncode(t, objs[0]), mustEncode(t, lenient); !bytes.Equal(a, b) {
				t.Fatalf("strict and lenient decoding disagree:\nstrict:  %s\nlenient: %s", a, b)
			}
		}
		for _, obj := range objs {
			once := mustEncode(t, obj)
			again, err := api.Decode(once)
			if err != nil || len(again) != 1 {
				t.Fatalf("Decode refuses Encode's own output %s: %v", once, err)
			}
			if twice := mustEncode(t, again[0]); !bytes.Equal(once, twice) {
				t.Fatalf("JSON round trip changed the object:\nonce:  %s\ntwice: %s", once, twice)
			}
			y, err := api.EncodeYAML(obj)
			if err != nil {
				t.Fatalf("EncodeYAML: %v", err)
			}
			fromYAML, err := api.Decode(y)
			if err != nil || len(fromYAML) != 1 {
				t.Fatalf("Decode refuses EncodeYAML's own output:\n%s\n%v", y, err)
			}
			if viaYAML := mustEncode(t, fromYAML[0]); !bytes.Equal(once, viaYAML) {
				t.Fatalf("YAML round trip changed the object:\nbefore: %s\nafter:  %s", once, viaYAML)
			}
		}
	})
}

func mustEncode(t *testing.T, obj api.Object) []byte {
	t.Helper()
	b, err := api.Encode(obj)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return b
}
