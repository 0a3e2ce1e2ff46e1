package scenarios_test

import (
	"fmt"

	"kubesim/scenarios"
)

// A scenario is looked up by name, as `kubesim describe crash-loop` does.
func ExampleLookup() {
	sc, _ := scenarios.Lookup("crash-loop")
	fmt.Println(sc.Name)
	fmt.Println(sc.Summary)
	// Output:
	// crash-loop
	// a container that exits 1 right after it starts: restarts with back-off 10s, 20s, 40s ... up to 5m, CrashLoopBackOff
}
