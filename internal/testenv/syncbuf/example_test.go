package syncbuf_test

import (
	"fmt"
	"sync"

	"kubesim/internal/testenv/syncbuf"
)

// Goroutines write while the test may read: String sees whole writes, never half of one.
func ExampleBuffer() {
	var buf syncbuf.Buffer
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Fprint(&buf, "line\n")
		}()
	}
	wg.Wait()
	fmt.Print(buf.String())
	// Output:
	// line
	// line
	// line
}
