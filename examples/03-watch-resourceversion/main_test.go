package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. The informer lists: ADDED nginx@23; it watches from resourceVersion 23.
	// 2. kubectl scale: the watch tells MODIFIED nginx@24.
	// 3. Watch broken, history compacted: the informer relisted 1 time(s) and was told MODIFIED nginx@25.
	//   0s        my-controller             my-controller deployments informer: watch from resourceVersion 24 answered 410 Gone (too old resource version: 24 (25)): listing everything again
}
