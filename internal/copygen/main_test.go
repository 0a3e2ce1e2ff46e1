// main_test.go: the generated file in package api is what the generator writes now.
package main

import (
	"bytes"
	"os"
	"testing"
)

// A type added to or changed in package api, or a change to the generator, leaves
// api/zz_generated.copy.go stale: the kind still works (by reflection) but is slower, and a type
// the file names may no longer be what it says. The file must be exactly what generate writes.
func TestGeneratedFileIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../api/zz_generated.copy.go")
	if err != nil {
		t.Fatalf("%v: run go generate ./api", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("api/zz_generated.copy.go is not what internal/copygen writes: run go generate ./api")
	}
}

// Running the generator twice writes the same bytes (it sorts what reflection and maps give it in
// no fixed order).
func TestGenerateIsDeterministic(t *testing.T) {
	first, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, err := generate()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatal("two runs of generate wrote different code")
		}
	}
}
