// parse.go reads a quantity from its string form: ParseQuantity, MustParse
// and the three errors Kubernetes returns for bad input.
//
// The grammar is Kubernetes' (k8s.io/apimachinery/pkg/api/resource, v0.34):
// an optional sign, a decimal number, then one suffix. The suffix picks the
// format family:
//
//	""  n u m k M G T P E    DecimalSI (powers of 1000)
//	Ki Mi Gi Ti Pi Ei        BinarySI (powers of 1024)
//	e3 E-2 ...               DecimalExponent (any power of ten)
//
// Kubernetes' scanner is lenient in ways a manifest can show: the number may
// be missing ("G", "+", "." and "-." are all zero), leading zeros are
// skipped, and an exponent that overflows 32 bits wraps.
package resource

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// The errors ParseQuantity returns, worded as Kubernetes words them.
var (
	ErrFormatWrong = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	ErrNumeric     = errors.New("unable to parse numeric part of quantity")
	ErrSuffix      = errors.New("unable to parse quantity's suffix")
)

// MustParse is ParseQuantity for constants in code and tests; it panics on
// bad input.
func MustParse(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(fmt.Errorf("cannot parse '%v': %v", s, err))
	}
	return q
}

// ParseQuantity parses s ("500m", "1.5Gi", "2", "1e3", "-0.25") exactly.
// Digits finer than a nano-unit round up to 1n, as in Kubernetes, and a
// BinarySI value beyond 2^63-1 is capped there as Kubernetes caps it. When s
// is already in canonical shape the quantity keeps it as its String.
func ParseQuantity(s string) (Quantity, error) {
	if s == "" {
		return Quantity{}, ErrFormatWrong
	}
	if s == "0" {
		return Quantity{format: DecimalSI, s: s}, nil
	}
	p, err := scanQuantity(s)
	if err != nil {
		return Quantity{}, err
	}
	format, binary, exponent, ok := interpretSuffix(p.suffix)
	if !ok {
		return Quantity{}, ErrSuffix
	}
	if q, ok := parseInt64(s, p, format, binary, exponent); ok {
		return q, nil
	}
	return parseBig(p, format, binary, exponent)
}

// scanned is a quantity's text cut into its parts.
type scanned struct {
	negative bool
	number   string // the text before the suffix, sign included
	num      string // the integer digits without leading zeros; "0" if none
	denom    string // the digits after the decimal point
	suffix   string
}

// scanQuantity cuts s as Kubernetes' scanner does: sign, leading zeros,
// integer digits, an optional point and fraction digits, then a suffix of
// the shape [eEinumkKMGTP]*[-+]?[0-9]*. Anything else is ErrFormatWrong.
func scanQuantity(s string) (scanned, error) {
	var p scanned
	i := 0
	switch s[0] {
	case '-':
		p.negative = true
		i++
	case '+':
		i++
	}
	for i < len(s) && s[i] == '0' {
		i++
	}
	if i == len(s) {
		// Only a sign and zeros: zero.
		return scanned{number: "0", num: "0"}, nil
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	p.num = s[start:i]
	if p.num == "" {
		p.num = "0"
	}
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		p.denom = s[start:i]
	}
	p.number, p.suffix = s[:i], s[i:]
	for i < len(s) && strings.IndexByte("eEinumkKMGTP", s[i]) >= 0 {
		i++
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < len(s) {
		return scanned{}, ErrFormatWrong
	}
	return p, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// decimalSuffixes maps each DecimalSI suffix to its power of ten.
var decimalSuffixes = map[string]int32{
	"n": -9, "u": -6, "m": -3, "": 0,
	"k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}

// binarySuffixes maps each BinarySI suffix to its power of two.
var binarySuffixes = map[string]int32{
	"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60,
}

// interpretSuffix returns the format a suffix implies and the value it
// multiplies by: 2^exponent when binary, else 10^exponent. As in Kubernetes,
// an "e" exponent is read as 64 bits and kept in 32, so "1e4294967296" is 1.
func interpretSuffix(suffix string) (format Format, binary bool, exponent int32, ok bool) {
	if p, ok := decimalSuffixes[suffix]; ok {
		return DecimalSI, false, p, true
	}
	if p, ok := binarySuffixes[suffix]; ok {
		return BinarySI, true, p, true
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		if p, err := strconv.ParseInt(suffix[1:], 10, 64); err == nil {
			return DecimalExponent, false, int32(p), true
		}
	}
	return "", false, 0, false
}

// parseInt64 is Kubernetes' fast path: a number with few enough digits that
// value × suffix surely fits an int64, at a scale no finer than nano. It
// reports false when the number needs parseBig. The text s is kept as the
// quantity's string when it is already canonical: a DecimalSI or exponent
// value whose scale is a multiple of 3 and whose digits neither start with 0
// nor end in 000 ("1.500", "250m"), or a BinarySI value whose digits are not
// a multiple of 8 ("8Gi" is rewritten as "8Gi", "1024Mi" is not kept).
func parseInt64(s string, p scanned, format Format, binary bool, exponent int32) (Quantity, bool) {
	const maxInt64Digits = 18
	scale, mantissa, precision := int32(0), int64(1), int32(-1)
	switch {
	case !binary:
		scale = exponent
		precision = maxInt64Digits - int32(len(p.num)+len(p.denom))
	case p.denom == "":
		mantissa = 1 << exponent
		// 2^10 takes about 3 decimal digits.
		precision = 15 - int32(len(p.num)) - exponent*3/10 - 1
	}
	if precision < 0 {
		return Quantity{}, false
	}
	scale -= int32(len(p.denom))
	if scale < nanoScale {
		return Quantity{}, false
	}
	digits := p.num + p.denom
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return Quantity{}, false
	}
	value, ok := mulInt(v, mantissa)
	if !ok {
		return Quantity{}, false
	}
	if p.negative {
		value = -value
	}
	q := Quantity{value: value, scale: scale, format: format}
	if binary {
		if exponent%10 == 0 && v&0x07 != 0 {
			q.s = s
		}
	} else if scale%3 == 0 && !strings.HasSuffix(digits, "000") && digits[0] != '0' {
		q.s = s
	}
	return q, true
}

// maxBinary is 2^63-1, where Kubernetes caps a BinarySI quantity.
var maxBinary = big.NewInt(1<<63 - 1)

// parseBig is Kubernetes' arbitrary-precision path: the exact value, its
// magnitude rounded up to a whole number of nano-units, capped at 2^63-1 for
// BinarySI. A BinarySI value between 0 and 1 switches to DecimalSI.
func parseBig(p scanned, format Format, binary bool, exponent int32) (Quantity, error) {
	if strings.IndexFunc(p.number, func(r rune) bool { return r >= '0' && r <= '9' }) < 0 {
		// "e-10": Kubernetes' decimal reader finds no digit in "".
		return Quantity{}, ErrNumeric
	}
	n, _ := new(big.Int).SetString(p.num+p.denom, 10)
	scale := -int64(len(p.denom))
	if binary {
		n.Lsh(n, uint(exponent))
	} else {
		scale += int64(exponent)
	}
	if n.Sign() != 0 && scale < nanoScale {
		n = quoRoundUp(n, nanoScale-scale)
		scale = nanoScale
	}
	if binary && n.Cmp(new(big.Int).Mul(maxBinary, pow10Big(-scale))) > 0 {
		n.Set(maxBinary)
		scale = 0
	}
	if binary && n.Sign() != 0 && n.Cmp(pow10Big(-scale)) < 0 {
		format = DecimalSI
	}
	if p.negative {
		n.Neg(n)
	}
	return newBigQuantity(n, int32(scale), format), nil
}

// quoRoundUp returns ceil(n / 10^drop) for n > 0 and drop > 0: a quotient
// below one unit is 1.
func quoRoundUp(n *big.Int, drop int64) *big.Int {
	if drop > int64(len(n.String())) {
		return big.NewInt(1)
	}
	q, r := new(big.Int).QuoRem(n, pow10Big(drop), new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// mulInt returns a × b and whether it did not overflow.
func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a {
		return 0, false
	}
	return c, true
}
