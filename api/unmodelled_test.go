package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A field listed as unmodelled is one kubesim's type does not have: a field that is modelled must
// leave the list, or the list tells a reader the simulation ignores what it simulates.
func TestNoUnmodelledFieldIsModelled(t *testing.T) {
	for typ, names := range unmodelled {
		fields := jsonFields(typ)
		for _, name := range names {
			_, modelled := fields[name]
			assert.False(t, modelled, "%s.%s is modelled but listed in unmodelled.go", typ.Name(), name)
		}
	}
}
