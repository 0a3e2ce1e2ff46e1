// quantity.go is the Quantity value type: an exact decimal number with the
// format family it was written in. Interface: NewQuantity, NewMilliQuantity,
// MilliValue, Value, Cmp, Equal, Add, Sub, Neg, IsZero, Sign.
//
// Parsing lives in parse.go and the canonical string and JSON forms in
// canonical.go.
package resource

import "math"

// Format is the family a quantity is written in. Kubernetes keeps it so that a
// value read as "8Gi" is written back as "8Gi" and not as "8589934592".
type Format string

const (
	// DecimalExponent is written as a mantissa and a power of ten: "12e6".
	DecimalExponent Format = "DecimalExponent"
	// BinarySI uses the power-of-two suffixes: "Ki", "Mi", "Gi", ...
	BinarySI Format = "BinarySI"
	// DecimalSI uses the power-of-ten suffixes: "m", "k", "M", "G", ...
	DecimalSI Format = "DecimalSI"
)

// Quantity is a fixed-point number: value × 10^scale, written in format.
//
// Kubernetes stores an int64 with a base-10 scale and falls back to an
// arbitrary-precision decimal when that overflows. kubesim keeps only the
// int64 form, which is exact for every quantity a cluster uses (up to 18
// significant digits at any scale, so "7Ei", "100E" and "1n" are all exact),
// and keeps MilliValue, Cmp and Add free of allocation for the scheduler.
//
// Invariant: scale >= -9. Kubernetes rounds anything finer than a nano-unit
// up to 1n when parsing, and so does kubesim.
//
// The zero Quantity is 0.
type Quantity struct {
	value  int64
	scale  int32
	format Format
}

// nanoScale is the finest scale a Quantity holds.
const nanoScale = -9

// NewQuantity returns value (in whole units, e.g. bytes or pods) in format.
func NewQuantity(value int64, format Format) Quantity {
	return Quantity{value: value, format: format}
}

// NewMilliQuantity returns value/1000 in format, as the scheduler builds a
// CPU request of 250 millicores.
func NewMilliQuantity(milli int64, format Format) Quantity {
	return Quantity{value: milli, scale: -3, format: format}
}

// MilliValue returns ceil(q × 1000), the unit the scheduler sums CPU in.
// Values finer than a milli-unit round away from zero as in Kubernetes ("1n"
// is 1m); values too large for an int64 saturate.
func (q Quantity) MilliValue() int64 { return q.scaledValue(-3) }

// Value returns ceil(q), rounding away from zero as Kubernetes does ("500m"
// is 1); values too large for an int64 saturate.
func (q Quantity) Value() int64 { return q.scaledValue(0) }

// scaledValue returns q in units of 10^scale, rounded away from zero.
func (q Quantity) scaledValue(scale int32) int64 {
	diff := int64(q.scale) - int64(scale)
	if diff >= 0 {
		if v, ok := scaleUp(q.value, diff); ok {
			return v
		}
		if q.value < 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return scaleDown(q.value, -diff)
}

// IsZero reports whether q is zero, whatever its format.
func (q Quantity) IsZero() bool { return q.value == 0 }

// Sign returns -1, 0 or 1.
func (q Quantity) Sign() int {
	switch {
	case q.value < 0:
		return -1
	case q.value > 0:
		return 1
	}
	return 0
}

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y. The
// formats do not matter: "1Gi" equals "1073741824" and "0.5" equals "500m".
func (q Quantity) Cmp(y Quantity) int {
	qs, ys := q.Sign(), y.Sign()
	if qs != ys || qs == 0 {
		return cmpInt(int64(qs), int64(ys))
	}
	switch {
	case q.scale == y.scale:
		return cmpInt(q.value, y.value)
	case q.scale > y.scale:
		v, ok := scaleUp(q.value, int64(q.scale)-int64(y.scale))
		if !ok {
			// |q| is beyond int64 at y's scale, so it is the larger magnitude.
			return qs
		}
		return cmpInt(v, y.value)
	default:
		v, ok := scaleUp(y.value, int64(y.scale)-int64(q.scale))
		if !ok {
			return -qs
		}
		return cmpInt(q.value, v)
	}
}

// Equal reports whether q and y are the same number (Cmp == 0).
func (q Quantity) Equal(y Quantity) bool { return q.Cmp(y) == 0 }

// Add sets q to q + y. As in Kubernetes, a zero q takes y's format, so
// summing "1Gi" requests into an empty Quantity prints in Gi.
func (q *Quantity) Add(y Quantity) {
	if q.value == 0 {
		q.format = y.format
	}
	q.add(y.value, y.scale)
}

// Sub sets q to q - y. A zero q takes y's format, as with Add.
func (q *Quantity) Sub(y Quantity) {
	if q.value == 0 {
		q.format = y.format
	}
	if y.value == math.MinInt64 {
		// -MinInt64 does not exist; lose the last digit instead.
		q.add(-scaleDown(y.value, 1), y.scale+1)
		return
	}
	q.add(-y.value, y.scale)
}

// Neg sets q to -q.
func (q *Quantity) Neg() {
	if q.value == math.MinInt64 {
		q.value, q.scale = scaleDown(q.value, 1), q.scale+1
	}
	q.value = -q.value
}

// add sets q to q + value × 10^scale. It is exact whenever the result fits in
// an int64 at the finer of the two scales. Otherwise (sums near 10^19 units of
// the finer scale) it gives up the last digits, rounding away from zero, where
// Kubernetes would switch to arbitrary precision.
func (q *Quantity) add(value int64, scale int32) {
	if value == 0 {
		return
	}
	if q.value == 0 {
		q.value, q.scale = value, scale
		return
	}
	lo, hi := min(q.scale, scale), max(q.scale, scale)
	a, aok := scaleUp(q.value, int64(q.scale)-int64(lo))
	b, bok := scaleUp(value, int64(scale)-int64(lo))
	if aok && bok {
		if sum, ok := addInt(a, b); ok {
			q.value, q.scale = sum, lo
			return
		}
	}
	for s := hi; ; s++ {
		a := scaleDown(q.value, int64(s)-int64(q.scale))
		b := scaleDown(value, int64(s)-int64(scale))
		if sum, ok := addInt(a, b); ok {
			q.value, q.scale = sum, s
			return
		}
	}
}

// pow10 holds 10^0 .. 10^18, every power of ten an int64 holds.
var pow10 = [...]int64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
}

// scaleUp returns v × 10^n (n >= 0) and whether it fits in an int64.
func scaleUp(v int64, n int64) (int64, bool) {
	if v == 0 || n == 0 {
		return v, true
	}
	if n >= int64(len(pow10)) {
		return 0, false
	}
	p := pow10[n]
	r := v * p
	if r/p != v {
		return 0, false
	}
	return r, true
}

// scaleDown returns v / 10^n (n >= 0), rounded away from zero when inexact.
func scaleDown(v int64, n int64) int64 {
	if v == 0 || n == 0 {
		return v
	}
	if n >= int64(len(pow10)) {
		// |v| < 10^19 <= 10^n, so the quotient is a fraction of one unit.
		if v < 0 {
			return -1
		}
		return 1
	}
	p := pow10[n]
	r := v / p
	if v%p != 0 {
		if v < 0 {
			r--
		} else {
			r++
		}
	}
	return r
}

// addInt returns a + b and whether it did not overflow.
func addInt(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
