// intstr.go: IntOrString (k8s.io/apimachinery/pkg/util/intstr), the field type that holds either a
// number or a string: a service's targetPort (8080 or "http"), a probe's port, and a rolling update's
// maxSurge/maxUnavailable (2 or "25%"). Interface: FromInt32, FromString, Parse, String, IntValue,
// ScaledValue, and JSON in both shapes.
package api

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrStringType says which of the two values an IntOrString holds.
type IntOrStringType int64

const (
	IntType    IntOrStringType = iota // IntVal is set (intstr.Int)
	StringType                        // StrVal is set (intstr.String)
)

// IntOrString holds an int32 or a string and serialises as a bare JSON number or string.
// The zero value is the integer 0.
type IntOrString struct {
	Type   IntOrStringType
	IntVal int32
	StrVal string
}

// FromInt32 makes an integer IntOrString.
func FromInt32(v int32) IntOrString { return IntOrString{Type: IntType, IntVal: v} }

// FromString makes a string IntOrString ("25%", "http").
func FromString(s string) IntOrString { return IntOrString{Type: StringType, StrVal: s} }

// Parse makes an integer IntOrString if s is a decimal int32, else a string one, as intstr.Parse does.
func Parse(s string) IntOrString {
	if i, err := strconv.ParseInt(s, 10, 32); err == nil {
		return FromInt32(int32(i))
	}
	return FromString(s)
}

// String returns the value as text: "8080", "http", "25%".
func (v IntOrString) String() string {
	if v.Type == StringType {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// IntValue returns the integer, or the string parsed as an integer (0 if it is not one).
func (v IntOrString) IntValue() int {
	if v.Type == StringType {
		i, _ := strconv.Atoi(v.StrVal)
		return i
	}
	return int(v.IntVal)
}

// MarshalJSON writes a JSON number or a JSON string (appendJSONIntOrString, encode.go).
func (v IntOrString) MarshalJSON() ([]byte, error) { return appendJSONIntOrString(nil, v), nil }

// UnmarshalJSON accepts a JSON number or a JSON string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.Type, v.IntVal = StringType, 0
		return json.Unmarshal(b, &v.StrVal)
	}
	v.Type, v.StrVal = IntType, ""
	return json.Unmarshal(b, &v.IntVal)
}

// ScaledValue resolves an absolute number or a percentage of total. Kubernetes rounds a rolling
// update's maxSurge up and its maxUnavailable down (GetScaledValueFromIntOrPercent), so that a
// Deployment of 3 replicas with 25% of each may surge by 1 pod but may not take any down: progress is
// always possible and availability never drops below the desired count by rounding.
func (v IntOrString) ScaledValue(total int, roundUp bool) (int, error) {
	if v.Type == IntType {
		return int(v.IntVal), nil
	}
	digits, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	percent, err := strconv.Atoi(digits)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", v.StrVal, err)
	}
	scaled := float64(percent) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(scaled)), nil
	}
	return int(math.Floor(scaled)), nil
}
