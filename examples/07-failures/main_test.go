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
	//   700ms     kubelet/node-1            event Warning Failed: Error: ImagePullBackOff
	// 2. A container that exits with code 1: after 4 restarts it waits in CrashLoopBackOff.
	//   1.286s    kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1)
	//   16s       kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1) (x2)
	//   29s       kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1) (x3)
	//   40s       kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1) (x4)
	//   54s       kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1) (x5)
	//   1m7s      kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1) (x6)
	//   1m21s     kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1) (x7)
	//   1m33s     kubelet/node-1            event Warning BackOff: Back-off restarting failed container app in pod crasher_default(28150a31-4efc-4309-8241-3fcc8e0b06d1) (x8)
}
