package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

func TestNormalizeImageFollowsDockerReferenceRules(t *testing.T) {
	for in, want := range map[string]string{
		"nginx":                      "docker.io/library/nginx:latest",
		"nginx:1.25":                 "docker.io/library/nginx:1.25",
		"bitnami/redis":              "docker.io/bitnami/redis:latest",
		"registry.k8s.io/pause:3.10": "registry.k8s.io/pause:3.10",
		"localhost/app":              "localhost/app:latest",
		"localhost:5000/app:v1":      "localhost:5000/app:v1",
	} {
		got, err := fakeruntime.NormalizeImage(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := fakeruntime.NormalizeImage("Nginx")
	assert.EqualError(t, err, "rpc error: code = InvalidArgument desc = invalid reference format: repository name (library/Nginx) must be lowercase")
	_, err = fakeruntime.NormalizeImage("nginx:")
	assert.Equal(t, fakeruntime.InvalidArgument, fakeruntime.CodeOf(err))
}

func TestPullImageTakesTimeFromSizeAndSharesIDAcrossTags(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()

	ref, err := n.rt.PullImage(ctx, "nginx", nil)
	require.NoError(t, err)
	assert.Equal(t, 3418*time.Millisecond, n.clk.Since(t0), "resolve 500ms + 72955450 bytes at 25 MB/s")

	ref127, err := n.rt.PullImage(ctx, "nginx:1.27", nil)
	require.NoError(t, err)
	assert.Equal(t, ref, ref127, "nginx:latest and nginx:1.27 are the same image")

	img, err := n.rt.ImageStatus(ctx, "docker.io/library/nginx:1.27")
	require.NoError(t, err)
	require.NotNil(t, img)
	assert.Equal(t, []string{"docker.io/library/nginx:1.27", "docker.io/library/nginx:latest"}, img.RepoTags)
	assert.Equal(t, uint64(72_955_450), img.Size)
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, img.ID)
	assert.Regexp(t, `^docker.io/library/nginx@sha256:[0-9a-f]{64}$`, img.RepoDigests[0])

	missing, err := n.rt.ImageStatus(ctx, "busybox")
	assert.NoError(t, err, "an absent image is not an error in CRI")
	assert.Nil(t, missing)
}

// registryHint is what kubesim adds to containerd's words when an image is nowhere in its registries.
const registryHint = "(kubesim hint: this image is not in kubesim's simulated registries, which hold only " +
	"busybox:1.36, busybox:1.37, busybox:latest, httpd:2.4, httpd:latest, nginx:1.25, nginx:1.26, nginx:1.27, nginx:latest, " +
	"redis:7.2, redis:7.4, redis:latest, registry.example.com/legacy/app:1.0, registry.example.com/private/app:1.0, registry.k8s.io/pause:3.10)"

func TestPullImageFailsWithContainerdWording(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	for _, tc := range []struct {
		image string
		auth  *fakeruntime.AuthConfig
		code  fakeruntime.Code
		msg   string
	}{
		{"ngnix:1.25", nil, fakeruntime.Unknown,
			`failed to pull and unpack image "docker.io/library/ngnix:1.25": failed to resolve reference "docker.io/library/ngnix:1.25": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`},
		{"nginx:9.99", nil, fakeruntime.NotFound,
			`failed to pull and unpack image "docker.io/library/nginx:9.99": failed to resolve reference "docker.io/library/nginx:9.99": docker.io/library/nginx:9.99: not found ` + registryHint},
		{"redis:7", nil, fakeruntime.NotFound,
			`failed to pull and unpack image "docker.io/library/redis:7": failed to resolve reference "docker.io/library/redis:7": docker.io/library/redis:7: not found ` + registryHint},
		{"registry.example.com/private/app:1.0", nil, fakeruntime.Unknown,
			`failed to pull and unpack image "registry.example.com/private/app:1.0": failed to resolve reference "registry.example.com/private/app:1.0": pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials`},
		{"registry.example.com/private/app:1.0", &fakeruntime.AuthConfig{Username: "kubesim", Password: "wrong"}, fakeruntime.Unknown,
			`failed to pull and unpack image "registry.example.com/private/app:1.0": failed to resolve reference "registry.example.com/private/app:1.0": unexpected status from HEAD request to https://registry.example.com/v2/private/app/manifests/1.0: 401 Unauthorized`},
		{"quay.invalid/app:1", nil, fakeruntime.Unknown,
			`failed to pull and unpack image "quay.invalid/app:1": failed to resolve reference "quay.invalid/app:1": failed to do request: Head "https://quay.invalid/v2/app/manifests/1": dial tcp: lookup quay.invalid: no such host ` + registryHint},
	} {
		_, err := n.rt.PullImage(ctx, tc.image, tc.auth)
		require.Error(t, err, tc.image)
		assert.Equal(t, tc.code, fakeruntime.CodeOf(err), tc.image)
		assert.Equal(t, "rpc error: code = "+tc.code.String()+" desc = "+tc.msg, err.Error())
	}

	ref, err := n.rt.PullImage(ctx, "registry.example.com/private/app:1.0",
		&fakeruntime.AuthConfig{Username: fakeruntime.PrivateRegistryUsername, Password: fakeruntime.PrivateRegistryPassword})
	require.NoError(t, err, "the right credentials open the private repository")
	assert.NotEmpty(t, ref)
}

func TestPullImageRespectsTheNodeArchitecture(t *testing.T) {
	clk := clock.NewVirtual(t0)
	arm, err := fakeruntime.New(fakeruntime.Options{Clock: clk, NodeName: "arm-1", PodCIDR: "10.244.2.0/24", Arch: "arm64"})
	require.NoError(t, err)
	ctx := context.Background()

	_, err = arm.PullImage(ctx, "registry.example.com/legacy/app:1.0", nil)
	assert.EqualError(t, err, `rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/legacy/app:1.0": no match for platform in manifest: not found`)

	armRef, err := arm.PullImage(ctx, "nginx:1.25", nil)
	require.NoError(t, err, "nginx is multi-arch")
	amd := newNode(t)
	amdRef, err := amd.rt.PullImage(ctx, "nginx:1.25", nil)
	require.NoError(t, err)
	assert.NotEqual(t, armRef, amdRef, "each platform has its own image config")
}

func TestPauseImageIsPinnedAndRemoveImageDropsAllTags(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	imgs, err := n.rt.ListImages(ctx)
	require.NoError(t, err)
	require.Len(t, imgs, 1)
	assert.Equal(t, []string{fakeruntime.PauseImage}, imgs[0].RepoTags)
	assert.True(t, imgs[0].Pinned)

	_, err = n.rt.PullImage(ctx, "busybox", nil)
	require.NoError(t, err)
	_, err = n.rt.PullImage(ctx, "busybox:1.37", nil)
	require.NoError(t, err)
	fs, err := n.rt.ImageFsInfo(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint64(320_368+2_166_802), fs.UsedBytes)

	require.NoError(t, n.rt.RemoveImage(ctx, "busybox:1.37"))
	img, err := n.rt.ImageStatus(ctx, "busybox:latest")
	require.NoError(t, err)
	assert.Nil(t, img, "removing one tag removes the image and its other tags")
	assert.NoError(t, n.rt.RemoveImage(ctx, "busybox"), "removing a missing image succeeds")
}
