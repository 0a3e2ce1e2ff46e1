package labels_test

import (
	"fmt"

	"kubesim/api/labels"
)

// A Service-style selector picks pods by label; note that a pod without the
// "track" label passes "track notin (canary)".
func Example() {
	sel, err := labels.Parse("app=web, track notin (canary), tier in (frontend,cache)")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel)
	fmt.Println(sel.Matches(labels.Set{"app": "web", "tier": "frontend"}))
	fmt.Println(sel.Matches(labels.Set{"app": "web", "tier": "frontend", "track": "canary"}))

	_, err = labels.Parse("app in web")
	fmt.Println(err)
	// Output:
	// app=web,tier in (cache,frontend),track notin (canary)
	// true
	// false
	// unable to parse requirement: found 'web' expected: '(' (at position 8)
}
