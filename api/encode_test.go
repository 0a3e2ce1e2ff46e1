// encode_test.go: the generated encoders (zz_generated.json.go, encode.go) against encoding/json, byte
// for byte: on random values of every registered kind, on strings and raw JSON of every awkward sort
// (and fuzzed ones), and on the errors; and that what they do not cover still goes to json.Marshal.
// `go test -fuzz FuzzEncodeString ./api` (or FuzzEncodeRawJSON) searches for a difference.
package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api/resource"
)

// jsonFiller fills values with random content meant to find where the generated encoders and
// encoding/json part: every shape (shapeFiller), with strings that need escaping, zero and odd times,
// quantities of every format, raw JSON with spaces to compact, extreme numbers.
type jsonFiller struct {
	shapeFiller
	r *rand.Rand
}

func newJSONFiller(seed1, seed2 uint64) jsonFiller {
	f := jsonFiller{r: rand.New(rand.NewPCG(seed1, seed2))}
	f.shapeFiller = shapeFiller{r: f.r, maxDepth: 8, leaf: f.leaf}
	return f
}

// jsonAwkwardStrings are strings encoding/json escapes in every way it has.
var jsonAwkwardStrings = []string{
	"", "a", "web-1", "kube-system", "app.kubernetes.io/name",
	`<script>alert("x")</script>`, "a&b", "tab\there", "new\nline", "cr\r", "\b\f", "\x00\x01\x1f\x7f",
	`back\slash`, `"quoted"`, "line\u2028sep\u2029para", "é ü 日本 🙂", "\xff", "a\xc3", "\xe2\x80", "\xed\xa0\x80",
	"\ufffd", "\u00a0", " ", "'single'", "/slash/",
}

func (f jsonFiller) string() string {
	switch f.r.IntN(4) {
	case 0, 1:
		return jsonAwkwardStrings[f.r.IntN(len(jsonAwkwardStrings))]
	case 2: // random bytes, valid UTF-8 or not
		b := make([]byte, f.r.IntN(12))
		for i := range b {
			b[i] = byte(f.r.UintN(256))
		}
		return string(b)
	default: // random runes, among them the ones encoding/json treats specially
		var sb strings.Builder
		for range f.r.IntN(8) {
			switch f.r.IntN(5) {
			case 0:
				sb.WriteRune(rune(f.r.IntN(0x80)))
			case 1:
				sb.WriteRune([]rune{'<', '>', '&', '"', '\\', '\u2028', '\u2029', utf8.RuneError}[f.r.IntN(8)])
			default:
				sb.WriteRune(rune(f.r.IntN(0x30000)))
			}
		}
		return sb.String()
	}
}

var jsonQuantities = []string{
	"0", "1", "-1", "100m", "0.5", "1.500", "1500m", "250m", "128Mi", "1Gi", "0.5Ki", "1536Mi", "1e3", "12e6",
	"1.5e3", "10G", "1n", "1u", "1k", "1000E", "100000000000000000000", "9223372036854775807", "-2Ki", "0.001",
}

func (f jsonFiller) quantity() resource.Quantity {
	switch f.r.IntN(4) {
	case 0:
		return resource.NewMilliQuantity(f.r.Int64N(1e7)-1e6, []resource.Format{resource.DecimalSI, resource.BinarySI, resource.DecimalExponent}[f.r.IntN(3)])
	case 1:
		q := resource.MustParse(jsonQuantities[f.r.IntN(len(jsonQuantities))])
		q.Add(resource.MustParse(jsonQuantities[f.r.IntN(len(jsonQuantities))]))
		return q
	case 2:
		return resource.Quantity{}
	}
	return resource.MustParse(jsonQuantities[f.r.IntN(len(jsonQuantities))])
}

func (f jsonFiller) time() time.Time {
	switch f.r.IntN(6) {
	case 0:
		return time.Time{}
	case 1: // past what RFC 3339 can say
		return time.Date([]int{-1, 0, 10000, 99999}[f.r.IntN(4)], 5, 1, 2, 3, 4, 5, time.UTC)
	case 2:
		return time.Date(2026, 1, 1, 0, 0, 0, f.r.IntN(1e9), time.FixedZone("X", 3600*(f.r.IntN(25)-12)))
	}
	return time.Unix(f.r.Int64N(4e9), f.r.Int64N(1e9))
}

// rawJSON is valid JSON with what encoding/json's compaction removes or escapes: spaces between
// tokens, <, >, & and U+2028 inside strings, escapes to leave alone.
func (f jsonFiller) rawJSON() json.RawMessage {
	var b bytes.Buffer
	var value func(depth int)
	space := func() {
		for range f.r.IntN(2) {
			b.WriteString([]string{" ", "\t", "\n", "\r\n"}[f.r.IntN(4)])
		}
	}
	value = func(depth int) {
		space()
		switch n := f.r.IntN(7); {
		case n == 0 && depth < 3:
			b.WriteByte('{')
			for i := range f.r.IntN(3) {
				if i > 0 {
					b.WriteByte(',')
				}
				space()
				b.WriteString([]string{`"f:metadata"`, `"k:{\"name\":\"a<b>\"}"`, `"."`, "\"a\u2028b\""}[f.r.IntN(4)])
				space()
				b.WriteByte(':')
				value(depth + 1)
			}
			space()
			b.WriteByte('}')
		case n == 1 && depth < 3:
			b.WriteByte('[')
			for i := range f.r.IntN(3) {
				if i > 0 {
					b.WriteByte(',')
				}
				value(depth + 1)
			}
			space()
			b.WriteByte(']')
		case n == 2:
			b.WriteString([]string{"true", "false", "null", "0", "-1.5e+3", "12"}[f.r.IntN(6)])
		case n == 3: // a string as written by hand: raw <, >, &, U+2028, escapes of its own
			b.WriteString([]string{`"<a & b>"`, "\"x\u2028y\u2029z\"", `"\u003c\"\\"`, `"\/"`, `"é"`}[f.r.IntN(5)])
		default:
			s, _ := json.Marshal(f.string())
			b.Write(s)
		}
		space()
	}
	value(0)
	return b.Bytes()
}

var (
	jsonTimeType      = reflect.TypeFor[Time]()
	jsonMicroTimeType = reflect.TypeFor[MicroTime]()
	jsonIntOrStrType  = reflect.TypeFor[IntOrString]()
)

// leaf sets v if it is a leaf: a quantity, a time, an IntOrString, raw JSON, a string, a bool, a
// number or an interface.
func (f jsonFiller) leaf(v reflect.Value) bool {
	t := v.Type()
	switch t {
	case jsonQuantityType:
		v.Set(reflect.ValueOf(f.quantity()))
		return true
	case jsonTimeType:
		v.Set(reflect.ValueOf(Time{f.time()}))
		return true
	case jsonMicroTimeType:
		v.Set(reflect.ValueOf(MicroTime{f.time()}))
		return true
	case jsonIntOrStrType:
		switch f.r.IntN(4) {
		case 0:
			v.Set(reflect.ValueOf(FromString(f.string())))
		case 1: // neither IntType nor StringType: MarshalJSON writes the number
			v.Set(reflect.ValueOf(IntOrString{Type: 7, IntVal: 3, StrVal: "x"}))
		default:
			v.Set(reflect.ValueOf(FromInt32(f.r.Int32() - math.MaxInt32/2)))
		}
		return true
	case jsonRawType:
		if f.r.IntN(4) == 0 {
			v.SetZero()
		} else {
			v.Set(reflect.ValueOf(f.rawJSON()))
		}
		return true
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString(f.string())
	case reflect.Bool:
		v.SetBool(f.r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch f.r.IntN(3) {
		case 0:
			v.SetInt(0)
		case 1:
			v.SetInt(int64(f.r.IntN(100)) - 50)
		default:
			bits := t.Bits()
			v.SetInt([]int64{-1 << (bits - 1), 1<<(bits-1) - 1}[f.r.IntN(2)])
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(f.r.IntN(300)))
	// No kind has these today; a kind that gets one is checked with them too.
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, math.Copysign(0, -1), 1.5, 1e21, 1e-7, -3, math.MaxFloat32, math.NaN()}[f.r.IntN(8)])
	case reflect.Interface:
		if val := []any{nil, f.string(), 1.5, map[string]any{f.string(): []any{true}}}[f.r.IntN(4)]; val != nil &&
			reflect.TypeOf(val).Implements(t) {
			v.Set(reflect.ValueOf(val))
		}
	default:
		return false
	}
	return true
}

// requireSameJSON checks that the generated encoder writes what json.Marshal writes for obj, and
// fails as it fails.
func requireSameJSON(t *testing.T, obj Object, name string) {
	t.Helper()
	want, wantErr := json.Marshal(obj)
	got, ok, gotErr := appendObjectJSON(nil, obj)
	require.True(t, ok, "%s: no generated encoder", name)
	if wantErr != nil || gotErr != nil {
		require.Error(t, gotErr, "%s: encoding/json fails (%v) where the generated encoder does not", name, wantErr)
		require.Error(t, wantErr, "%s: the generated encoder fails (%v) where encoding/json does not", name, gotErr)
		require.Equal(t, wantErr.Error(), gotErr.Error(), name)
		return
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		from := max(0, i-80)
		t.Fatalf("%s: the generated encoder differs from encoding/json at byte %d:\ngenerated:     %q\nencoding/json: %q",
			name, i, got[from:min(len(got), i+80)], want[from:min(len(want), i+80)])
	}
	viaEncode, err := Encode(obj)
	require.NoError(t, err, name)
	require.Equal(t, string(want), string(viaEncode), "%s: Encode", name)
}

func TestEncodeIsGeneratedForEveryKind(t *testing.T) {
	require.NotNil(t, appendObjectJSON, "zz_generated.json.go is missing: run go generate ./api")
	for _, r := range Resources() {
		_, ok, err := appendObjectJSON(nil, r.NewObject())
		assert.True(t, ok, "%s has no generated encoder: run go generate ./api", r.Kind)
		assert.NoError(t, err, r.Kind)
	}
}

func TestEncodeMatchesEncodingJSONForEveryKind(t *testing.T) {
	f := newJSONFiller(1, 2)
	tries := 300
	if testing.Short() {
		tries = 30
	}
	for _, r := range Resources() {
		requireSameJSON(t, r.NewObject(), r.Kind+" empty")
		requireSameJSON(t, r.New(), r.Kind+" without TypeMeta")
		for i := range tries {
			obj := r.NewObject()
			f.fill(reflect.ValueOf(obj).Elem(), 0)
			requireSameJSON(t, obj, fmt.Sprintf("%s #%d", r.Kind, i))
		}
	}
}

func TestEncodeNilAndUncovered(t *testing.T) {
	for _, obj := range []Object{nil, (*Pod)(nil), &unregisteredObject{F: 1.5, V: "<"}, (*unregisteredObject)(nil)} {
		want, err := json.Marshal(obj)
		require.NoError(t, err)
		got, err := Encode(obj)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%T", obj)
	}
	_, ok, _ := appendObjectJSON(nil, &unregisteredObject{})
	assert.False(t, ok, "a type that is no registered kind has no generated encoder")
}

// unregisteredObject is an Object of no registered kind: Encode leaves it to json.Marshal.
type unregisteredObject struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	F          float64 `json:"f"`
	V          any     `json:"v"`
}

// A json.RawMessage that is not JSON makes encoding/json fail, with a *json.MarshalerError; the
// generated encoder fails the same way, and Encode returns the error.
func TestEncodeFailsWhereEncodingJSONFails(t *testing.T) {
	for _, raw := range []string{"{", `{"a":}`, "nul", `{"a":1} x`, "\"\x01\"", `"\x"`} {
		pod := &Pod{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: ObjectMeta{Name: "p",
			ManagedFields: []ManagedFieldsEntry{{Manager: "m", FieldsV1: json.RawMessage(raw)}}}}
		_, wantErr := json.Marshal(pod)
		require.Error(t, wantErr, "%q", raw)
		_, ok, err := appendObjectJSON(nil, pod)
		require.True(t, ok)
		require.Error(t, err, "%q", raw)
		assert.Equal(t, wantErr.Error(), err.Error(), "%q", raw)
		var me *json.MarshalerError
		assert.ErrorAs(t, err, &me, "%q", raw)
		_, err = Encode(pod)
		require.Error(t, err, "%q", raw)
		assert.Equal(t, wantErr.Error(), err.Error(), "%q", raw)
	}
}

func TestAppendJSONString(t *testing.T) {
	f := newJSONFiller(3, 4)
	strs := append([]string(nil), jsonAwkwardStrings...)
	for c := range 256 {
		strs = append(strs, string([]byte{byte(c)}), "a"+string(rune(c))+"b")
	}
	for range 20000 {
		strs = append(strs, f.string())
	}
	for _, s := range strs {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendJSONString(nil, s)), "%q", s)
		quoted, err := json.Marshal(struct {
			S string `json:"s,string"`
		}{s})
		require.NoError(t, err)
		require.Equal(t, string(quoted), `{"s":`+string(appendJSONQuotedString(nil, s))+`}`, "%q", s)
	}
}

// The helpers for what the kinds do not hold today (a MarshalJSON with a pointer receiver, floats,
// interfaces, encoding.TextMarshaler, omitzero's tests) write what encoding/json writes.
func TestEncodeHelpersForOtherTypes(t *testing.T) {
	field := func(v any) string { // encoding/json's encoding of v as a field (at an address)
		out, err := json.Marshal(v)
		require.NoError(t, err)
		return string(out[len(`{"V":`) : len(out)-1])
	}
	f := 1.5e-7
	got, err := appendJSONField(nil, &f)
	require.NoError(t, err)
	assert.Equal(t, field(&struct{ V float64 }{f}), string(got))

	var iface any = map[string]any{"a": []int{1}, "<": nil}
	got, err = appendJSONField(nil, &iface)
	require.NoError(t, err)
	assert.Equal(t, field(&struct{ V any }{iface}), string(got))

	// A MarshalJSON with a pointer receiver counts at an address only.
	pm := ptrMarshaler{N: 2}
	got, err = appendJSONField(nil, &pm)
	require.NoError(t, err)
	assert.Equal(t, `"ptr \u003c2\u003e"`, field(&struct{ V ptrMarshaler }{pm})) // compacted and escaped
	assert.Equal(t, field(&struct{ V ptrMarshaler }{pm}), string(got))
	got, err = appendJSONElement(nil, pm)
	require.NoError(t, err)
	assert.Equal(t, `{"N":2}`, string(got))
	got, err = appendJSONMarshaler(nil, &pm, true)
	require.NoError(t, err)
	assert.Equal(t, `"ptr \u003c2\u003e"`, string(got))

	// An error names the value's type, as encoding/json's does.
	bad := ptrMarshaler{N: -1}
	_, wantErr := json.Marshal(&struct{ V ptrMarshaler }{bad})
	_, err = appendJSONMarshaler(nil, &bad, true)
	require.Error(t, wantErr)
	require.Error(t, err)
	assert.Equal(t, wantErr.Error(), err.Error())
	_, err = appendJSONField(nil, &bad)
	assert.Equal(t, wantErr.Error(), err.Error())

	// An empty json.RawMessage that is not nil is no JSON (the kinds' raw fields omit it when empty).
	_, wantErr = json.Marshal(&struct{ V json.RawMessage }{json.RawMessage{}})
	_, err = appendJSONRaw(nil, json.RawMessage{}, false)
	require.Error(t, wantErr)
	require.Error(t, err)
	assert.Equal(t, wantErr.Error(), err.Error())
	got, err = appendJSONRaw(nil, nil, false)
	require.NoError(t, err)
	assert.Equal(t, "null", string(got))

	nan := math.NaN()
	_, wantErr = json.Marshal(nan)
	_, err = appendJSONField(nil, &nan)
	require.Error(t, err)
	assert.Equal(t, wantErr.Error(), err.Error())

	assert.True(t, isZeroJSON(&struct{ A, B int }{}))
	assert.True(t, isZeroJSON(&struct{ F float64 }{math.Copysign(0, -1)}), "-0 is reflect's zero")
	assert.False(t, isZeroJSON(&struct{ F float64 }{math.NaN()}))
	assert.True(t, isNilPointerJSON((*Pod)(nil)))
	assert.False(t, isNilPointerJSON(Pod{}))
}

// ptrMarshaler has MarshalJSON with a pointer receiver; it returns JSON with a space and <> to
// compact and escape, or, for a negative N, something that is not JSON.
type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) {
	if p.N < 0 {
		return []byte("{oops"), nil
	}
	return []byte(fmt.Sprintf(` "ptr <%d>" `, p.N)), nil
}

// Quantities of every format, reached through a pointer, are written as encoding/json writes them.
// (The slow path, for a String with something to escape, is unreachable: no quantity has one.)
func TestEncodeQuantity(t *testing.T) {
	for _, s := range jsonQuantities {
		q := resource.MustParse(s)
		want, err := json.Marshal(&q)
		require.NoError(t, err)
		got, err := appendJSONQuantity(nil, &q, true)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), s)
	}
}

func FuzzEncodeString(f *testing.F) {
	for _, s := range jsonAwkwardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendJSONString(nil, s)))
		pod := &Pod{ObjectMeta: ObjectMeta{Name: s, Labels: map[string]string{s: s, "a": s}, Finalizers: []string{s}},
			Spec: PodSpec{Containers: []Container{{Name: s, Command: []string{s, s}}}}}
		requireSameJSON(t, pod, "pod")
	})
}

func FuzzEncodeRawJSON(f *testing.F) {
	for _, s := range []string{"{}", `{"f:spec":{"f:replicas":{}}}`, " [1, \"<\u2028>\" ] ", "{", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		pod := &Pod{ObjectMeta: ObjectMeta{ManagedFields: []ManagedFieldsEntry{{FieldsV1: raw}}}}
		requireSameJSON(t, pod, "pod")
	})
}

// BenchmarkEncodePod encodes a pod as the apiserver stores it, a ReplicaSet's pod after admission,
// with the generated encoder (Encode) and with encoding/json.
func BenchmarkEncodePod(b *testing.B) {
	pod := storedPod()
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Encode(pod); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(pod); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// storedPod is a ReplicaSet's pod as etcd holds it after the apiserver's defaulting and admission:
// labels, an owner reference, one container with requests and limits, the kube-api-access volume and
// its mount, the two default tolerations, a pending status.
func storedPod() *Pod {
	created := NewTime(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	return &Pod{
		TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: ObjectMeta{
			Name: "web-7d4b9c8f5d-x2k9q", GenerateName: "web-7d4b9c8f5d-", Namespace: "default",
			UID:               "3f1c2a9e-8b7d-4e2f-9a61-0c5d7b8e4f21",
			CreationTimestamp: created,
			Labels:            map[string]string{"app": "web", "pod-template-hash": "7d4b9c8f5d"},
			OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c8f5d",
				UID: "b2e8a4c1-5f3d-4a7b-8c9e-1d2f3a4b5c6d", Controller: Ptr(true), BlockOwnerDeletion: Ptr(true)}},
		},
		Spec: PodSpec{
			Containers: []Container{{
				Name: "web", Image: "nginx:1.25",
				Ports: []ContainerPort{{ContainerPort: 80, Protocol: ProtocolTCP}},
				Resources: ResourceRequirements{
					Limits:   resource.ResourceList{resource.ResourceCPU: resource.MustParse("500m"), resource.ResourceMemory: resource.MustParse("128Mi")},
					Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m"), resource.ResourceMemory: resource.MustParse("64Mi")},
				},
				ImagePullPolicy: PullIfNotPresent,
				VolumeMounts: []VolumeMount{{Name: "kube-api-access-5x7tq", ReadOnly: true,
					MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}},
			}},
			RestartPolicy:                 RestartPolicyAlways,
			TerminationGracePeriodSeconds: Ptr[int64](30),
			DNSPolicy:                     DNSClusterFirst,
			ServiceAccountName:            "default",
			SchedulerName:                 "default-scheduler",
			EnableServiceLinks:            Ptr(true),
			Priority:                      Ptr[int32](0),
			PreemptionPolicy:              Ptr(PreemptLowerPriority),
			Tolerations: []Toleration{
				{Key: TaintNodeNotReady, Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: Ptr[int64](300)},
				{Key: TaintNodeUnreachable, Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: Ptr[int64](300)},
			},
			Volumes: []Volume{{Name: "kube-api-access-5x7tq", VolumeSource: VolumeSource{Projected: &ProjectedVolumeSource{
				DefaultMode: Ptr[int32](0o644),
				Sources: []VolumeProjection{
					{ServiceAccountToken: &ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: Ptr[int64](3607)}},
					{ConfigMap: &ConfigMapProjection{LocalObjectReference: LocalObjectReference{Name: RootCAConfigMap},
						Items: []KeyToPath{{Key: RootCAKey, Path: "ca.crt"}}}},
					{DownwardAPI: &DownwardAPIProjection{Items: []DownwardAPIVolumeFile{{Path: "namespace",
						FieldRef: &ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
				},
			}}}},
		},
		Status: PodStatus{Phase: PodPending, QOSClass: PodQOSBurstable},
	}
}

func TestEncodeStoredPod(t *testing.T) {
	requireSameJSON(t, storedPod(), "stored pod")
}
