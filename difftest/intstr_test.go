// intstr_test.go compares kubesim's IntOrString with apimachinery's
// util/intstr: reading it from JSON (maxSurge: 25% or 1), printing it, and
// scaling a percentage against a total as the Deployment controller does.
package difftest

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"

	"kubesim/api"
)

func compareIntOrString(t *testing.T, raw string, total int) int {
	t.Helper()
	var k intstr.IntOrString
	var s api.IntOrString
	kerr := json.Unmarshal([]byte(raw), &k)
	serr := json.Unmarshal([]byte(raw), &s)
	if (kerr == nil) != (serr == nil) {
		t.Errorf("json %s: kubernetes err %v, kubesim err %v", raw, kerr, serr)
		return 1
	}
	if kerr != nil {
		return 1
	}
	kout, _ := json.Marshal(k)
	sout, _ := json.Marshal(s)
	if string(kout) != string(sout) || k.String() != s.String() {
		t.Errorf("json %s: kubernetes %s %q, kubesim %s %q", raw, kout, k.String(), sout, s.String())
	}
	n := 1
	for _, roundUp := range []bool{false, true} {
		kv, kerr := intstr.GetScaledValueFromIntOrPercent(&k, total, roundUp)
		sv, serr := s.ScaledValue(total, roundUp)
		if kv != sv || (kerr == nil) != (serr == nil) || kerr != nil && kerr.Error() != serr.Error() {
			t.Errorf("scaled %s of %d (round up %v): kubernetes %d %v, kubesim %d %v", raw, total, roundUp, kv, kerr, sv, serr)
		}
		n++
	}
	return n
}

var intOrStringSeeds = []string{
	`1`, `0`, `-1`, `"1"`, `"25%"`, `"0%"`, `"100%"`, `"150%"`, `"-10%"`, `"%"`, `"a%"`, `"25"`, `""`, `"x"`,
	`1.5`, `null`, `true`, `2147483647`, `2147483648`, `"1.5%"`, `" 5%"`, `"5 %"`, `"05%"`,
}

func TestIntOrStringTable(t *testing.T) {
	cases := 0
	for _, raw := range intOrStringSeeds {
		for _, total := range []int{0, 1, 3, 10, 99} {
			cases += compareIntOrString(t, raw, total)
		}
	}
	t.Logf("compared %d IntOrString cases", cases)
}

func FuzzIntOrString(f *testing.F) {
	for i, raw := range intOrStringSeeds {
		f.Add(raw, i)
	}
	f.Fuzz(func(t *testing.T, raw string, total int) {
		if !json.Valid([]byte(raw)) || len(raw) > 30 {
			return
		}
		compareIntOrString(t, raw, total%1000)
	})
}
