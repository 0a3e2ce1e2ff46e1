package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. deployment nginx: resourceVersion 78 = etcd ModRevision 78 of /registry/deployments/default/nginx
	// 2. Three running pods later, etcd holds 3 pod keys under /registry/pods/default/:
	//      /registry/pods/default/nginx-77bf8679f9-hdjsh (ModRevision 109)
	//      /registry/pods/default/nginx-77bf8679f9-q7xsn (ModRevision 115)
	//      /registry/pods/default/nginx-77bf8679f9-r45th (ModRevision 121)
	// 3. One more replica took 0s with a fast disk; with every write waiting 500ms for fsync, 18s (5 available now).
	//   3.539s    kubesim                   etcd's disk is slow: every write now waits 500ms for fsync
}
