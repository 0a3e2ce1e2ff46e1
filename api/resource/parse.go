// parse.go reads a quantity from its string form: ParseQuantity, MustParse
// and the three errors Kubernetes returns for bad input.
//
// The grammar is Kubernetes': an optional sign, a decimal number, then one
// suffix. The suffix picks the format family:
//
//	""  n u m k M G T P E    DecimalSI (powers of 1000)
//	Ki Mi Gi Ti Pi Ei        BinarySI (powers of 1024)
//	e3 E-2 ...               DecimalExponent (any power of ten)
package resource

import (
	"errors"
	"fmt"
	"math"
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

// errTooPrecise is kubesim's own limit: the significant digits must fit an
// int64 (any 18 digits do, and 19 up to 9223372036854775807).
var errTooPrecise = fmt.Errorf("%w: too many significant digits", ErrNumeric)

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
// BinarySI value beyond 2^63-1 is capped there as Kubernetes caps it.
//
// Simplified: a number whose significant digits do not fit an int64 (more
// than 18, or 19 above 2^63-1) is rejected with ErrNumeric, where Kubernetes
// would switch to arbitrary precision.
func ParseQuantity(s string) (Quantity, error) {
	if s == "" {
		return Quantity{}, ErrFormatWrong
	}
	negative, digits, exp, suffix, err := splitQuantity(s)
	if err != nil {
		return Quantity{}, err
	}
	format, scale, binaryPower, err := parseSuffix(suffix)
	if err != nil {
		return Quantity{}, err
	}

	// The number is digits × 10^exp; trim it to its significant digits.
	digits = strings.TrimLeft(digits, "0")
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		exp++
	}
	exp += scale
	if digits == "" {
		return Quantity{format: format}, nil
	}
	roundUp := false
	if exp < nanoScale {
		cut := nanoScale - exp
		if cut >= len(digits) {
			digits = ""
		} else {
			digits = digits[:len(digits)-cut]
		}
		exp, roundUp = nanoScale, true
	}
	if exp > math.MaxInt32 {
		return Quantity{}, ErrSuffix
	}
	var value int64
	if digits != "" {
		if value, err = strconv.ParseInt(digits, 10, 64); err != nil {
			return Quantity{}, errTooPrecise
		}
	}
	if roundUp {
		if value == math.MaxInt64 {
			return Quantity{}, errTooPrecise
		}
		value++
	}
	if binaryPower > 0 {
		value, exp = timesBinary(value, exp, binaryPower)
	}
	q := Quantity{value: value, scale: int32(exp), format: format}
	if negative {
		q.value = -q.value
	}
	return q, nil
}

// splitQuantity separates s into sign, the digits of its number with the
// decimal point removed, the power of ten that point implies, and the suffix.
func splitQuantity(s string) (negative bool, digits string, exp int, suffix string, err error) {
	i := 0
	switch s[0] {
	case '-':
		negative = true
		i++
	case '+':
		i++
	}
	start, dot := i, -1
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if dot >= 0 {
				// "1.2.3" matches the regular expression but is no number.
				return false, "", 0, "", ErrNumeric
			}
			dot = i
			continue
		}
		if c < '0' || c > '9' {
			break
		}
	}
	number, suffix := s[start:i], s[i:]
	if number == "" || !suffixShape(suffix) {
		return false, "", 0, "", ErrFormatWrong
	}
	if number == "." {
		return false, "", 0, "", ErrNumeric
	}
	if dot < 0 {
		return negative, number, 0, suffix, nil
	}
	whole, frac := number[:dot-start], number[dot-start+1:]
	return negative, whole + frac, -len(frac), suffix, nil
}

// suffixShape reports whether s matches [eEinumkKMGTP]*[-+]?[0-9]*, the
// suffix part of Kubernetes' regular expression.
func suffixShape(s string) bool {
	i := 0
	for i < len(s) && strings.IndexByte("eEinumkKMGTP", s[i]) >= 0 {
		i++
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i == len(s)
}

// decimalSuffixes maps each DecimalSI suffix to its power of ten.
var decimalSuffixes = map[string]int{
	"n": -9, "u": -6, "m": -3, "": 0,
	"k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}

// binarySuffixes maps each BinarySI suffix to its power of 1024.
var binarySuffixes = map[string]int{
	"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6,
}

// parseSuffix returns the format a suffix implies and the value it
// multiplies by: 10^scale × 1024^binaryPower.
func parseSuffix(suffix string) (format Format, scale, binaryPower int, err error) {
	if p, ok := decimalSuffixes[suffix]; ok {
		return DecimalSI, p, 0, nil
	}
	if p, ok := binarySuffixes[suffix]; ok {
		return BinarySI, 0, p, nil
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		p, err := strconv.ParseInt(suffix[1:], 10, 32)
		if err == nil {
			return DecimalExponent, int(p), 0, nil
		}
	}
	return "", 0, 0, ErrSuffix
}

// timesBinary returns value × 10^scale × 1024^power as a Quantity at the
// coarsest exact scale ("1.5Ei" is 15 × 10^-1 × 2^60, which fits an int64
// only once the 10 is divided out). A whole number past 2^63-1 is capped
// there, as Kubernetes caps BinarySI quantities; a fractional one too long for
// 18 digits keeps its leading digits, rounded up.
func timesBinary(value int64, scale int, power int) (int64, int) {
	if scale >= len(pow10) {
		return math.MaxInt64, 0
	}
	n := new(big.Int).Lsh(big.NewInt(value), uint(10*power))
	if scale > 0 {
		n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
		scale = 0
	}
	ten := big.NewInt(10)
	for scale < 0 {
		q, r := new(big.Int).QuoRem(n, ten, new(big.Int))
		if r.Sign() != 0 {
			if n.IsInt64() {
				break
			}
			q.Add(q, big.NewInt(1))
		}
		n = q
		scale++
	}
	if !n.IsInt64() {
		return math.MaxInt64, 0
	}
	return n.Int64(), scale
}
