package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. deployment nginx: resourceVersion 72 = etcd ModRevision 72 of /registry/deployments/default/nginx
	// 2. Three running pods later, etcd holds 3 pod keys under /registry/pods/default/:
	//      /registry/pods/default/nginx-685df88ff7-hjlnt (ModRevision 116)
	//      /registry/pods/default/nginx-685df88ff7-j7kx9 (ModRevision 104)
	//      /registry/pods/default/nginx-685df88ff7-jt6n9 (ModRevision 110)
	// 3. One more replica took 0s with a fast disk; with every write waiting 500ms for fsync, 16.5s (5 available now).
	//   3.539s    kubesim                   etcd's disk is slow: every write now waits 500ms for fsync
}
