// canonical.go writes a Quantity in Kubernetes' canonical form (String) and
// carries it through JSON (MarshalJSON, UnmarshalJSON).
//
// A quantity parsed from text that is already canonical keeps that text
// ("1.500" stays "1.500", see parseInt64). Otherwise the canonical form keeps
// the format family and picks the largest suffix that leaves a whole-number
// mantissa, with no loss of precision:
//
//	DecimalSI        "0.5" -> "500m", "1.5" -> "1500m", "1000" -> "1k"
//	BinarySI         "1Gi"+"512Mi" -> "1536Mi"; below 1024, or not a whole
//	                 number, it falls back to DecimalSI ("0.5Ki" -> "512")
//	DecimalExponent  "1.5e3" -> "1500", "12e3" stays "12e3"
//
// Where no suffix exists for the power (DecimalSI from 10^21 up, BinarySI
// from 1024^7 up), Kubernetes v1.34 prints the mantissa alone: "1000E" is
// printed "1". kubesim prints what Kubernetes prints.
package resource

import (
	"math/big"
	"strconv"
	"strings"
)

// decimalSuffixFor maps a power of ten that is a multiple of 3 to its
// DecimalSI suffix.
var decimalSuffixFor = map[int64]string{
	-9: "n", -6: "u", -3: "m", 0: "",
	3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E",
}

// binarySuffixFor is indexed by the power of 1024.
var binarySuffixFor = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// String returns q as kubectl and the apiserver print it: the text it was
// parsed from when that was canonical, else the canonical form. The zero
// Quantity is "0".
func (q Quantity) String() string {
	if q.s != "" {
		return q.s
	}
	if q.IsZero() {
		return "0"
	}
	if q.format == BinarySI {
		if s, ok := q.binaryString(); ok {
			return s
		}
		return q.decimalString(DecimalSI)
	}
	return q.decimalString(q.format)
}

// binaryString writes q with a power-of-two suffix, or reports false when
// Kubernetes would fall back to DecimalSI: for magnitudes below 1024 (so 512
// is "512", not "0.5Ki") and for values that are not whole numbers.
func (q Quantity) binaryString() (string, bool) {
	if q.Cmp(NewQuantity(-1024, "")) > 0 && q.Cmp(NewQuantity(1024, "")) < 0 {
		return "", false
	}
	if v, ok := q.wholeValue(); ok {
		power := 0
		for v%1024 == 0 {
			v /= 1024
			power++
		}
		return strconv.FormatInt(v, 10) + binarySuffix(power), true
	}
	a, one, _ := alignBig(q, NewQuantity(1, ""))
	whole, rem := new(big.Int).QuoRem(a, one, new(big.Int))
	if rem.Sign() != 0 {
		return "", false
	}
	power, k := 0, big.NewInt(1024)
	for {
		next, rem := new(big.Int).QuoRem(whole, k, new(big.Int))
		if rem.Sign() != 0 {
			break
		}
		whole = next
		power++
	}
	return whole.String() + binarySuffix(power), true
}

// binarySuffix returns the suffix for 1024^power, or "" past "Ei".
func binarySuffix(power int) string {
	if power < len(binarySuffixFor) {
		return binarySuffixFor[power]
	}
	return ""
}

// wholeValue returns q as an int64 when it is a whole number that fits.
func (q Quantity) wholeValue() (int64, bool) {
	if q.big != nil {
		return 0, false
	}
	if q.scale >= 0 {
		return scaleUp(q.value, int64(q.scale))
	}
	n := -int64(q.scale)
	if n >= int64(len(pow10)) || q.value%pow10[n] != 0 {
		return 0, false
	}
	return q.value / pow10[n], true
}

// decimalString writes q as a whole mantissa and a power of ten that is a
// multiple of 3, the largest such power that loses nothing: 1500 × 10^-3 is
// "1500m" because 1.5 is not whole. The power becomes a DecimalSI suffix, or
// an "eN" exponent for DecimalExponent.
func (q Quantity) decimalString(format Format) string {
	var digits string
	if q.big != nil {
		digits = q.big.String()
	} else {
		digits = strconv.FormatInt(q.value, 10)
	}
	exp := int64(q.scale)
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		exp++
	}
	// Step down to a multiple of 3 by appending zeros.
	zeros := ((exp % 3) + 3) % 3
	exp -= zeros
	digits += strings.Repeat("0", int(zeros))
	switch {
	case format == DecimalSI:
		return digits + decimalSuffixFor[exp]
	case exp != 0:
		return digits + "e" + strconv.FormatInt(exp, 10)
	}
	return digits
}

// MarshalJSON writes q as a JSON string, as String prints it: "500m".
func (q Quantity) MarshalJSON() ([]byte, error) {
	return []byte(`"` + q.String() + `"`), nil
}

// UnmarshalJSON reads a quantity from a JSON string ("500m") or a JSON number
// (0.5), as Kubernetes accepts both in manifests. As in Kubernetes, the quotes
// are dropped without unescaping and surrounding spaces are ignored; null
// leaves the zero value. A bad quantity fails with ParseQuantity's error
// alone, which is all the apiserver says.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*q = Quantity{}
		return nil
	}
	if l := len(data); l >= 2 && data[0] == '"' && data[l-1] == '"' {
		data = data[1 : l-1]
	}
	parsed, err := ParseQuantity(strings.TrimSpace(string(data)))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}
