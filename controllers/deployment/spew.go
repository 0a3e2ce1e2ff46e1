// spew.go: the text the pod-template-hash is taken over. Kubernetes hashes go-spew's "%#v" print of
// the k8s.io/api/core/v1.PodTemplateSpec struct (k8s.io/apimachinery/pkg/util/dump.ForHash); kubesim
// has no such struct, so it prints the same text by walking the struct's layout (layout.go, generated
// from k8s.io/api v0.34.1 by difftest/deployment) alongside the template's JSON.
//
//	templateText(template) string
package deployment

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"kubesim/api"
)

// goKind is how go-spew prints a value of a type.
type goKind uint8

const (
	kindStruct goKind = iota
	kindPtr
	kindSlice
	kindMap // keys are strings, printed in sorted order
	kindString
	kindBool
	kindInt
	kindUint
	kindQuantity    // resource.Quantity, printed through its private fields (quantityText)
	kindTime        // metav1.Time
	kindIntOrString // intstr.IntOrString
)

// goType is one Go type of k8s.io/api as go-spew prints it.
type goType struct {
	name   string    // the type's name as spew prints it: "v1.PodSpec", "*int64", "[]v1.Container"
	kind   goKind    //
	elem   int       // a pointer's, slice's or map's element: an index into podTemplateLayout
	fields []goField // a struct's fields in declaration order
}

// goField is one field of a struct: its Go name, which spew prints, and its key in the JSON ("" when
// an embedded struct's fields sit inline in the parent's JSON, "-" when it has none).
type goField struct {
	name string
	json string
	typ  int
}

// templateText prints a template as Kubernetes v1.34's kube-controller-manager hashes it: go-spew's
// "%#v" (ConfigState{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true,
// DisablePointerAddresses: true, DisableCapacities: true}) of the v1.PodTemplateSpec it decoded
// from the apiserver, so with the apiserver's defaults in place.
//
// The template's JSON stands for the struct: a field that is absent prints as the struct would hold
// it, its zero value; an empty list or map prints <nil>, as the controller reads it from protobuf,
// which does not tell an empty list from none. Fields kubesim does not model are absent, except
// those the apiserver's defaulting sets on every template (withUnmodelledDefaults).
func templateText(template *api.PodTemplateSpec) string {
	b, err := json.Marshal(template)
	if err != nil {
		panic("deployment: a pod template that does not marshal: " + err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic("deployment: a pod template's JSON that does not decode: " + err.Error())
	}
	withUnmodelledDefaults(v)
	var p spewPrinter
	p.Grow(4 << 10) // a template of one container prints about 3 KB
	p.print(&podTemplateLayout[0], v, true)
	return p.String()
}

// withUnmodelledDefaults sets what the apiserver puts into fields that kubesim's types do not have:
// the defaults of SetDefaults_PodSpec and SetDefaults_Container (the pod's securityContext {}, each
// container's terminationMessagePath and terminationMessagePolicy), and serviceAccount, the
// deprecated alias that the conversion to v1 fills from serviceAccountName.
func withUnmodelledDefaults(template any) {
	spec, _ := object(template)["spec"].(map[string]any)
	if spec == nil {
		return
	}
	if _, ok := spec["securityContext"]; !ok {
		spec["securityContext"] = map[string]any{}
	}
	if _, ok := spec["serviceAccount"]; !ok {
		spec["serviceAccount"] = spec["serviceAccountName"]
	}
	for _, list := range []string{"initContainers", "containers"} {
		containers, _ := spec[list].([]any)
		for _, c := range containers {
			c := object(c)
			if c == nil {
				continue
			}
			if _, ok := c["terminationMessagePath"]; !ok {
				c["terminationMessagePath"] = "/dev/termination-log"
			}
			if _, ok := c["terminationMessagePolicy"]; !ok {
				c["terminationMessagePolicy"] = "File"
			}
		}
	}
}

func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// spewPrinter writes values as go-spew's formatter does for "%#v". typed says whether the value's
// type is printed before it, "(v1.Protocol)TCP": spew leaves it out for the elements of a list and
// the keys and values of a map, and for what a pointer points to.
type spewPrinter struct{ strings.Builder }

func (p *spewPrinter) print(t *goType, v any, typed bool) {
	switch t.kind {
	case kindPtr:
		if v == nil {
			p.typeName(t, typed)
			p.WriteString("<nil>")
			return
		}
		if typed {
			p.typeName(t, true)
		} else {
			p.WriteString("<*>")
		}
		p.print(&podTemplateLayout[t.elem], v, false)
		return
	case kindSlice:
		p.typeName(t, typed)
		list, _ := v.([]any)
		if len(list) == 0 {
			p.WriteString("<nil>")
			return
		}
		p.WriteByte('[')
		for i, e := range list {
			if i > 0 {
				p.WriteByte(' ')
			}
			p.print(&podTemplateLayout[t.elem], e, false)
		}
		p.WriteByte(']')
		return
	case kindMap:
		p.typeName(t, typed)
		m := object(v)
		if len(m) == 0 {
			p.WriteString("<nil>")
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		p.WriteString("map[")
		for i, k := range keys {
			if i > 0 {
				p.WriteByte(' ')
			}
			p.WriteString(k)
			p.WriteByte(':')
			p.print(&podTemplateLayout[t.elem], m[k], false)
		}
		p.WriteByte(']')
		return
	}
	p.typeName(t, typed)
	switch t.kind {
	case kindStruct:
		m := object(v)
		p.WriteByte('{')
		for i, f := range t.fields {
			if i > 0 {
				p.WriteByte(' ')
			}
			p.WriteString(f.name)
			p.WriteByte(':')
			var fv any
			switch f.json {
			case "":
				fv = v
			case "-":
			default:
				fv = m[f.json]
			}
			p.print(&podTemplateLayout[f.typ], fv, true)
		}
		p.WriteByte('}')
	case kindString:
		s, _ := v.(string)
		p.WriteString(s)
	case kindBool:
		b, _ := v.(bool)
		p.WriteString(strconv.FormatBool(b))
	case kindInt, kindUint:
		n, _ := v.(json.Number)
		if n == "" {
			n = "0"
		}
		p.WriteString(n.String())
	case kindQuantity:
		s, _ := v.(string)
		p.WriteString(quantityText(s))
	case kindTime:
		// A template's creationTimestamp is null; a set one would print the controller's time zone
		// (time.Time.Local), which kubesim cannot know, so it prints as null too.
		p.WriteString("{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}")
	case kindIntOrString:
		switch x := v.(type) {
		case string:
			p.WriteString("{Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)" + x + "}")
		case json.Number:
			p.WriteString("{Type:(intstr.Type)0 IntVal:(int32)" + x.String() + " StrVal:(string)}")
		default:
			p.WriteString("{Type:(intstr.Type)0 IntVal:(int32)0 StrVal:(string)}")
		}
	}
}

func (p *spewPrinter) typeName(t *goType, typed bool) {
	if typed {
		p.WriteByte('(')
		p.WriteString(t.name)
		p.WriteByte(')')
	}
}

// quantityText prints the resource.Quantity that k8s.io/apimachinery v0.34.1's ParseQuantity makes of
// s, a quantity as the apiserver writes it (kube-controller-manager decodes each quantity of a
// Deployment from that text): an int64 amount and scale when the value fits ("100m" is 100 × 10^-3,
// "1Gi" 1073741824 × 10^0), else an inf.Dec of nano-units; the text itself kept as the cached string
// when ParseQuantity judges it canonical ("100m" and "1Gi" yes, "128Mi" no: ParseQuantity keeps a
// binary quantity's text only when the number before the suffix is not a multiple of 8).
func quantityText(s string) string {
	i, dec, cached, format := parseQuantityForHash(s)
	var b strings.Builder
	b.WriteString("{i:(resource.int64Amount){value:(int64)")
	b.WriteString(strconv.FormatInt(i.value, 10))
	b.WriteString(" scale:(resource.Scale)")
	b.WriteString(strconv.Itoa(int(i.scale)))
	b.WriteString("} d:(resource.infDecAmount){Dec:(*inf.Dec)")
	if dec == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString("{unscaled:(big.Int){neg:(bool)")
		b.WriteString(strconv.FormatBool(dec.unscaled.Sign() < 0))
		b.WriteString(" abs:(big.nat)")
		words := dec.unscaled.Bits()
		if words == nil {
			b.WriteString("<nil>")
		} else {
			b.WriteByte('[')
			for k, w := range words {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strconv.FormatUint(uint64(w), 10))
			}
			b.WriteByte(']')
		}
		b.WriteString("} scale:(inf.Scale)")
		b.WriteString(strconv.Itoa(int(dec.scale)))
		b.WriteByte('}')
	}
	b.WriteString("} s:(string)")
	b.WriteString(cached)
	b.WriteString(" Format:(resource.Format)")
	b.WriteString(format)
	b.WriteByte('}')
	return b.String()
}

type int64Amount struct {
	value int64
	scale int32
}

// infDec is an inf.Dec: unscaled × 10^-scale.
type infDec struct {
	unscaled *big.Int
	scale    int32
}

// parseQuantityForHash follows ParseQuantity (k8s.io/apimachinery v0.34.1,
// pkg/api/resource/quantity.go) step by step, keeping what it stores. s is a quantity the apiserver
// accepted, so it parses; anything else yields the zero quantity.
func parseQuantityForHash(s string) (i int64Amount, dec *infDec, cached, format string) {
	if s == "" {
		return int64Amount{}, nil, "", ""
	}
	if s == "0" {
		return int64Amount{}, nil, s, "DecimalSI"
	}
	positive, value, num, denom, suffix := splitQuantity(s)
	base, exponent, format, ok := interpretSuffix(suffix)
	if !ok {
		return int64Amount{}, nil, "", ""
	}
	precision, scale, mantissa := int32(0), int32(0), int64(1)
	switch format {
	case "DecimalExponent", "DecimalSI":
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	case "BinarySI":
		if exponent >= 0 && len(denom) == 0 {
			mantissa = mantissa << uint64(exponent)
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		} else {
			precision = -1
		}
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= -9 {
			shifted := num + denom
			v, err := strconv.ParseInt(shifted, 10, 64)
			if err != nil {
				return int64Amount{}, nil, "", ""
			}
			if result, ok := multiply(v, mantissa); ok {
				if !positive {
					result = -result
				}
				amount := int64Amount{value: result, scale: scale}
				switch {
				case format == "BinarySI" && exponent%10 == 0 && v&0x07 != 0,
					format != "BinarySI" && scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0':
					return amount, nil, s, format
				}
				return amount, nil, "", format
			}
		}
	}

	// The slow path: an inf.Dec, rounded up to nano-units.
	whole, frac, _ := strings.Cut(strings.TrimLeft(value, "+-"), ".")
	unscaled, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return int64Amount{}, nil, "", ""
	}
	decScale := int32(len(frac))
	if base == 10 {
		decScale -= exponent
	} else {
		unscaled.Lsh(unscaled, uint(exponent))
	}
	if unscaled.Sign() != 0 {
		switch {
		case decScale < 9:
			unscaled.Mul(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(9-decScale)), nil))
		case decScale > 9:
			q, r := new(big.Int).QuoRem(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decScale-9)), nil), new(big.Int))
			if r.Sign() != 0 {
				q.Add(q, big.NewInt(1))
			}
			unscaled = q
		}
		decScale = 9
	}
	nano := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decScale)), nil)
	if format == "BinarySI" {
		maxAllowed := new(big.Int).Mul(big.NewInt(1<<63-1), nano)
		if unscaled.Cmp(maxAllowed) > 0 {
			unscaled, decScale = big.NewInt(1<<63-1), 0
		} else if unscaled.Sign() > 0 && unscaled.Cmp(nano) < 0 {
			format = "DecimalSI"
		}
	}
	if !positive {
		unscaled.Neg(unscaled)
	}
	return int64Amount{}, &infDec{unscaled: unscaled, scale: decScale}, "", format
}

// splitQuantity is apimachinery's parseQuantityString for text that parses: the sign, the number as
// written (value), its digits before the point without leading zeros (num), after it (denom), and the
// suffix.
func splitQuantity(s string) (positive bool, value, num, denom, suffix string) {
	positive, pos := true, 0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		positive = s[0] == '+'
		pos++
	}
	for pos < len(s) && s[pos] == '0' {
		pos++
	}
	start := pos
	for pos < len(s) && isDigit(s[pos]) {
		pos++
	}
	num = s[start:pos]
	if num == "" {
		num = "0"
	}
	if pos < len(s) && s[pos] == '.' {
		pos++
		start = pos
		for pos < len(s) && isDigit(s[pos]) {
			pos++
		}
		denom = s[start:pos]
	}
	return positive, s[:pos], num, denom, s[pos:]
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// interpretSuffix is apimachinery's quantitySuffixer.interpret: the base, the power and the format
// a suffix stands for.
func interpretSuffix(suffix string) (base, exponent int32, format string, ok bool) {
	switch suffix {
	case "":
		return 10, 0, "DecimalSI", true
	case "n":
		return 10, -9, "DecimalSI", true
	case "u":
		return 10, -6, "DecimalSI", true
	case "m":
		return 10, -3, "DecimalSI", true
	case "k":
		return 10, 3, "DecimalSI", true
	case "M":
		return 10, 6, "DecimalSI", true
	case "G":
		return 10, 9, "DecimalSI", true
	case "T":
		return 10, 12, "DecimalSI", true
	case "P":
		return 10, 15, "DecimalSI", true
	case "E":
		return 10, 18, "DecimalSI", true
	case "Ki":
		return 2, 10, "BinarySI", true
	case "Mi":
		return 2, 20, "BinarySI", true
	case "Gi":
		return 2, 30, "BinarySI", true
	case "Ti":
		return 2, 40, "BinarySI", true
	case "Pi":
		return 2, 50, "BinarySI", true
	case "Ei":
		return 2, 60, "BinarySI", true
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		if n, err := strconv.ParseInt(suffix[1:], 10, 32); err == nil {
			return 10, int32(n), "DecimalExponent", true
		}
	}
	return 0, 0, "", false
}

// multiply is apimachinery's int64Multiply: a × b, and whether it fits.
func multiply(a, b int64) (int64, bool) {
	switch {
	case a == 0 || b == 0:
		return 0, true
	case a == 1:
		return b, true
	case b == 1:
		return a, true
	case a == -1<<63 || b == -1<<63:
		return 0, false
	}
	c := a * b
	return c, c/b == a
}
