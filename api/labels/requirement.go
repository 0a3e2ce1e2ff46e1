// requirement.go is one term of a label selector: a key, an operator and
// values, such as `tier in (frontend,web)`. Interface: Operator and its
// constants, NewRequirement, Requirement (Key, Operator, Values, Matches,
// String).
//
// Kubernetes keeps the operators in their own package
// (k8s.io/apimachinery/pkg/selection); kubesim keeps them here and the
// fields package reuses them.
package labels

import (
	"slices"
	"strconv"
	"strings"

	"kubesim/api/field"
)

// Operator relates a key to its values.
type Operator string

// The operators of selector syntax. Equals and DoubleEquals mean the same.
const (
	DoesNotExist Operator = "!"
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	In           Operator = "in"
	NotEquals    Operator = "!="
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// supportedOperators is in Kubernetes' order, for the NotSupported message.
var supportedOperators = []Operator{In, NotIn, Equals, DoubleEquals, NotEquals, Exists, DoesNotExist, GreaterThan, LessThan}

// Requirement is one validated term of a selector. Build it with
// NewRequirement; the zero value is not useful.
type Requirement struct {
	key      string
	operator Operator
	// values is sorted and free of duplicates, so In can binary-search it
	// and String prints it in a stable order.
	values []string
	// number is the parsed value of a GreaterThan or LessThan requirement.
	number int64
}

// NewRequirement checks and builds a requirement, with Kubernetes' rules:
// the key must be a qualified name and every value a valid label value; In
// and NotIn need at least one value; =, == and != exactly one; Exists and
// DoesNotExist none; gt and lt exactly one integer. Every broken rule is
// reported, as Kubernetes aggregates them: "[values[0]: ..., values[0][a]:
// ...]".
func NewRequirement(key string, op Operator, values []string) (*Requirement, error) {
	var errs field.ErrorList
	if msgs := IsQualifiedName(key); len(msgs) > 0 {
		errs = append(errs, field.Invalid(field.NewPath("key"), key, strings.Join(msgs, "; ")))
	}
	valuesPath := field.NewPath("values")
	r := &Requirement{key: key, operator: op}
	switch op {
	case In, NotIn:
		if len(values) == 0 {
			errs = append(errs, field.Invalid(valuesPath, values, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case Equals, DoubleEquals, NotEquals:
		if len(values) != 1 {
			errs = append(errs, field.Invalid(valuesPath, values, "exact-match compatibility requires one single value"))
		}
	case Exists, DoesNotExist:
		if len(values) != 0 {
			errs = append(errs, field.Invalid(valuesPath, values, "values set must be empty for exists and does not exist"))
		}
	case GreaterThan, LessThan:
		if len(values) != 1 {
			errs = append(errs, field.Invalid(valuesPath, values, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range values {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				errs = append(errs, field.Invalid(valuesPath.Index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
			r.number = n
		}
	default:
		errs = append(errs, field.NotSupported(field.NewPath("operator"), op, supportedOperators))
	}
	for i, v := range values {
		if msgs := IsValidLabelValue(v); len(msgs) > 0 {
			errs = append(errs, field.Invalid(valuesPath.Index(i).Key(key), v, strings.Join(msgs, "; ")))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	r.values = slices.Compact(slices.Sorted(slices.Values(values)))
	return r, nil
}

// Key returns the label key the requirement is about.
func (r *Requirement) Key() string { return r.key }

// Operator returns the requirement's operator.
func (r *Requirement) Operator() Operator { return r.operator }

// Values returns the requirement's values, sorted. The caller must not
// modify the slice.
func (r *Requirement) Values() []string { return r.values }

// Matches reports whether ls satisfies r. Note the asymmetry Kubernetes
// defines: a label that is absent fails `in` and `=` but passes `notin` and
// `!=`, because an absent label does not have any of the excluded values.
func (r *Requirement) Matches(ls Labels) bool {
	switch r.operator {
	case In, Equals, DoubleEquals:
		return ls.Has(r.key) && r.hasValue(ls.Get(r.key))
	case NotIn, NotEquals:
		return !ls.Has(r.key) || !r.hasValue(ls.Get(r.key))
	case Exists:
		return ls.Has(r.key)
	case DoesNotExist:
		return !ls.Has(r.key)
	case GreaterThan, LessThan:
		if !ls.Has(r.key) {
			return false
		}
		n, err := strconv.ParseInt(ls.Get(r.key), 10, 64)
		if err != nil {
			return false
		}
		if r.operator == GreaterThan {
			return n > r.number
		}
		return n < r.number
	}
	return false
}

func (r *Requirement) hasValue(v string) bool {
	_, found := slices.BinarySearch(r.values, v)
	return found
}

// String returns the requirement in selector syntax: "app=web",
// "tier in (backend,frontend)", "!canary", "gpu", "replicas>2".
func (r *Requirement) String() string {
	var b strings.Builder
	if r.operator == DoesNotExist {
		b.WriteByte('!')
	}
	b.WriteString(r.key)
	switch r.operator {
	case Equals, DoubleEquals, NotEquals:
		b.WriteString(string(r.operator))
		b.WriteString(r.values[0])
	case GreaterThan:
		b.WriteString(">" + r.values[0])
	case LessThan:
		b.WriteString("<" + r.values[0])
	case In, NotIn:
		b.WriteString(" " + string(r.operator) + " (")
		b.WriteString(strings.Join(r.values, ","))
		b.WriteByte(')')
	}
	return b.String()
}
