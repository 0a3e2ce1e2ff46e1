// quantity_test.go compares kubesim's api/resource with apimachinery's: the
// same text parsed by both (the error, or the printed form and the value
// in milli-units), then compared, added and subtracted pairwise.
package difftest

import (
	"encoding/json"
	"regexp"
	"testing"

	k8s "k8s.io/apimachinery/pkg/api/resource"

	sim "kubesim/api/resource"
)

// quantitySeeds are the table cases and the fuzz seed corpus: the issue's
// differences, every suffix, and the scanner's odd corners.
var quantitySeeds = []string{
	"0", "1", "+1", "-1", "0001", "1.500", "-1.500", "1.5", "0.5", ".5", "5.", ".", "-.", "+", "-", "",
	"G", "Ki", "e", "e3", "e-10", ".e-10", "1.2.3", "--1", " 1", "1 ", "1x", "1K", "1mm", "1Mi3",
	"1n", "1u", "1m", "1k", "1M", "10G", "1T", "1P", "1E", "100E", "1000E", "9E", "-9E",
	"1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei", "7Ei", "8Ei", "1.5Ei", "1024Mi", "1.0Ki", "0.5Ki", "0.3Ki",
	"1025Ki", "-2Mi", "0.0000000001Gi", "0.0000000001", "1.0000000001", "-0.0000000001",
	"1e3", "1E3", "12e6", "1.5e3", "1e-3", "5e+2", "1e0", "1e21", "1e-9", "1e-10", "1e4294967296",
	"123456789012345678", "1234567890123456789", "12345678901234567890", "9223372036854775807",
	"9223372036854775808", "99999999999999999999999Ki", "250m", "1200", "1500k", "8Gi", "128974848",
	"129e6", "129M", "123Mi", "0.1", "100m", "1.1", "0.000001", "1e18", "1e19", "1e-18",
}

// quantityView is what a learner sees of a parsed quantity.
type quantityView struct {
	err   string
	str   string
	milli int64
}

// milliComparable reports whether both sides' MilliValue of q is meant to
// agree. Two differences are kubesim's on purpose: beyond an int64 kubesim
// saturates where Kubernetes wraps, and Kubernetes rounds a negative value it
// holds in arbitrary precision upwards (MilliValue of "-0.0000000001" is 1,
// of "-1n" is -1), where kubesim rounds every value away from zero.
func milliComparable(q k8s.Quantity) bool {
	return q.Sign() >= 0 && q.Cmp(k8s.MustParse("9e15")) < 0
}

func viewK8s(s string) (quantityView, *k8s.Quantity) {
	q, err := k8s.ParseQuantity(s)
	if err != nil {
		return quantityView{err: err.Error()}, nil
	}
	v := quantityView{str: q.String()}
	if !hugeExponent.MatchString(s) && milliComparable(q) {
		v.milli = q.MilliValue()
	}
	return v, &q
}

func viewSim(s string, k *k8s.Quantity) (quantityView, *sim.Quantity) {
	q, err := sim.ParseQuantity(s)
	if err != nil {
		return quantityView{err: err.Error()}, nil
	}
	v := quantityView{str: q.String()}
	if k != nil && !hugeExponent.MatchString(s) && milliComparable(*k) {
		v.milli = q.MilliValue()
	}
	return v, &q
}

// compareQuantity parses s with both and reports the difference, if any.
func compareQuantity(t *testing.T, s string) {
	t.Helper()
	kv, _ := viewK8s(s)
	_, k := viewK8s(s)
	sv, _ := viewSim(s, k)
	if kv != sv {
		t.Errorf("ParseQuantity(%q): kubernetes %+v, kubesim %+v", s, kv, sv)
	}
}

// compareArithmetic compares Cmp, Add and Sub of a and b, where both parse.
func compareArithmetic(t *testing.T, a, b string) bool {
	t.Helper()
	ka, err1 := k8s.ParseQuantity(a)
	kb, err2 := k8s.ParseQuantity(b)
	sa, err3 := sim.ParseQuantity(a)
	sb, err4 := sim.ParseQuantity(b)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || hugeExponent.MatchString(a+" "+b) {
		return false
	}
	if kc, sc := ka.Cmp(kb), sa.Cmp(sb); kc != sc {
		t.Errorf("%q cmp %q: kubernetes %d, kubesim %d", a, b, kc, sc)
	}
	ksum, ssum := ka.DeepCopy(), sa
	ksum.Add(kb)
	ssum.Add(sb)
	if ksum.String() != ssum.String() {
		t.Errorf("%q + %q: kubernetes %s, kubesim %s", a, b, ksum.String(), ssum.String())
	}
	kdiff, sdiff := ka.DeepCopy(), sa
	kdiff.Sub(kb)
	sdiff.Sub(sb)
	if kdiff.String() != sdiff.String() {
		t.Errorf("%q - %q: kubernetes %s, kubesim %s", a, b, kdiff.String(), sdiff.String())
	}
	return true
}

func TestQuantityTable(t *testing.T) {
	cases := 0
	for _, s := range quantitySeeds {
		compareQuantity(t, s)
		cases++
	}
	for _, a := range quantitySeeds {
		for _, b := range quantitySeeds {
			if compareArithmetic(t, a, b) {
				cases++
			}
		}
	}
	cases += compareConstructors(t)
	t.Logf("compared %d quantity cases", cases)
}

// compareConstructors prints quantities built in code, as controllers and
// the kubelet build them, and returns how many it compared.
func compareConstructors(t *testing.T) int {
	t.Helper()
	n := 0
	formats := []k8s.Format{k8s.DecimalSI, k8s.BinarySI, k8s.DecimalExponent}
	for _, v := range []int64{0, 1, -1, 999, 1000, 1024, 1536, -2048, 1 << 40, 3 << 30, 1e18, 1<<63 - 1} {
		for _, f := range formats {
			k, s := k8s.NewQuantity(v, f), sim.NewQuantity(v, sim.Format(f))
			if k.String() != s.String() {
				t.Errorf("NewQuantity(%d, %s): kubernetes %s, kubesim %s", v, f, k.String(), s.String())
			}
			k, s = k8s.NewMilliQuantity(v, f), sim.NewMilliQuantity(v, sim.Format(f))
			if k.String() != s.String() {
				t.Errorf("NewMilliQuantity(%d, %s): kubernetes %s, kubesim %s", v, f, k.String(), s.String())
			}
			n += 2
		}
	}
	return n
}

func FuzzQuantity(f *testing.F) {
	for i, s := range quantitySeeds {
		f.Add(s, quantitySeeds[(i*7+3)%len(quantitySeeds)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 40 || len(b) > 40 || slowExponent.MatchString(a+" "+b) {
			return
		}
		compareQuantity(t, a)
		compareQuantity(t, b)
		compareArithmetic(t, a, b)
	})
}

// hugeExponent matches text with an exponent of four digits or more. Both
// sides parse and print such a quantity cheaply, but comparing it with a
// small one builds a number of that many digits (apimachinery's Cmp aligns
// the scales), so the harness only parses and prints it.
var hugeExponent = regexp.MustCompile(`[eE][-+]?0*[1-9][0-9]{3}`)

// slowExponent matches text with an exponent of six digits or more, which the
// harness skips: apimachinery takes half a second to parse "8e-2222221" (it
// rounds by building 10^2222212) and longer for longer exponents, where
// kubesim answers in microseconds.
var slowExponent = regexp.MustCompile(`[eE][-+]?0*[1-9][0-9]{5}`)

// compareQuantityJSON decodes raw, a JSON value, as a quantity on both
// sides, as a manifest's resources.requests are read.
func compareQuantityJSON(t *testing.T, raw string) {
	t.Helper()
	var k k8s.Quantity
	var s sim.Quantity
	kerr := json.Unmarshal([]byte(raw), &k)
	serr := json.Unmarshal([]byte(raw), &s)
	if (kerr == nil) != (serr == nil) {
		t.Errorf("json %s: kubernetes err %v, kubesim err %v", raw, kerr, serr)
		return
	}
	if kerr != nil {
		if kerr.Error() != serr.Error() {
			t.Errorf("json %s error:\n kubernetes %v\n kubesim    %v", raw, kerr, serr)
		}
		return
	}
	kout, _ := json.Marshal(k)
	sout, _ := json.Marshal(s)
	if string(kout) != string(sout) {
		t.Errorf("json %s read and written: kubernetes %s, kubesim %s", raw, kout, sout)
	}
}

var quantityJSONSeeds = []string{
	`"1"`, `1`, `0.5`, `1e3`, `-1`, `" 2 "`, `"\u0031"`, `null`, `true`, `"1.500"`, `1.500`, `""`, `" "`,
	`"1Gi"`, `{}`, `[]`, `"1\t"`,
}

func TestQuantityJSONTable(t *testing.T) {
	for _, raw := range quantityJSONSeeds {
		compareQuantityJSON(t, raw)
	}
	t.Logf("compared %d JSON quantities", len(quantityJSONSeeds))
}

func FuzzQuantityJSON(f *testing.F) {
	for _, raw := range quantityJSONSeeds {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 40 || slowExponent.MatchString(raw) || !json.Valid([]byte(raw)) {
			return
		}
		compareQuantityJSON(t, raw)
	})
}
