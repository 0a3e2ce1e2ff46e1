package labels

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSetStringIsSortedSelectorSyntax(t *testing.T) {
	s := Set{"tier": "frontend", "app": "web"}
	assert.Equal(t, "app=web,tier=frontend", s.String())
	assert.Equal(t, "", Set{}.String())
	assert.True(t, s.Has("app"))
	assert.False(t, s.Has("env"))
	assert.Equal(t, "web", s.Get("app"))
	assert.Equal(t, "", Set(nil).Get("app"))
}
