// quantity.go is the Quantity value type: an exact decimal number with the
// format family it was written in. Interface: NewQuantity, NewMilliQuantity,
// MilliValue, Value, Cmp, Equal, Add, Sub, Neg, RoundUp, IsZero, Sign.
//
// Parsing lives in parse.go and the canonical string and JSON forms in
// canonical.go.
package resource

import (
	"math"
	"math/big"
)

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

// Quantity is an exact decimal number: unscaled × 10^scale, written in format.
//
// As in Kubernetes, the unscaled value is an int64 whenever it fits, so that
// MilliValue, Cmp and Add stay free of allocation on the scheduler's hot path,
// and an arbitrary-precision integer (big) when it does not: "10G" + "1n" is
// 10000000000000000001n, which no int64 holds at the nano scale.
//
// Invariants: scale >= -9 (Kubernetes rounds anything finer than a nano-unit
// up to 1n when parsing); big is nil whenever the unscaled value fits an int64,
// and a big once set is never modified, so copies of a Quantity may share it.
//
// The zero Quantity is 0.
type Quantity struct {
	value  int64
	big    *big.Int
	scale  int32
	format Format
	// s is the text the quantity was parsed from, kept when that text is
	// already in canonical shape ("1.500", "500m", "8Gi"): Kubernetes prints
	// and serialises such a quantity exactly as typed, and forgets the text as
	// soon as arithmetic changes the value.
	s string
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

// newBigQuantity returns n × 10^scale, holding n as an int64 when it fits.
func newBigQuantity(n *big.Int, scale int32, format Format) Quantity {
	if n.IsInt64() {
		return Quantity{value: n.Int64(), scale: scale, format: format}
	}
	return Quantity{big: n, scale: scale, format: format}
}

// unscaled returns the unscaled value as a big.Int the caller must not modify.
func (q Quantity) unscaled() *big.Int {
	if q.big != nil {
		return q.big
	}
	return big.NewInt(q.value)
}

// MilliValue returns ceil(q × 1000), the unit the scheduler sums CPU in.
// Values finer than a milli-unit round away from zero as in Kubernetes ("1n"
// is 1m).
//
// Simplified: values too large for an int64 saturate, where Kubernetes
// returns a wrapped or zero value.
func (q Quantity) MilliValue() int64 { return q.scaledValue(-3) }

// Value returns ceil(q), rounding away from zero as Kubernetes does ("500m"
// is 1); values too large for an int64 saturate, as with MilliValue.
func (q Quantity) Value() int64 { return q.scaledValue(0) }

// scaledValue returns q in units of 10^scale, rounded away from zero.
func (q Quantity) scaledValue(scale int32) int64 {
	if q.big != nil {
		return bigScaledValue(q.big, int64(q.scale)-int64(scale))
	}
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
func (q Quantity) IsZero() bool { return q.big == nil && q.value == 0 }

// Sign returns -1, 0 or 1.
func (q Quantity) Sign() int {
	if q.big != nil {
		return q.big.Sign()
	}
	return cmpInt(q.value, 0)
}

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y. The
// formats do not matter: "1Gi" equals "1073741824" and "0.5" equals "500m".
func (q Quantity) Cmp(y Quantity) int {
	qs, ys := q.Sign(), y.Sign()
	if qs != ys || qs == 0 {
		return cmpInt(int64(qs), int64(ys))
	}
	if q.big == nil && y.big == nil {
		switch {
		case q.scale == y.scale:
			return cmpInt(q.value, y.value)
		case q.scale > y.scale:
			if v, ok := scaleUp(q.value, int64(q.scale)-int64(y.scale)); ok {
				return cmpInt(v, y.value)
			}
		default:
			if v, ok := scaleUp(y.value, int64(y.scale)-int64(q.scale)); ok {
				return cmpInt(q.value, v)
			}
		}
	}
	// Compare the positions of the leading digits first, so that "1e999999"
	// against "1" never builds a million-digit number.
	if oq, oy := q.order(), y.order(); oq != oy {
		return qs * cmpInt(oq, oy)
	}
	a, b, _ := alignBig(q, y)
	return a.Cmp(b)
}

// Equal reports whether q and y are the same number (Cmp == 0).
func (q Quantity) Equal(y Quantity) bool { return q.Cmp(y) == 0 }

// Add sets q to q + y, exactly. As in Kubernetes, a zero q takes y's format,
// so summing "1Gi" requests into an empty Quantity prints in Gi.
func (q *Quantity) Add(y Quantity) {
	q.s = ""
	if q.IsZero() {
		q.format = y.format
	}
	q.add(y, false)
}

// Sub sets q to q - y, exactly. A zero q takes y's format, as with Add.
func (q *Quantity) Sub(y Quantity) {
	q.s = ""
	if q.IsZero() {
		q.format = y.format
	}
	q.add(y, true)
}

// Neg sets q to -q.
func (q *Quantity) Neg() {
	q.s = ""
	if q.big == nil && q.value != math.MinInt64 {
		q.value = -q.value
		return
	}
	*q = newBigQuantity(new(big.Int).Neg(q.unscaled()), q.scale, q.format)
}

// RoundUp rounds q away from zero to a whole number of 10^scale units, as Kubernetes' Quantity.RoundUp
// does when the apiserver defaults a container's resources to milli-units (scale -3): "100u" becomes
// "1m", "1.0001" becomes "1001m". A quantity already that coarse is left alone, its text included.
// It reports whether the value was exact.
func (q *Quantity) RoundUp(scale int32) bool {
	if q.scale >= scale {
		return true
	}
	q.s = ""
	if q.IsZero() {
		q.scale = scale
		return true
	}
	n := new(big.Int).Abs(q.unscaled())
	rounded := quoRoundUp(n, int64(scale)-int64(q.scale))
	exact := new(big.Int).Mul(rounded, pow10Big(int64(scale)-int64(q.scale))).Cmp(n) == 0
	if q.Sign() < 0 {
		rounded.Neg(rounded)
	}
	*q = newBigQuantity(rounded, scale, q.format)
	return exact
}

// add sets q to q + y (q - y when negate) at the finer of the two scales. It
// stays in int64 arithmetic when the result fits there and moves to big
// integers when it does not, so it is always exact.
func (q *Quantity) add(y Quantity, negate bool) {
	if y.IsZero() {
		return
	}
	if q.big == nil && y.big == nil && !(negate && y.value == math.MinInt64) {
		yv := y.value
		if negate {
			yv = -yv
		}
		if q.value == 0 {
			q.value, q.scale = yv, y.scale
			return
		}
		lo := min(q.scale, y.scale)
		a, aok := scaleUp(q.value, int64(q.scale)-int64(lo))
		b, bok := scaleUp(yv, int64(y.scale)-int64(lo))
		if aok && bok {
			if sum, ok := addInt(a, b); ok {
				q.value, q.scale = sum, lo
				return
			}
		}
	}
	a, b, lo := alignBig(*q, y)
	if negate {
		a.Sub(a, b)
	} else {
		a.Add(a, b)
	}
	*q = newBigQuantity(a, lo, q.format)
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
