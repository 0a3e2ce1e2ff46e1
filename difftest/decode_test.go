// decode_test.go compares kubesim's strict decoding of manifests with the
// apiserver's (apimachinery's JSON/YAML serializer in strict mode, the
// decoder behind fieldValidation=Strict, into k8s.io/api's types): which
// manifests load, and the words of the strict decoding errors.
package difftest

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	k8sjson "k8s.io/apimachinery/pkg/runtime/serializer/json"

	"kubesim/api"
)

// strictDecoder returns the apiserver's strict decoder for the kinds
// kubesim serves, sent as YAML or as JSON.
func strictDecoder(yaml bool) runtime.Decoder {
	return k8sjson.NewSerializerWithOptions(k8sjson.DefaultMetaFactory, k8sScheme, k8sScheme,
		k8sjson.SerializerOptions{Yaml: yaml, Strict: true})
}

var yamlDecoder, jsonDecoder = strictDecoder(true), strictDecoder(false)

// decodeK8s decodes one manifest as the apiserver does and returns its
// strict decoding error, if any; other errors are reported as such.
func decodeK8s(manifest string) (strictErr string, err error) {
	decoder := yamlDecoder
	if strings.HasPrefix(strings.TrimSpace(manifest), "{") {
		decoder = jsonDecoder
	}
	_, _, err = decoder.Decode([]byte(manifest), nil, nil)
	if err == nil {
		return "", nil
	}
	if runtime.IsStrictDecodingError(err) {
		return err.Error(), nil
	}
	return "", err
}

// decodeSim decodes one manifest with kubesim and returns its strict
// decoding error, if any, and the warnings about fields kubesim ignores.
func decodeSim(manifest string) (strictErr string, warnings []string, err error) {
	_, warnings, err = api.DecodeWithWarnings([]byte(manifest))
	if err == nil {
		return "", warnings, nil
	}
	var strict *api.StrictDecodingError
	if asStrict(err, &strict) {
		return err.Error(), warnings, nil
	}
	return "", warnings, err
}

func asStrict(err error, target **api.StrictDecodingError) bool {
	s, ok := err.(*api.StrictDecodingError)
	*target = s
	return ok
}

const podHead = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"

// decodeSeeds are manifests whose strict errors must read the same on both
// sides.
var decodeSeeds = []string{
	podHead + "spec:\n  containers:\n  - name: c\n    image: nginx\n",
	podHead + "spec:\n  containers:\n  - name: c\n    image: nginx\n    imagePullPolcy: Always\n",
	podHead + "  name: q\nspec:\n  containers: []\n",
	"apiversion: v1\nkind: Pod\nmetadata:\n  name: p\n",
	"ApiVeRsion: v1\nkind: Pod\nspeC: 0\n", // keys match exactly: speC is unknown, not a badly typed spec
	"apiVersion: v1\napiversion: v1\nkind: Pod\nmetadata:\n  name: p\n",
	podHead + "  labelz: {}\n  labelz: {}\n",
	podHead + "spec:\n  foo: 1\n  foo: 2\n  bar: 3\n",
	`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","name":"q"}}`,
	`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","Name":"q"}}`,
	`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"foo":1,"foo":2}}`,
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replica: 3\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        resource: {}\n",
}

func TestDecodeTable(t *testing.T) {
	for _, m := range decodeSeeds {
		compareDecode(t, m)
	}
	t.Logf("compared %d manifests", len(decodeSeeds))
}

func compareDecode(t *testing.T, manifest string) {
	t.Helper()
	kstrict, kerr := decodeK8s(manifest)
	sstrict, _, serr := decodeSim(manifest)
	if (kerr == nil) != (serr == nil) || kstrict != sstrict {
		t.Errorf("decoding\n%s\n kubernetes: %q %v\n kubesim:    %q %v", strings.TrimSpace(manifest), kstrict, kerr, sstrict, serr)
	}
}

func FuzzDecode(f *testing.F) {
	for _, m := range decodeSeeds {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, manifest string) {
		if len(manifest) > 400 || strings.Contains(manifest, "---") {
			return // one document at a time, as the apiserver receives it
		}
		if objs, err := api.Decode([]byte(manifest)); err == nil && len(objs) == 0 {
			return // a blank document, which kubectl skips before anything reaches the apiserver
		}
		compareDecode(t, manifest)
	})
}
