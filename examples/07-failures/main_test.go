package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. ngnix:1.25 (a typo): the pull fails, then the kubelet backs off. Read the events:
	//   700ms     kubelet/node-1            event Warning Failed: Failed to pull image "ngnix:1.25": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/ngnix:1.25": failed to resolve reference "docker.io/library/ngnix:1.25": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed
	//   700ms     kubelet/node-1            event Warning Failed: Error: ErrImagePull
	//   1s        kubelet/node-1            event Warning Failed: Error: ImagePullBackOff
	// 2. A container that exits with code 1: after 4 restarts it waits in CrashLoopBackOff.
	//   15.586s   kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45)
	//   31s       kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45) (x2)
	//   42s       kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45) (x3)
	//   55s       kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45) (x4)
	//   1m10s     kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45) (x5)
	//   1m24s     kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45) (x6)
	//   1m38s     kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45) (x7)
	//   1m51s     kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(a3806e48-1200-47d2-b7cd-9db591130a45) (x8)
}
