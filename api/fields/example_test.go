package fields_test

import (
	"fmt"

	"kubesim/api/fields"
)

// A kubelet lists only the pods bound to its node; the apiserver sees the
// exact match on spec.nodeName and can use its index.
func Example() {
	sel, err := fields.ParseSelector("status.phase!=Succeeded,spec.nodeName=node-1")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel)
	fmt.Println(sel.RequiresExactMatch("spec.nodeName"))
	fmt.Println(sel.Matches(fields.Set{"spec.nodeName": "node-1", "status.phase": "Running"}))

	// ',' and '=' inside a value are escaped with a backslash.
	fmt.Println(fields.OneTermEqualSelector("metadata.name", "a=b"))
	// Output:
	// spec.nodeName=node-1,status.phase!=Succeeded
	// node-1 true
	// true
	// metadata.name=a\=b
}
