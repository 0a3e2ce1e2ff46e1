package client

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The correlator's memories keep the keys last used, as client-go's LRU caches do: reading a key
// makes it recent, and a new key beyond the limit pushes out the one least recently used.
func TestCorrelatorLRUForgetsTheLeastRecentlyUsedKey(t *testing.T) {
	c := newLRU[correlatorKey, int](2)
	a, b, d := keyOf("a"), keyOf("b"), keyOf("d")
	c.put(a, 1)
	c.put(b, 2)
	_, _ = c.get(a) // a is now the most recent
	c.put(d, 4)
	_, ok := c.get(b)
	assert.False(t, ok, "b was the least recently used")
	v, ok := c.get(a)
	assert.True(t, ok)
	assert.Equal(t, 1, v)
	c.put(d, 5) // an update, not a new key: nothing is pushed out
	v, _ = c.get(d)
	assert.Equal(t, 5, v)
	_, ok = c.get(a)
	assert.True(t, ok)

	many := newLRU[correlatorKey, int](100)
	for i := range 1000 {
		many.put(keyOf(strconv.Itoa(i)), i)
	}
	assert.Len(t, many.items, 100)
	for i := 900; i < 1000; i++ {
		v, ok := many.get(keyOf(strconv.Itoa(i)))
		assert.True(t, ok, i)
		assert.Equal(t, i, v)
	}
}

// A key is made of its fields, not of their concatenation: moving a letter from one field to the
// next makes another key.
func TestCorrelatorKeysKeepFieldsApart(t *testing.T) {
	assert.Equal(t, keyOf("kubelet", "node-1", "Pod"), keyOf("kubelet", "node-1", "Pod"))
	assert.NotEqual(t, keyOf("ab", "c"), keyOf("a", "bc"))
	assert.NotEqual(t, keyOf("Pulled", "msg"), keyOf("Pulled", "msg2"))
}
