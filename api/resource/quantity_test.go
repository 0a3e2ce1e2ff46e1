package resource

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The canonical forms below are the ones Kubernetes prints; see "Quantity"
// in https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/.
func TestParseQuantityPrintsCanonicalFormInTheInputsFormatFamily(t *testing.T) {
	for _, tc := range []struct {
		in, canonical string
		milli         int64
	}{
		// DecimalSI
		{"0", "0", 0},
		{"2", "2", 2000},
		{"0.5", "500m", 500},
		{".5", "500m", 500},
		{"5.", "5", 5000},
		{"1.5", "1500m", 1500},
		{"1000m", "1", 1000},
		{"250m", "250m", 250},
		{"1000", "1k", 1000000},
		{"1200", "1200", 1200000},
		{"1500k", "1500k", 1500000000},
		{"1M", "1M", 1e9},
		{"100n", "100n", 1},
		{"1u", "1u", 1},
		{"1E", "1E", math.MaxInt64},
		{"+3", "3", 3000},
		{"-0.5", "-500m", -500},
		{"-0", "0", 0},
		{"000012", "12", 12000},
		// BinarySI
		{"1Ki", "1Ki", 1024000},
		{"1024Ki", "1Mi", 1048576000},
		{"8Gi", "8Gi", 8 << 30 * 1000},
		{"0.5Gi", "512Mi", 512 << 20 * 1000},
		{"1.5Gi", "1536Mi", 1536 << 20 * 1000},
		{"1025Ki", "1025Ki", 1025 * 1024 * 1000},
		{"0.5Ki", "512", 512000},     // below 1024 falls back to DecimalSI
		{"0.3Ki", "307200m", 307200}, // not a whole number: DecimalSI
		{"1.5Ei", "1536Pi", math.MaxInt64},
		{"-2Mi", "-2Mi", -2 << 20 * 1000},
		// DecimalExponent
		{"1e3", "1e3", 1000000},
		{"1E3", "1e3", 1000000},
		{"12e6", "12e6", 12e9},
		{"1.5e3", "1500", 1500000},
		{"1e-3", "1e-3", 1},
		{"5e+2", "500", 500000},
		{"1e0", "1", 1000},
		// Finer than 1n rounds up to 1n.
		{"0.0000000001", "1n", 1},
		{"1.0000000001", "1000000001n", 1001},
		{"-0.0000000001", "-1n", -1},
	} {
		t.Run(tc.in, func(t *testing.T) {
			q, err := ParseQuantity(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.canonical, canonical(q))
			assert.Equal(t, tc.milli, q.MilliValue())

			again, err := ParseQuantity(canonical(q))
			require.NoError(t, err, "canonical form must parse")
			assert.Equal(t, 0, q.Cmp(again), "round trip must keep the value")
			assert.Equal(t, tc.canonical, again.String(), "canonical form is a fixed point, kept as typed")
		})
	}
}

// canonical returns q's canonical form, as String prints it once arithmetic
// has made it forget the text it was parsed from.
func canonical(q Quantity) string {
	q.Add(Quantity{})
	return q.String()
}

// Kubernetes keeps the text of a quantity typed in canonical shape and prints
// it back unchanged: a learner's "1.500" stays "1.500" in "kubectl get -o
// yaml". Text in any other shape is printed canonically.
func TestParseKeepsTextTypedInCanonicalShape(t *testing.T) {
	for _, tc := range []struct{ in, printed string }{
		{"1.500", "1.500"}, // 1500 × 10^-3
		{"-1.500", "-1.500"},
		{"+3", "+3"},
		{"000012", "000012"},
		{"5.", "5."},
		{"1E3", "1E3"},
		{"1e0", "1e0"},
		{"8Gi", "8Gi"},
		{"1025Ki", "1025Ki"},
		{"1.5", "1500m"},       // 15 × 10^-1: the scale is no multiple of 3
		{"0.5", "500m"},        // the digits "05" start with 0
		{"1000m", "1"},         // the digits end in 000
		{"1024Mi", "1Gi"},      // a multiple of 8 before a binary suffix
		{"1.0Ki", "1Ki"},       // a binary fraction takes the exact path
		{"-0", "0"},            // zero
		{"5e+2", "500"},        // scale 2
		{"1.5e3", "1500"},      // scale 2
		{"0.0000000001", "1n"}, // finer than nano: rounded
	} {
		q := MustParse(tc.in)
		assert.Equal(t, tc.printed, q.String(), "%s", tc.in)
		out, err := json.Marshal(q)
		require.NoError(t, err)
		assert.Equal(t, `"`+tc.printed+`"`, string(out), "%s as JSON", tc.in)
	}
	q := MustParse("1.500")
	q.Add(MustParse("0"))
	assert.Equal(t, "1500m", q.String(), "arithmetic forgets the typed text")
}

func TestParseQuantityRejectsBadInputWithKubernetesErrors(t *testing.T) {
	for _, tc := range []struct {
		in  string
		err error
	}{
		{"", ErrFormatWrong},
		{"abc", ErrFormatWrong},
		{" 1", ErrFormatWrong},
		{"1 ", ErrFormatWrong},
		{"1Gib", ErrFormatWrong},
		{"1x", ErrFormatWrong},
		{"--1", ErrSuffix}, // a number "-", then the suffix "-1"
		{"1.2.3", ErrFormatWrong},
		{"e-10", ErrNumeric},
		{"-.e-10", ErrNumeric},
		{"1K", ErrSuffix},
		{"1e", ErrSuffix},
		{"1Mi3", ErrSuffix},
		{"1mm", ErrSuffix},
		{"1e99999999999999999999", ErrSuffix},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := ParseQuantity(tc.in)
			assert.ErrorIs(t, err, tc.err)
		})
	}
	assert.EqualError(t, ErrFormatWrong, `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`)
}

func TestMustParsePanicsNamingTheInput(t *testing.T) {
	assert.PanicsWithError(t, "cannot parse 'lots': "+ErrFormatWrong.Error(), func() { MustParse("lots") })
}

func TestValueRoundsAwayFromZeroAsKubernetesDoes(t *testing.T) {
	for _, tc := range []struct {
		in    string
		value int64
		milli int64
	}{
		{"500m", 1, 500},
		{"1001m", 2, 1001},
		{"1n", 1, 1},
		{"1500u", 1, 2},
		{"-500m", -1, -500},
		{"-1n", -1, -1},
		{"7Ei", 7 << 60, math.MaxInt64},
		{"100E", math.MaxInt64, math.MaxInt64},
		{"-100E", math.MinInt64, math.MinInt64},
		{"8Ei", math.MaxInt64, math.MaxInt64}, // BinarySI is capped at 2^63-1
	} {
		q := MustParse(tc.in)
		assert.Equal(t, tc.value, q.Value(), "Value of %s", tc.in)
		assert.Equal(t, tc.milli, q.MilliValue(), "MilliValue of %s", tc.in)
	}
}

func TestCmpComparesAcrossFormats(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1Gi", "1073741824", 0},
		{"1Gi", "1G", 1},
		{"0.5", "500m", 0},
		{"1e3", "1k", 0},
		{"1", "999m", 1},
		{"1n", "0", 1},
		{"-1n", "0", -1},
		{"-1", "-2", 1},
		{"1E", "1n", 1},
		{"100E", "7Ei", 1},   // 10^20 against 7 × 2^60
		{"-100E", "-1n", -1}, // huge magnitudes on both sides of a scale gap
		{"1e30", "1e29", 1},
		{"1Ki", "1024000m", 0},
	} {
		a, b := MustParse(tc.a), MustParse(tc.b)
		assert.Equal(t, tc.want, a.Cmp(b), "%s cmp %s", tc.a, tc.b)
		assert.Equal(t, -tc.want, b.Cmp(a), "%s cmp %s", tc.b, tc.a)
		assert.Equal(t, tc.want == 0, a.Equal(b))
	}
}

// A sum or a difference keeps the first operand's format and loses no digit; Kubernetes moves to
// arbitrary precision when a result leaves the int64 range at its finest scale (the last four).
func TestAddAndSubKeepTheFormatAndStayExact(t *testing.T) {
	for _, tc := range []struct{ a, b, sum, diff string }{
		{"1Gi", "512Mi", "1536Mi", "512Mi"},
		{"500m", "1", "1500m", "-500m"},
		{"100m", "900m", "1", "-800m"},
		{"1", "1n", "1000000001n", "999999999n"},
		{"1e3", "1e3", "2e3", "0"},
		{"0", "2Gi", "2Gi", "-2Gi"},
		{"1E", "1E", "2E", "0"},
		{"10G", "1n", "10000000000000000001n", "9999999999999999999n"},
		{"9E", "9E", "18E", "0"},
		{"9E", "1n", "9000000000000000000000000001n", "8999999999999999999999999999n"},
		{"-9E", "9E", "0", "-18E"},
	} {
		sum := MustParse(tc.a)
		sum.Add(MustParse(tc.b))
		assert.Equal(t, tc.sum, sum.String(), "%s + %s", tc.a, tc.b)
		diff := MustParse(tc.a)
		diff.Sub(MustParse(tc.b))
		assert.Equal(t, tc.diff, diff.String(), "%s - %s", tc.a, tc.b)
		diff.Add(MustParse(tc.b))
		assert.Equal(t, 0, diff.Cmp(MustParse(tc.a)), "%s - %s + %s", tc.a, tc.b, tc.b)
	}
}

func TestAddIntoZeroValueTakesTheAddendsFormat(t *testing.T) {
	var total Quantity
	for _, s := range []string{"128Mi", "256Mi", "640Mi"} {
		total.Add(MustParse(s))
	}
	assert.Equal(t, "1Gi", total.String())
}

// A binary suffix multiplies first and rounds after: 0.0000000001Gi is
// 0.107374182...., rounded up to 107374183n, not 1n × 2^30.
func TestBinaryFractionsRoundAfterMultiplying(t *testing.T) {
	q := MustParse("0.0000000001Gi")
	assert.Equal(t, "107374183n", q.String())
	assert.Equal(t, -1, q.Cmp(MustParse("1")))
	assert.Equal(t, int64(108), q.MilliValue())
}

func TestNegSignAndIsZero(t *testing.T) {
	q := MustParse("250m")
	assert.Equal(t, 1, q.Sign())
	q.Neg()
	assert.Equal(t, "-250m", q.String())
	assert.Equal(t, -1, q.Sign())
	assert.False(t, q.IsZero())
	assert.True(t, MustParse("0Gi").IsZero())
	assert.Equal(t, 0, Quantity{}.Sign())
	assert.Equal(t, "0", Quantity{}.String())
}

func TestConstructorsBuildCanonicalQuantities(t *testing.T) {
	assert.Equal(t, "250m", NewMilliQuantity(250, DecimalSI).String())
	assert.Equal(t, "2", NewMilliQuantity(2000, DecimalSI).String())
	assert.Equal(t, "1500m", NewMilliQuantity(1500, BinarySI).String())
	assert.Equal(t, "110", NewQuantity(110, DecimalSI).String())
	assert.Equal(t, "4Gi", NewQuantity(4<<30, BinarySI).String())
	assert.Equal(t, "4294967296", NewQuantity(4<<30, DecimalExponent).String())
	assert.Equal(t, "1e3", NewQuantity(1000, DecimalExponent).String())
	assert.Equal(t, "1k", NewQuantity(1000, DecimalSI).String())
	assert.Equal(t, int64(250), NewMilliQuantity(250, DecimalSI).MilliValue())
}

func TestJSONCarriesAQuantityAsAString(t *testing.T) {
	type container struct {
		CPU    Quantity `json:"cpu"`
		Memory Quantity `json:"memory"`
	}
	var c container
	require.NoError(t, json.Unmarshal([]byte(`{"cpu": 0.5, "memory": "1.5Gi"}`), &c))
	assert.Equal(t, int64(500), c.CPU.MilliValue())

	out, err := json.Marshal(c)
	require.NoError(t, err)
	assert.JSONEq(t, `{"cpu":"500m","memory":"1536Mi"}`, string(out))

	require.NoError(t, json.Unmarshal([]byte(`{"cpu": " 2 ", "memory": null}`), &c))
	assert.Equal(t, "2", c.CPU.String())
	assert.True(t, c.Memory.IsZero())

	require.NoError(t, json.Unmarshal([]byte(`{"cpu": 1e3}`), &c))
	assert.Equal(t, "1e3", c.CPU.String())
}

// The apiserver says only what is wrong with the quantity, not which one:
// "quantities must match the regular expression ...".
func TestJSONRejectsABadQuantityWithParseQuantitysError(t *testing.T) {
	var q Quantity
	assert.Equal(t, ErrFormatWrong, json.Unmarshal([]byte(`"two cores"`), &q))
	assert.Equal(t, ErrFormatWrong, json.Unmarshal([]byte(`true`), &q))
	assert.Error(t, json.Unmarshal([]byte(`{}`), &q))
}

// The scheduler sums MilliValue and compares quantities for every node it
// filters; none of that may allocate.
func TestHotPathDoesNotAllocate(t *testing.T) {
	a, b := MustParse("1.5Gi"), MustParse("250m")
	allocs := testing.AllocsPerRun(100, func() {
		q := a
		q.Add(b)
		q.Sub(b)
		_ = q.MilliValue() + q.Value()
		_ = q.Cmp(b)
	})
	assert.Zero(t, allocs)
}

// Whatever the input, parsing returns an error or a quantity whose
// canonical form parses back to the same value; it never panics.
func TestParseNeverPanicsOnArbitraryInput(t *testing.T) {
	alphabet := "0123456789.+-eEinumkKMGTP x"
	seed := uint64(42)
	for range 20000 {
		seed = seed*6364136223846793005 + 1442695040888963407
		n := int(seed>>59) + 1
		b := make([]byte, n)
		for i := range b {
			seed = seed*6364136223846793005 + 1442695040888963407
			b[i] = alphabet[(seed>>33)%uint64(len(alphabet))]
		}
		s := string(b)
		require.NotPanics(t, func() {
			q, err := ParseQuantity(s)
			if err != nil {
				return
			}
			if !hasSuffixForItsPower(q) {
				return
			}
			again, err := ParseQuantity(q.String())
			require.NoError(t, err, "canonical %q of %q", q.String(), s)
			require.Equal(t, 0, q.Cmp(again), "round trip of %q via %q", s, q.String())
			q.Add(again)
			q.Sub(again)
			_ = q.MilliValue()
		}, "input %q", s)
	}
}

// hasSuffixForItsPower reports whether q is below 10^21, beyond which
// Kubernetes prints a DecimalSI quantity without its suffix ("1000E" is
// printed "1"), so that its printed form no longer reads back as q.
func hasSuffixForItsPower(q Quantity) bool {
	limit := MustParse("1000E")
	q.Add(Quantity{})
	if q.Sign() < 0 {
		q.Neg()
	}
	return q.format != DecimalSI || q.Cmp(limit) < 0
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"1.5Gi", "500m", "1e3", "-0.0000000001", "8Ei", "1.2.3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil || !hasSuffixForItsPower(q) {
			return
		}
		again, err := ParseQuantity(q.String())
		if err != nil || q.Cmp(again) != 0 {
			t.Fatalf("%q printed as %q, which parses to %v, %v", s, q.String(), again, err)
		}
	})
}

func BenchmarkMilliValueAndAdd(b *testing.B) {
	x, y := MustParse("1.5"), MustParse("250m")
	for b.Loop() {
		q := x
		q.Add(y)
		_ = q.MilliValue()
	}
}

// RoundUp is Kubernetes' Quantity.RoundUp: away from zero, the text kept when nothing changes.
func TestRoundUpToMilliUnits(t *testing.T) {
	for in, want := range map[string]string{"100u": "1m", "1.0001": "1001m", "-1.0001": "-1001m", "5n": "1m",
		"1000u": "1m", "1.500": "1.500", "2": "2", "0": "0", "1.5Gi": "1536Mi", "10000000000000000001n": "10000000000001m"} {
		q := MustParse(in)
		exact := q.RoundUp(-3)
		assert.Equal(t, want, q.String(), in)
		assert.Equal(t, in == "1000u" || in == "1.500" || in == "2" || in == "0" || in == "1.5Gi", exact, in)
	}
}
