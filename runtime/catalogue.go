// catalogue.go: the registries kubesim's nodes can pull from, and what is in them.
//
//	catalogue                 every repository, its tags, platforms and sizes
//	lookupCatalogue(ref)      the entry a normalised reference names, or nil
//	pullDuration(size)        how long a pull takes: resolving, then downloading at registryBandwidth
//	catalogueHint()           kubesim's note on a failed pull: every image the registries hold
//
// Three registries exist: docker.io (official images), registry.k8s.io (the pause image, and the
// images kubeadm v1.34 runs in kube-system: KubeadmImages) and
// registry.example.com (a private repository that needs credentials, and a legacy image built for
// amd64 only). Any other host does not resolve. The sizes are the compressed sizes containerd reports
// and the kubelet prints in "Successfully pulled image ... Image size: N bytes" (kubeadm's to about a
// megabyte: nothing a learner reads depends on them).

package fakeruntime

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"
)

// catalogueImage is one image in a registry, which may carry several tags (nginx:1.27 is also
// nginx:latest).
type catalogueImage struct {
	repo      string   // docker.io/library/nginx
	tags      []string // 1.27, latest
	version   string   // what the image contains, e.g. nginx 1.27.3; distinguishes image IDs
	family    string   // which behaviour it has once started (behavior.go)
	platforms []string // architectures in its manifest list
	size      uint64   // compressed bytes
	private   bool     // needs PrivateRegistryUsername/Password
	system    bool     // the control plane's: left out of catalogueHint, which lists what to run
}

// Credentials accepted by the private registry registry.example.com.
const (
	PrivateRegistryServer   = "registry.example.com"
	PrivateRegistryUsername = "kubesim"
	PrivateRegistryPassword = "s3cr3t"
)

var multiArch = []string{"amd64", "arm64"}

// catalogue lists every pullable image, ordered by repository.
var catalogue = []catalogueImage{
	{repo: "docker.io/library/busybox", tags: []string{"1.36"}, version: "1.36.1", family: "busybox", platforms: multiArch, size: 2_155_185},
	{repo: "docker.io/library/busybox", tags: []string{"1.37", "latest"}, version: "1.37.0", family: "busybox", platforms: multiArch, size: 2_166_802},
	{repo: "docker.io/library/httpd", tags: []string{"2.4", "latest"}, version: "2.4.62", family: "httpd", platforms: multiArch, size: 58_358_812},
	{repo: "docker.io/library/nginx", tags: []string{"1.25"}, version: "1.25.5", family: "nginx", platforms: multiArch, size: 70_983_496},
	{repo: "docker.io/library/nginx", tags: []string{"1.26"}, version: "1.26.2", family: "nginx", platforms: multiArch, size: 72_080_558},
	{repo: "docker.io/library/nginx", tags: []string{"1.27", "latest"}, version: "1.27.3", family: "nginx", platforms: multiArch, size: 72_955_450},
	{repo: "docker.io/library/redis", tags: []string{"7.2"}, version: "7.2.6", family: "redis", platforms: multiArch, size: 45_412_087},
	{repo: "docker.io/library/redis", tags: []string{"7.4", "latest"}, version: "7.4.1", family: "redis", platforms: multiArch, size: 45_931_570},
	{repo: "registry.example.com/legacy/app", tags: []string{"1.0"}, version: "1.0.0", family: "app", platforms: []string{"amd64"}, size: 31_457_280},
	{repo: "registry.example.com/private/app", tags: []string{"1.0"}, version: "1.0.0", family: "app", platforms: multiArch, size: 26_214_400, private: true},
	{repo: "registry.k8s.io/coredns/coredns", tags: []string{"v1.12.1"}, version: "v1.12.1", family: "coredns", platforms: multiArch, system: true, size: 20_900_000},
	{repo: "registry.k8s.io/etcd", tags: []string{"3.6.4-0"}, version: "3.6.4", family: "etcd", platforms: multiArch, system: true, size: 23_100_000},
	{repo: "registry.k8s.io/kube-apiserver", tags: []string{"v1.34.1"}, version: "v1.34.1", family: "kube-apiserver", platforms: multiArch, system: true, size: 27_400_000},
	{repo: "registry.k8s.io/kube-controller-manager", tags: []string{"v1.34.1"}, version: "v1.34.1", family: "kube-controller-manager", platforms: multiArch, system: true, size: 22_800_000},
	{repo: "registry.k8s.io/kube-proxy", tags: []string{"v1.34.1"}, version: "v1.34.1", family: "kube-proxy", platforms: multiArch, system: true, size: 31_200_000},
	{repo: "registry.k8s.io/kube-scheduler", tags: []string{"v1.34.1"}, version: "v1.34.1", family: "kube-scheduler", platforms: multiArch, system: true, size: 17_400_000},
	{repo: "registry.k8s.io/pause", tags: []string{"3.10"}, version: "3.10", family: "pause", platforms: multiArch, size: 320_368},
}

// KubeadmImages are the images kubeadm v1.34 runs in kube-system, by component (kubeadm config images
// list): the control plane's static pods and the coredns and kube-proxy add-ons.
var KubeadmImages = map[string]string{
	"coredns":                 "registry.k8s.io/coredns/coredns:v1.12.1",
	"etcd":                    "registry.k8s.io/etcd:3.6.4-0",
	"kube-proxy":              "registry.k8s.io/kube-proxy:v1.34.1",
	"kube-apiserver":          "registry.k8s.io/kube-apiserver:v1.34.1",
	"kube-controller-manager": "registry.k8s.io/kube-controller-manager:v1.34.1",
	"kube-scheduler":          "registry.k8s.io/kube-scheduler:v1.34.1",
}

// knownRegistries are the hosts that resolve.
var knownRegistries = []string{"docker.io", "registry.example.com", "registry.k8s.io"}

// Pull timing: a registry round trip to resolve the manifest, then the layers at a fixed bandwidth.
// nginx (73 MB) takes about 3.4s, busybox about 0.6s.
const (
	resolveLatency    = 500 * time.Millisecond
	registryBandwidth = 25_000_000 // bytes per second
)

func pullDuration(size uint64) time.Duration {
	d := resolveLatency + time.Duration(size)*time.Second/registryBandwidth
	return d.Round(time.Millisecond)
}

// lookupCatalogue returns the image ref names (by tag or by digest), or nil.
func lookupCatalogue(ref reference) *catalogueImage {
	for i := range catalogue {
		img := &catalogue[i]
		if img.repo != ref.repo() {
			continue
		}
		if ref.digest != "" && ref.digest == img.indexDigest() || ref.tag != "" && slices.Contains(img.tags, ref.tag) {
			return img
		}
	}
	return nil
}

// catalogueHint is what kubesim adds, after containerd's own words, to a pull that failed because
// the image is nowhere in the simulated registries: a learner who wrote redis:7 cannot search Docker
// Hub for what exists here. Names are written as a manifest would (nginx:1.27 for
// docker.io/library/nginx:1.27), every tag of an image separately.
func catalogueHint() string {
	var names []string
	for _, img := range catalogue {
		if img.system {
			continue
		}
		repo := strings.TrimPrefix(img.repo, "docker.io/library/")
		for _, tag := range img.tags {
			names = append(names, repo+":"+tag)
		}
	}
	return "(kubesim hint: this image is not in kubesim's simulated registries, which hold only " + strings.Join(names, ", ") + ")"
}

// repoExists reports whether any image lives in ref's repository.
func repoExists(ref reference) bool {
	return slices.ContainsFunc(catalogue, func(c catalogueImage) bool { return c.repo == ref.repo() })
}

// repoPrivate reports whether ref's repository needs credentials.
func repoPrivate(ref reference) bool {
	return slices.ContainsFunc(catalogue, func(c catalogueImage) bool { return c.repo == ref.repo() && c.private })
}

// imageID is the digest of the image's config for the node's platform: what containerd calls the
// image ID and the kubelet's imageRef.
func (c *catalogueImage) imageID(arch string) string {
	return "sha256:" + hash(c.repo+"@"+c.version+"/"+arch)
}

// indexDigest is the digest of the manifest list, the same on every platform: what RepoDigests and
// a pod's status.containerStatuses[].imageID show.
func (c *catalogueImage) indexDigest() string {
	return "sha256:" + hash(c.repo+"@"+c.version)
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
