// parser.go reads selector syntax, the form of `kubectl get -l` and of the
// labelSelector query parameter. Interface: Parse.
//
//	selector    = [ requirement { "," requirement } ]
//	requirement = [ "!" ] key
//	            | key ( "=" | "==" | "!=" ) [ value ]
//	            | key ( "in" | "notin" ) "(" [ value ] { "," [ value ] } ")"
//	            | key ( ">" | "<" ) integer
//
// Whitespace between tokens is ignored. A value may be empty ("a=", "a in
// (,x)"), which matches a label whose value is "". The words "in" and
// "notin" are operators after a key and plain words where a key or a value
// is expected ("in in (in)" is valid). As in Kubernetes' lexer, a NUL byte
// where a token starts ends the selector, and one right after a token is
// skipped.
package labels

import (
	"fmt"
	"slices"
	"strings"

	"kubesim/api/field"
)

// Parse reads a label selector, validating every key and value. An empty
// string selects everything. Errors use Kubernetes' wording ("found ',',
// expected: identifier", where the end of the selector is an empty quoted
// literal), and syntax errors add the 1-based position of the offending
// token.
func Parse(selector string) (Selector, error) {
	p := parser{lex: lexer{s: selector}}
	reqs, err := p.parse()
	if err != nil {
		return nil, err
	}
	return newSelector(reqs), nil
}

type tokenKind int

const (
	endOfString tokenKind = iota
	identifier
	bang         // !
	notEquals    // !=
	equals       // =
	doubleEquals // ==
	greaterThan  // >
	lessThan     // <
	openParen    // (
	closeParen   // )
	comma        // ,
)

type token struct {
	kind tokenKind
	text string
	pos  int // byte offset in the selector
}

// describe names a token in an error message, as Kubernetes quotes its
// literal; the end of the selector is the empty literal.
func (t token) describe() string { return "'" + t.text + "'" }

// lexer splits a selector into tokens. An identifier is any run of
// characters other than whitespace and the symbols ! = ( ) , > <, so keys
// and values are checked by validation, not by the lexer.
type lexer struct {
	s   string
	pos int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSymbol(c byte) bool { return strings.IndexByte("!=(),><", c) >= 0 }

func (l *lexer) next() token {
	for l.pos < len(l.s) && isSpace(l.s[l.pos]) {
		l.pos++
	}
	start := l.pos
	if start == len(l.s) || l.s[start] == 0 {
		return token{kind: endOfString, pos: start}
	}
	kind := identifier
	switch l.s[start] {
	case '!':
		kind = bang
		if l.peekByte(1) == '=' {
			kind = notEquals
		}
	case '=':
		kind = equals
		if l.peekByte(1) == '=' {
			kind = doubleEquals
		}
	case '>':
		kind = greaterThan
	case '<':
		kind = lessThan
	case '(':
		kind = openParen
	case ')':
		kind = closeParen
	case ',':
		kind = comma
	}
	switch kind {
	case identifier:
		for l.pos < len(l.s) && !isSpace(l.s[l.pos]) && !isSymbol(l.s[l.pos]) && l.s[l.pos] != 0 {
			l.pos++
		}
	case notEquals, doubleEquals:
		l.pos += 2
	default:
		l.pos++
	}
	t := token{kind: kind, text: l.s[start:l.pos], pos: start}
	if l.pos < len(l.s) && l.s[l.pos] == 0 {
		l.pos++
	}
	return t
}

func (l *lexer) peekByte(offset int) byte {
	if l.pos+offset < len(l.s) {
		return l.s[l.pos+offset]
	}
	return 0
}

// parser is a recursive-descent parser with one token of lookahead.
type parser struct {
	lex lexer
	// next is the lookahead token when hasNext is set.
	next    token
	hasNext bool
}

func (p *parser) peek() token {
	if !p.hasNext {
		p.next, p.hasNext = p.lex.next(), true
	}
	return p.next
}

func (p *parser) consume() token {
	t := p.peek()
	p.hasNext = false
	return t
}

// unexpected is the one shape of every syntax error.
func unexpected(t token, expected string) error {
	return fmt.Errorf("found %s, expected: %s (at position %d)", t.describe(), expected, t.pos+1)
}

func (p *parser) parse() ([]Requirement, error) {
	var reqs []Requirement
	for {
		switch t := p.peek(); t.kind {
		case endOfString:
			return reqs, nil
		case identifier, bang:
			r, err := p.parseRequirement()
			if err != nil {
				return nil, fmt.Errorf("unable to parse requirement: %w", err)
			}
			reqs = append(reqs, *r)
			switch t := p.consume(); t.kind {
			case endOfString:
				return reqs, nil
			case comma:
				if next := p.peek(); next.kind != identifier && next.kind != bang {
					return nil, unexpected(next, "identifier after ','")
				}
			default:
				return nil, unexpected(t, "',' or 'end of string'")
			}
		default:
			return nil, unexpected(t, "!, identifier, or 'end of string'")
		}
	}
}

func (p *parser) parseRequirement() (*Requirement, error) {
	negated := p.peek().kind == bang
	if negated {
		p.consume()
	}
	key := p.consume()
	if key.kind != identifier {
		return nil, unexpected(key, "identifier")
	}
	// Kubernetes checks the key as soon as it reads it, before the operator,
	// and names no field: "<nil>: Invalid value: ...".
	if errs := IsQualifiedName(key.text); len(errs) > 0 {
		return nil, field.Invalid(nil, key.text, strings.Join(errs, "; "))
	}
	if next := p.peek(); negated || next.kind == endOfString || next.kind == comma {
		// "!key" or a bare "key"; whatever follows "!key" must end the term,
		// which parse checks.
		op := Exists
		if negated {
			op = DoesNotExist
		}
		return NewRequirement(key.text, op, nil)
	}
	op, err := p.parseOperator()
	if err != nil {
		return nil, err
	}
	var values []string
	if op == In || op == NotIn {
		values, err = p.parseValueList()
	} else {
		values, err = p.parseExactValue()
	}
	if err != nil {
		return nil, err
	}
	// Kubernetes collects the values in a set: sorted, each once.
	return NewRequirement(key.text, op, slices.Compact(slices.Sorted(slices.Values(values))))
}

func (p *parser) parseOperator() (Operator, error) {
	t := p.consume()
	switch t.kind {
	case equals:
		return Equals, nil
	case doubleEquals:
		return DoubleEquals, nil
	case notEquals:
		return NotEquals, nil
	case greaterThan:
		return GreaterThan, nil
	case lessThan:
		return LessThan, nil
	case identifier:
		switch t.text {
		case string(In):
			return In, nil
		case string(NotIn):
			return NotIn, nil
		}
	}
	return "", unexpected(t, "in, notin, =, ==, !=, gt, lt")
}

// parseExactValue reads the value after =, ==, !=, > or <; a missing value
// is the empty string.
func (p *parser) parseExactValue() ([]string, error) {
	if t := p.peek(); t.kind == endOfString || t.kind == comma {
		return []string{""}, nil
	}
	t := p.consume()
	if t.kind != identifier {
		return nil, unexpected(t, "identifier")
	}
	return []string{t.text}, nil
}

// parseValueList reads "(a,b)". Empty items are the empty string, so "()"
// is the set {""}, as in Kubernetes. It follows Kubernetes' list reader
// step by step, including its quirk: two commas right after an item or the
// opening parenthesis must be followed by a value or a third comma, so
// "(,,)" is an error where "(,,,)" and "(a,,b)" are not.
func (p *parser) parseValueList() ([]string, error) {
	if t := p.consume(); t.kind != openParen {
		return nil, fmt.Errorf("found %s expected: '(' (at position %d)", t.describe(), t.pos+1)
	}
	switch t := p.peek(); t.kind {
	case closeParen:
		p.consume()
		return []string{""}, nil
	case identifier, comma:
	default:
		return nil, unexpected(t, "',', ')' or identifier")
	}
	var values []string
	for {
		switch t := p.consume(); t.kind {
		case identifier:
			values = append(values, t.text)
			switch next := p.peek(); next.kind {
			case comma:
			case closeParen:
				p.consume()
				return values, nil
			default:
				return nil, unexpected(next, "',' or ')'")
			}
		case comma:
			if len(values) == 0 {
				values = append(values, "")
			}
			switch next := p.peek(); next.kind {
			case closeParen:
				p.consume()
				return append(values, ""), nil
			case comma:
				p.consume()
				values = append(values, "")
			}
		default:
			return nil, unexpected(t, "',', or identifier")
		}
	}
}
