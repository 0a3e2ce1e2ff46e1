// options.go: constructing a node's runtime.
//
//	Options{Clock, NodeName, PodCIDR, Arch, RequestTimeout, ImageFsCapacityBytes, Trace}
//	New(opts) (*Runtime, error)
//
// This is where containerd's configuration (the sandbox image, the CNI's pod subnet, the node's
// platform) and the kubelet's --runtime-request-timeout meet: in kubesim the kubelet builds its runtime.

package fakeruntime

import (
	"time"

	"kubesim/clock"
	"kubesim/trace"
)

// Options configure a Runtime. Clock is required.
type Options struct {
	// Clock is the cluster's clock: pulls, stops and faults wait on it, and container behaviour is a
	// function of its Now.
	Clock clock.Clock
	// NodeName names the node in trace lines and seeds the IDs, so two nodes never share an ID.
	NodeName string
	// PodCIDR is the node's spec.podCIDR ("10.244.1.0/24"); the CNI plugin (host-local IPAM) hands
	// out pod IPs from it. Empty: the network is not ready until UpdateRuntimeConfig gives one.
	PodCIDR string
	// Arch is the node's CPU architecture, "amd64" (default) or "arm64": a pull picks the matching
	// entry of a multi-arch image and fails on an image built for another platform.
	Arch string
	// RequestTimeout is the deadline the kubelet's gRPC client puts on every call
	// (--runtime-request-timeout, default 2m): a hung runtime fails calls with DeadlineExceeded
	// after this much cluster time.
	RequestTimeout time.Duration
	// ImageFsCapacityBytes is the size of the image filesystem (default 100Gi).
	ImageFsCapacityBytes uint64
	// Trace receives one line per sandbox, pull, container start and exit; nil records nothing.
	Trace *trace.Recorder
	// Preloaded are images already in the node's store besides the pause image, as `kubeadm config
	// images pull` leaves them on a control-plane node (references the catalogue holds).
	Preloaded []string
	// ServerLog, if set, is the log of a server the runtime cannot make up itself: a kubeadm
	// component (KubeadmImages: the control plane, kube-proxy, CoreDNS), whose log is what the
	// component recorded up to until. Its lines join the container's own.
	ServerLog func(server string, until time.Time) []LogLine
}

// Defaults for Options.
const (
	DefaultArch                 = "amd64"
	DefaultRequestTimeout       = 2 * time.Minute
	DefaultImageFsCapacityBytes = 100 << 30
)
