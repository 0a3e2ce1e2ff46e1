// Package waiting lets more of a package's parallel tests run at once than there are CPUs, for the
// packages whose slow tests mostly wait on the wall clock (etcd's elections and request timeouts, a
// cluster served in real time, a child process) rather than compute.
//
// go test runs at most -parallel tests of a package side by side, GOMAXPROCS by default: on a 2-core
// machine, two tests that each sleep through an etcd election hold the package, and the go command's
// other work, for their sum. A package's TestMain calls Allow before m.Run.
package waiting

import (
	"flag"
	"strconv"
)

// Allow sets -test.parallel to n unless the command line set it: the caller's parallel tests mostly
// wait, so n of them run side by side.
func Allow(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}
