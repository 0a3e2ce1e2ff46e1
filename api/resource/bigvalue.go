// bigvalue.go is the arbitrary-precision side of Quantity: what Kubernetes
// does with inf.Dec once a value leaves the int64 range at its scale
// ("10G" + "1n", "0.0000000001Gi", "100E" × 1000 milli-units). Interface:
// alignBig, order, bigScaledValue, pow10Big.
package resource

import (
	"math"
	"math/big"
	"strconv"
)

// alignBig returns the unscaled values of q and y at the finer of their two
// scales, as fresh big integers the caller may modify, and that scale.
func alignBig(q, y Quantity) (a, b *big.Int, scale int32) {
	scale = min(q.scale, y.scale)
	a = new(big.Int).Mul(q.unscaled(), pow10Big(int64(q.scale)-int64(scale)))
	b = new(big.Int).Mul(y.unscaled(), pow10Big(int64(y.scale)-int64(scale)))
	return a, b, scale
}

// order returns the power of ten just above |q|'s leading digit: the number
// of its unscaled digits plus its scale.
func (q Quantity) order() int64 {
	var digits string
	if q.big != nil {
		digits = new(big.Int).Abs(q.big).String()
	} else {
		digits = strconv.FormatUint(absInt(q.value), 10)
	}
	return int64(len(digits)) + int64(q.scale)
}

// absInt returns |v|, correct for math.MinInt64 too.
func absInt(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// pow10Big returns 10^n for n >= 0.
func pow10Big(n int64) *big.Int {
	if n < int64(len(pow10)) {
		return big.NewInt(pow10[n])
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil)
}

// bigScaledValue returns n × 10^diff as an int64, rounded away from zero
// when diff < 0 and saturated when it does not fit.
func bigScaledValue(n *big.Int, diff int64) int64 {
	v := new(big.Int)
	if diff >= 0 {
		v.Mul(n, pow10Big(diff))
	} else {
		var rem big.Int
		v.QuoRem(n, pow10Big(-diff), &rem)
		if rem.Sign() != 0 {
			v.Add(v, big.NewInt(int64(n.Sign())))
		}
	}
	switch {
	case v.IsInt64():
		return v.Int64()
	case v.Sign() < 0:
		return math.MinInt64
	}
	return math.MaxInt64
}
