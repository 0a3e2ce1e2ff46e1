// Package syncbuf is the buffer a test hands to code that writes from goroutines of its own (etcd's
// logger, a server's terminal, a command's output) and reads while they may still write.
//
//	Buffer    Write from any goroutine; String at any moment
//
// It imports nothing of kubesim, so that any package's tests can use it, the store's included.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent use. The zero value is ready.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer // guarded by mu
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
