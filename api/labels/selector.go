// selector.go is the Selector: a conjunction of requirements that a list,
// watch, Service or ReplicaSet uses to pick objects by their labels.
// Interface: Selector, Everything, Nothing, SelectorFromSet, Expression,
// SelectorFromLabelSelector.
package labels

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Selector picks objects by their labels.
type Selector interface {
	// Matches reports whether the labels satisfy every requirement.
	Matches(Labels) bool
	// Empty reports whether the selector has no requirements (and so
	// matches everything).
	Empty() bool
	// String returns the selector in the syntax Parse reads, requirements
	// sorted by key: "app=web,tier in (backend,frontend)".
	String() string
	// Requirements returns the requirements, sorted by key. The caller must
	// not modify them.
	Requirements() []Requirement
}

// internalSelector is the Selector every constructor builds: requirements
// sorted by key and ANDed.
type internalSelector []Requirement

// newSelector sorts reqs by key (stable, so two terms on one key keep their
// written order) and returns them as a Selector.
func newSelector(reqs []Requirement) Selector {
	slices.SortStableFunc(reqs, func(a, b Requirement) int { return strings.Compare(a.key, b.key) })
	return internalSelector(reqs)
}

func (s internalSelector) Matches(ls Labels) bool {
	for i := range s {
		if !s[i].Matches(ls) {
			return false
		}
	}
	return true
}

func (s internalSelector) Empty() bool { return len(s) == 0 }

func (s internalSelector) String() string {
	parts := make([]string, len(s))
	for i := range s {
		parts[i] = s[i].String()
	}
	return strings.Join(parts, ",")
}

func (s internalSelector) Requirements() []Requirement { return s }

// Everything returns the selector that matches every object: the empty
// selector, as an empty label selector in a manifest means.
func Everything() Selector { return internalSelector(nil) }

// nothingSelector matches no object. It is what a nil label selector means.
type nothingSelector struct{}

func (nothingSelector) Matches(Labels) bool         { return false }
func (nothingSelector) Empty() bool                 { return false }
func (nothingSelector) String() string              { return "" }
func (nothingSelector) Requirements() []Requirement { return nil }

// Nothing returns the selector that matches no object.
func Nothing() Selector { return nothingSelector{} }

// SelectorFromSet returns a selector requiring key=value for each label in
// ls. As in Kubernetes it does not validate the set: it is for sets that came
// from objects the apiserver already validated. An empty set selects
// everything.
func SelectorFromSet(ls Set) Selector {
	reqs := make([]Requirement, 0, len(ls))
	for k, v := range ls {
		reqs = append(reqs, Requirement{key: k, operator: Equals, values: []string{v}})
	}
	return newSelector(reqs)
}

// Expression is one of a LabelSelector's matchExpressions, as in
// metav1.LabelSelectorRequirement. Operator is "In", "NotIn", "Exists" or
// "DoesNotExist".
type Expression struct {
	Key      string
	Operator string
	Values   []string
}

// SelectorFromLabelSelector converts the two halves of a metav1.LabelSelector
// (matchLabels and matchExpressions) into a Selector, validating every key
// and value, as metav1.LabelSelectorAsSelector does. Both empty gives
// Everything; a caller holding a nil *LabelSelector should use Nothing
// instead, because in Kubernetes a nil selector matches no objects.
func SelectorFromLabelSelector(matchLabels map[string]string, exprs []Expression) (Selector, error) {
	reqs := make([]Requirement, 0, len(matchLabels)+len(exprs))
	// matchLabels first, as in Kubernetes; sorted, so that of several bad labels the same one is
	// always reported (Kubernetes walks the map in random order).
	for _, k := range slices.Sorted(maps.Keys(matchLabels)) {
		r, err := NewRequirement(k, Equals, []string{matchLabels[k]})
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	for _, expr := range exprs {
		var op Operator
		switch expr.Operator {
		case "In":
			op = In
		case "NotIn":
			op = NotIn
		case "Exists":
			op = Exists
		case "DoesNotExist":
			op = DoesNotExist
		default:
			return nil, fmt.Errorf("%q is not a valid label selector operator", expr.Operator)
		}
		r, err := NewRequirement(expr.Key, op, expr.Values)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	return newSelector(reqs), nil
}
