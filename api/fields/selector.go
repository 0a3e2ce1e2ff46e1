// selector.go is the field Selector: terms of the form field=value or
// field!=value, ANDed, as in `kubectl get pods --field-selector
// spec.nodeName=node-1`. Interface: Selector, Requirement, Everything,
// OneTermEqualSelector, SelectorFromSet, ParseSelector.
//
// Field selectors are deliberately poorer than label selectors (no set
// operators, no existence tests): the apiserver only supports them on a few
// indexed fields, and RequiresExactMatch is how it finds out whether it can
// answer a list or watch from an index, such as the kubelet's watch of the
// pods with spec.nodeName equal to its own name.
package fields

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kubesim/api/labels"
)

// Selector picks objects by their selectable fields.
type Selector interface {
	// Matches reports whether the fields satisfy every term.
	Matches(Fields) bool
	// Empty reports whether the selector has no terms.
	Empty() bool
	// String returns the selector in the syntax ParseSelector reads, values
	// escaped.
	String() string
	// Requirements returns the terms. The caller must not modify them.
	Requirements() []Requirement
	// RequiresExactMatch returns the value field must equal for an object
	// to match, if some term says field=value. A "!=" term never counts.
	RequiresExactMatch(field string) (value string, found bool)
}

// Requirement is one term: Field Operator Value, where Operator is
// labels.Equals or labels.NotEquals.
type Requirement struct {
	Operator labels.Operator
	Field    string
	Value    string
}

// matches reports whether fs satisfies r. An absent field has the value "",
// so "spec.nodeName=" selects unscheduled pods.
func (r *Requirement) matches(fs Fields) bool {
	if r.Operator == labels.NotEquals {
		return fs.Get(r.Field) != r.Value
	}
	return fs.Get(r.Field) == r.Value
}

func (r *Requirement) String() string {
	op := "="
	if r.Operator == labels.NotEquals {
		op = "!="
	}
	return r.Field + op + EscapeValue(r.Value)
}

// andSelector is the Selector every constructor builds: its terms, ANDed.
type andSelector []Requirement

func (s andSelector) Matches(fs Fields) bool {
	for i := range s {
		if !s[i].matches(fs) {
			return false
		}
	}
	return true
}

func (s andSelector) Empty() bool { return len(s) == 0 }

func (s andSelector) String() string {
	parts := make([]string, len(s))
	for i := range s {
		parts[i] = s[i].String()
	}
	return strings.Join(parts, ",")
}

func (s andSelector) Requirements() []Requirement { return s }

func (s andSelector) RequiresExactMatch(field string) (string, bool) {
	for _, r := range s {
		if r.Field == field && r.Operator == labels.Equals {
			return r.Value, true
		}
	}
	return "", false
}

// Everything returns the selector with no terms, which matches every object.
func Everything() Selector { return andSelector(nil) }

// OneTermEqualSelector returns the selector field=value.
func OneTermEqualSelector(field, value string) Selector {
	return andSelector{{Operator: labels.Equals, Field: field, Value: value}}
}

// SelectorFromSet returns a selector requiring field=value for each entry,
// in field order.
func SelectorFromSet(ls Set) Selector {
	s := make(andSelector, 0, len(ls))
	for _, field := range slices.Sorted(maps.Keys(ls)) {
		s = append(s, Requirement{Operator: labels.Equals, Field: field, Value: ls[field]})
	}
	return s
}

// ParseSelector reads a field selector: terms separated by unescaped commas,
// each "field=value", "field==value" or "field!=value", with the value
// escaped as EscapeValue does. The operator is the first "!=", "==" or "="
// in a term, so a field name cannot contain one.
//
// As in Kubernetes, the terms are sorted as written before they are read, so
// of several bad terms the first in sorted order is reported, and String
// prints them in that order; a term with neither field nor value ("", "=",
// "!=") selects everything and is dropped.
func ParseSelector(selector string) (Selector, error) {
	var s andSelector
	terms := splitTerms(selector)
	slices.Sort(terms)
	for _, term := range terms {
		if term == "" {
			continue
		}
		field, op, rawValue, ok := splitTerm(term)
		if !ok {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", selector, term)
		}
		value, err := UnescapeValue(rawValue)
		if err != nil {
			return nil, err
		}
		if field == "" && value == "" {
			continue
		}
		s = append(s, Requirement{Operator: op, Field: field, Value: value})
	}
	return s, nil
}

// splitTerms splits at each comma that is not escaped by a backslash.
func splitTerms(selector string) []string {
	if selector == "" {
		return nil
	}
	var terms []string
	start, escaped := 0, false
	for i := 0; i < len(selector); i++ {
		switch {
		case escaped:
			escaped = false
		case selector[i] == '\\':
			escaped = true
		case selector[i] == ',':
			terms = append(terms, selector[start:i])
			start = i + 1
		}
	}
	return append(terms, selector[start:])
}

// splitTerm finds the first operator in term. "!=" and "==" are tried
// before "=" at each position, so "a!=b" is not read as the field "a!".
func splitTerm(term string) (field string, op labels.Operator, value string, ok bool) {
	for i := 0; i < len(term); i++ {
		rest := term[i:]
		switch {
		case strings.HasPrefix(rest, "!="):
			return term[:i], labels.NotEquals, rest[2:], true
		case strings.HasPrefix(rest, "=="):
			return term[:i], labels.Equals, rest[2:], true
		case rest[0] == '=':
			return term[:i], labels.Equals, rest[1:], true
		}
	}
	return "", "", "", false
}
