// canonical.go writes a Quantity in Kubernetes' canonical form (String) and
// carries it through JSON (MarshalJSON, UnmarshalJSON).
//
// The canonical form keeps the format family of the input and picks the
// largest suffix that leaves a whole-number mantissa, with no loss of
// precision:
//
//	DecimalSI        "0.5" -> "500m", "1.5" -> "1500m", "1000" -> "1k"
//	BinarySI         "1Gi"+"512Mi" -> "1536Mi"; below 1024, or not a whole
//	                 number, it falls back to DecimalSI ("0.5Ki" -> "512")
//	DecimalExponent  "1.5e3" -> "1500", "12e3" stays "12e3"
package resource

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// String returns the canonical form of q, as kubectl and the apiserver print
// it. The zero Quantity is "0".
func (q Quantity) String() string {
	if q.value == 0 {
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
	v, ok := q.wholeValue()
	if !ok || (v > -1024 && v < 1024) {
		return "", false
	}
	power := 0
	for power < len(binarySuffixFor)-1 && v%1024 == 0 {
		v /= 1024
		power++
	}
	return strconv.FormatInt(v, 10) + binarySuffixFor[power], true
}

// wholeValue returns q as an int64 when it is a whole number that fits.
func (q Quantity) wholeValue() (int64, bool) {
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
// an "eN" exponent for DecimalExponent and for powers beyond "E".
func (q Quantity) decimalString(format Format) string {
	v, exp := q.value, int64(q.scale)
	for v%10 == 0 {
		v /= 10
		exp++
	}
	// Step down to a multiple of 3 by appending zeros as text, which cannot
	// overflow.
	zeros := ((exp % 3) + 3) % 3
	exp -= zeros
	var b strings.Builder
	b.WriteString(strconv.FormatInt(v, 10))
	b.WriteString(strings.Repeat("0", int(zeros)))
	if format == DecimalSI {
		if suffix, ok := decimalSuffixFor[exp]; ok {
			b.WriteString(suffix)
			return b.String()
		}
	}
	if exp != 0 {
		b.WriteString("e")
		b.WriteString(strconv.FormatInt(exp, 10))
	}
	return b.String()
}

// MarshalJSON writes q as a JSON string in canonical form: "500m".
func (q Quantity) MarshalJSON() ([]byte, error) {
	return json.Marshal(q.String())
}

// UnmarshalJSON reads a quantity from a JSON string ("500m") or a JSON number
// (0.5), as Kubernetes accepts both in manifests. null leaves the zero value.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		*q = Quantity{}
		return nil
	}
	s := string(data)
	if len(data) > 0 && data[0] == '"' {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
	}
	parsed, err := ParseQuantity(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("quantity %q: %w", s, err)
	}
	*q = parsed
	return nil
}
