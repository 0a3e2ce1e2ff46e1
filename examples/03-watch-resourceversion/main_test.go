package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. The informer lists: ADDED nginx@35; it watches from resourceVersion 35.
	// 2. kubectl scale: the watch tells MODIFIED nginx@36.
	// 3. Watch broken, history compacted: the informer relisted 1 time(s) and was told MODIFIED nginx@37.
	//   0s        my-controller             my-controller deployments informer: watch from resourceVersion 36 answered 410 Gone (too old resource version: 36 (37)): listing everything again
}
