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
	"fmt"
	"slices"
	"strconv"
	"strings"
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
// DoesNotExist none; gt and lt exactly one integer.
func NewRequirement(key string, op Operator, values []string) (*Requirement, error) {
	if errs := IsQualifiedName(key); len(errs) > 0 {
		return nil, fmt.Errorf("key: Invalid value: %q: %s", key, strings.Join(errs, "; "))
	}
	r := &Requirement{key: key, operator: op}
	switch op {
	case In, NotIn:
		if len(values) == 0 {
			return nil, invalidValues(values, "for 'in', 'notin' operators, values set can't be empty")
		}
	case Equals, DoubleEquals, NotEquals:
		if len(values) != 1 {
			return nil, invalidValues(values, "exact-match compatible operators must have exactly one value")
		}
	case Exists, DoesNotExist:
		if len(values) != 0 {
			return nil, invalidValues(values, "values set must be empty for exists and does not exist")
		}
	case GreaterThan, LessThan:
		if len(values) != 1 {
			return nil, invalidValues(values, "for 'Gt', 'Lt' operators, exactly one value is required")
		}
		n, err := strconv.ParseInt(values[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("values[0]: Invalid value: %q: for 'Gt', 'Lt' operators, the value must be an integer", values[0])
		}
		r.number = n
	default:
		return nil, fmt.Errorf("operator: Unsupported value: %q: supported values: %s", op, quoteOperators(supportedOperators))
	}
	for i, v := range values {
		if errs := IsValidLabelValue(v); len(errs) > 0 {
			return nil, fmt.Errorf("values[%d]: Invalid value: %q: %s", i, v, strings.Join(errs, "; "))
		}
	}
	r.values = slices.Compact(slices.Sorted(slices.Values(values)))
	return r, nil
}

func invalidValues(values []string, msg string) error {
	return fmt.Errorf("values: Invalid value: %#v: %s", values, msg)
}

func quoteOperators(ops []Operator) string {
	quoted := make([]string, len(ops))
	for i, op := range ops {
		quoted[i] = strconv.Quote(string(op))
	}
	return strings.Join(quoted, ", ")
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
