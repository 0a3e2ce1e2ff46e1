package waiting_test

import (
	"flag"
	"testing"

	"kubesim/internal/testenv/waiting"
)

// Allow raises -test.parallel unless the command line gave it (go test -parallel N); once set, by
// either, a second Allow leaves it.
func TestAllowSetsParallelUnlessGiven(t *testing.T) {
	parallel := flag.Lookup("test.parallel").Value
	want := "7"
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			want = parallel.String() // given: Allow leaves it
		}
	})
	waiting.Allow(7)
	if got := parallel.String(); got != want {
		t.Fatalf("-test.parallel after Allow(7) = %s, want %s", got, want)
	}
	waiting.Allow(3)
	if got := parallel.String(); got != want {
		t.Fatalf("-test.parallel after a second Allow(3) = %s, want %s, as before", got, want)
	}
}
