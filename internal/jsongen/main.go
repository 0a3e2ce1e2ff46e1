// Command jsongen writes api/zz_generated.json.go: for every type reachable from a kind registered in
// package api, a function appending the type's JSON, byte for byte what encoding/json writes, which
// api.Encode uses instead of json.Marshal's reflection (the largest single cost of a pod create). It
// reads the types by reflection, so it imports api, and is built with the tag apigen, which leaves the
// generated files out of api: a file gone stale after a change of type does not stop its regeneration.
//
// Run it with go generate (api/encode.go holds the directive):
//
//	go generate ./api
//
// which runs, in api's directory, "go run -tags apigen kubesim/internal/jsongen -o zz_generated.json.go".
// The output is formatted and the same for the same types; a test of this package fails when the
// file in api differs from what it would write now.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "zz_generated.json.go", "the file to write")
	flag.Parse()
	src, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsongen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "jsongen:", err)
		os.Exit(1)
	}
}
