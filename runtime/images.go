// images.go: the ImageService: the node's image store and pulls from the catalogue's registries.
//
//	PullImage(ctx, image, auth)   resolve, authorise, pick the platform, download; containerd's errors
//	ImageStatus(ctx, image)       the stored image, or nil when absent
//	ListImages(ctx)               every stored image, sorted by ID
//	RemoveImage(ctx, image)       delete an image and all its tags
//	ImageFsInfo(ctx)              bytes used on the image filesystem (the node's one filesystem)
//
// A failed pull reads exactly as containerd writes it, because that text is what a learner sees in
// kubectl describe pod under "Failed to pull image":
//
//	unknown Docker Hub repository (the ngnix typo): code Unknown, "pull access denied, repository does
//	    not exist or may require authorization: server message: insufficient_scope: authorization failed"
//	unknown tag: code NotFound, "<ref>: not found"
//	private repository without credentials: code Unknown, "... authorization failed: no basic auth
//	    credentials"; with wrong ones: "unexpected status from HEAD request to ...: 401 Unauthorized"
//	no image for the node's architecture: code NotFound, "no match for platform in manifest: not found"
//	unknown registry host: code Unknown, "dial tcp: lookup <host>: no such host"
//
// An unknown tag or registry host, which on a real machine a learner would look up on the registry,
// gets kubesim's hint after containerd's words: the images the simulated registries hold
// (catalogueHint). An unknown Docker Hub repository keeps Docker Hub's wording alone: that is the
// sign the image-pull-backoff scenario teaches to read.

package fakeruntime

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// storedImage is an image in the node's store. Its fields are guarded by the Runtime's mu.
type storedImage struct {
	id      string
	tags    map[string]bool // normalised repo:tag names pointing at it
	digests map[string]bool // repo@sha256 names
	size    uint64
	family  string
	version string
	pinned  bool
}

func (img *storedImage) toCRI() *Image {
	return &Image{
		ID:          img.id,
		RepoTags:    slices.Sorted(maps.Keys(img.tags)),
		RepoDigests: slices.Sorted(maps.Keys(img.digests)),
		Size:        img.size,
		Pinned:      img.pinned,
	}
}

// storeImageLocked records a pulled image under ref's name and returns it.
func (r *Runtime) storeImageLocked(ref reference, c *catalogueImage, pinned bool) *storedImage {
	id := c.imageID(r.opts.Arch)
	img := r.images[id]
	if img == nil {
		img = &storedImage{id: id, tags: map[string]bool{}, digests: map[string]bool{}, size: c.size, family: c.family, version: c.version}
		r.images[id] = img
	}
	img.pinned = img.pinned || pinned
	img.digests[c.repo+"@"+c.indexDigest()] = true
	if ref.tag != "" {
		name := ref.String()
		if old, ok := r.tags[name]; ok && old != id {
			delete(r.images[old].tags, name) // the tag moved to a newer image
		}
		img.tags[name] = true
		r.tags[name] = id
	}
	return img
}

// lookupLocked finds a stored image by name (any form parseReference accepts) or by image ID.
// It returns (nil, nil) when the image is absent.
func (r *Runtime) lookupLocked(name string) (*storedImage, error) {
	if digestRE.MatchString(name) {
		return r.images[name], nil
	}
	ref, err := parseReference(name)
	if err != nil {
		return nil, err
	}
	if ref.digest != "" {
		for _, img := range r.images {
			if img.digests[ref.String()] {
				return img, nil
			}
		}
		return nil, nil
	}
	if id, ok := r.tags[ref.String()]; ok {
		return r.images[id], nil
	}
	return nil, nil
}

// PullImage downloads image from its registry (see the file comment for the failures).
func (r *Runtime) PullImage(ctx context.Context, image string, auth *AuthConfig) (string, error) {
	if err := r.enter(ctx); err != nil {
		return "", err
	}
	ref, err := parseReference(image)
	if err != nil {
		return "", err
	}
	c, pullErr := resolve(ref, auth, r.opts.Arch)
	took := resolveLatency
	if pullErr == nil {
		took = pullDuration(c.size)
	}
	if err := r.wait(ctx, took, nil); err != nil {
		return "", err
	}
	if pullErr != nil {
		r.record("pull", ref.String(), "pull %s failed after %s: %v", ref, took, pullErr)
		return "", pullErr
	}
	r.mu.Lock()
	img := r.storeImageLocked(ref, c, false)
	r.mu.Unlock()
	r.record("pull", ref.String(), "pulled %s (%s, %d bytes) in %s", ref, shortID(strings.TrimPrefix(img.id, "sha256:")), c.size, took)
	return img.id, nil
}

// resolve does what containerd's resolver and fetcher do before downloading: find the registry, the
// repository, the tag, check authorisation, and pick the manifest for arch.
func resolve(ref reference, auth *AuthConfig, arch string) (*catalogueImage, error) {
	name := ref.String()
	failed := func(code Code, format string, args ...any) error {
		return errorf(code, "failed to pull and unpack image %q: %s", name, fmt.Sprintf(format, args...))
	}
	if !slices.Contains(knownRegistries, ref.domain) {
		return nil, failed(Unknown, "failed to resolve reference %q: failed to do request: Head %q: dial tcp: lookup %s: no such host %s",
			name, manifestURL(ref), ref.domain, catalogueHint())
	}
	if !repoExists(ref) && ref.domain == "docker.io" {
		// Docker Hub does not say "no such repository": it refuses a token for it, so a typo reads
		// like an authorisation problem.
		return nil, failed(Unknown, "failed to resolve reference %q: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed", name)
	}
	c := lookupCatalogue(ref)
	if repoPrivate(ref) {
		switch {
		case auth == nil || auth.Username == "" || auth.Password == "":
			return nil, failed(Unknown, "failed to resolve reference %q: pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials", name)
		case auth.Username != PrivateRegistryUsername || auth.Password != PrivateRegistryPassword:
			return nil, failed(Unknown, "failed to resolve reference %q: unexpected status from HEAD request to %s: 401 Unauthorized", name, manifestURL(ref))
		}
	}
	if c == nil {
		return nil, failed(NotFound, "failed to resolve reference %q: %s: not found %s", name, name, catalogueHint())
	}
	if !slices.Contains(c.platforms, arch) {
		return nil, failed(NotFound, "no match for platform in manifest: not found")
	}
	return c, nil
}

// manifestURL is the registry API URL containerd asks for a manifest.
func manifestURL(ref reference) string {
	host, ver := ref.domain, ref.tag
	if host == "docker.io" {
		host = "registry-1.docker.io"
	}
	if ref.digest != "" {
		ver = ref.digest
	}
	return fmt.Sprintf("https://%s/v2/%s/manifests/%s", host, ref.path, ver)
}

// ImageStatus returns the stored image, or (nil, nil) when it is not present.
func (r *Runtime) ImageStatus(ctx context.Context, image string) (*Image, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	img, err := r.lookupLocked(image)
	if img == nil || err != nil {
		return nil, err
	}
	return img.toCRI(), nil
}

// ListImages returns every stored image, sorted by ID.
func (r *Runtime) ListImages(ctx context.Context) ([]*Image, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*Image, 0, len(r.images))
	for _, id := range slices.Sorted(maps.Keys(r.images)) {
		out = append(out, r.images[id].toCRI())
	}
	return out, nil
}

// RemoveImage deletes the image image names, with all its tags, as containerd's CRI plugin does.
// Containers created from it keep running (their root filesystems are separate snapshots).
func (r *Runtime) RemoveImage(ctx context.Context, image string) error {
	if err := r.enter(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	img, err := r.lookupLocked(image)
	if img == nil || err != nil {
		return err
	}
	for name := range img.tags {
		delete(r.tags, name)
	}
	delete(r.images, img.id)
	r.recordDetail("remove-image", "", "removed image %s (%d bytes freed)", shortID(strings.TrimPrefix(img.id, "sha256:")), img.size)
	return nil
}

// ImageFsInfo reports the image filesystem's usage: the node's one filesystem (disk.go).
func (r *Runtime) ImageFsInfo(ctx context.Context) (*FilesystemUsage, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	u := r.fsLocked()
	return &u, nil
}
