// time_test.go compares kubesim's Time and MicroTime with apimachinery's
// metav1.Time and metav1.MicroTime: which JSON values they read, and what
// they write back (creationTimestamp, a Lease's renewTime).
package difftest

import (
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kubesim/api"
)

// compareTimeJSON reads raw into k and s and compares the outcome.
func compareTimeJSON(t *testing.T, what, raw string, k, s any) {
	t.Helper()
	kerr := json.Unmarshal([]byte(raw), k)
	serr := json.Unmarshal([]byte(raw), s)
	if (kerr == nil) != (serr == nil) {
		t.Errorf("%s from %s: kubernetes err %v, kubesim err %v", what, raw, kerr, serr)
		return
	}
	if kerr != nil {
		return
	}
	kout, _ := json.Marshal(k)
	sout, _ := json.Marshal(s)
	if string(kout) != string(sout) {
		t.Errorf("%s from %s: kubernetes writes %s, kubesim %s", what, raw, kout, sout)
	}
}

var timeSeeds = []string{
	`null`, `""`, `"2025-01-02T03:04:05Z"`, `"2025-01-02T03:04:05+02:00"`, `"2025-01-02T03:04:05.123456Z"`,
	`"2025-01-02T03:04:05.123Z"`, `"2025-01-02T03:04:05.123456789Z"`, `"2025-01-02 03:04:05Z"`, `"2025-01-02"`,
	`1`, `"0001-01-01T00:00:00Z"`, `"2025-01-02T03:04:05.000000Z"`,
}

func compareTimes(t *testing.T, raw string) {
	t.Helper()
	compareTimeJSON(t, "Time", raw, &metav1.Time{}, &api.Time{})
	compareTimeJSON(t, "MicroTime", raw, &metav1.MicroTime{}, &api.MicroTime{})
}

func TestTimeTable(t *testing.T) {
	for _, raw := range timeSeeds {
		compareTimes(t, raw)
	}
	t.Logf("compared %d values as Time and as MicroTime", len(timeSeeds))
}

func FuzzTime(f *testing.F) {
	for _, raw := range timeSeeds {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if json.Valid([]byte(raw)) {
			compareTimes(t, raw)
		}
	})
}
