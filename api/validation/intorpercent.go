// intorpercent.go: the checks on a rolling update's maxSurge and maxUnavailable, which are a count
// ("1") or a percentage of the desired pods ("25%").
package validation

import (
	"regexp"
	"strconv"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
)

const (
	percentFmt    = "[0-9]+%"
	percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'"
)

var percentRegexp = regexp.MustCompile("^" + percentFmt + "$")

// validatePositiveIntOrPercent: a count must not be negative, a string must be a percentage.
func validatePositiveIntOrPercent(v *api.IntOrString, path *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if v.Type == api.StringType {
		if !percentRegexp.MatchString(v.StrVal) {
			return field.ErrorList{field.Invalid(path, v, field.RegexError(percentErrMsg, percentFmt, "1%", "93%"))}
		}
		return nil
	}
	return ValidateNonnegativeField(int64(v.IntVal), path)
}

// validateNotMoreThan100Percent: more than all pods unavailable (or surging) means nothing.
func validateNotMoreThan100Percent(v *api.IntOrString, path *field.Path) field.ErrorList {
	if p, isPercent := percentValue(v); isPercent && p > 100 {
		return field.ErrorList{field.Invalid(path, v, "must not be greater than 100%")}
	}
	return nil
}

func percentValue(v *api.IntOrString) (int, bool) {
	if v == nil || v.Type != api.StringType || !percentRegexp.MatchString(v.StrVal) {
		return 0, false
	}
	p, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return p, err == nil
}

// intOrPercentValue is the number in a count or a percentage, 0 when unset.
func intOrPercentValue(v *api.IntOrString) int {
	if v == nil {
		return 0
	}
	if p, ok := percentValue(v); ok {
		return p
	}
	return int(v.IntVal)
}
