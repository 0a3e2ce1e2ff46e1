// reference.go: image names, normalised the way containerd (and docker) read them.
//
//	parseReference("nginx")           docker.io/library/nginx:latest
//	parseReference("nginx:1.25")      docker.io/library/nginx:1.25
//	parseReference("bitnami/redis")   docker.io/bitnami/redis:latest
//	parseReference("registry.k8s.io/pause:3.10")   unchanged
//	NormalizeImage(name)              the same, exported for the kubelet
//
// The first path component is a registry host if it contains a "." or a ":" or is "localhost";
// otherwise the image lives on Docker Hub, and a one-component name is an official image under
// "library/". No tag means "latest". This is why an event says Pulling image "nginx" while the error
// beneath it names "docker.io/library/nginx:latest".

package fakeruntime

import (
	"fmt"
	"regexp"
	"strings"
)

// reference is a parsed, normalised image name.
type reference struct {
	domain string // docker.io
	path   string // library/nginx
	tag    string // 1.25 ("" when a digest is given)
	digest string // sha256:... ("" when a tag is given)
}

// repo is the repository without tag or digest: docker.io/library/nginx.
func (r reference) repo() string { return r.domain + "/" + r.path }

// String is the normalised name: docker.io/library/nginx:1.25 or docker.io/library/nginx@sha256:...
func (r reference) String() string {
	if r.digest != "" {
		return r.repo() + "@" + r.digest
	}
	return r.repo() + ":" + r.tag
}

var (
	pathRE   = regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$`)
	tagRE    = regexp.MustCompile(`^[\w][\w.-]{0,127}$`)
	digestRE = regexp.MustCompile(`^sha256:[a-f0-9]{64}$`)
)

// parseReference normalises an image name, or returns an InvalidArgument error with the wording of
// the distribution/reference library.
func parseReference(name string) (reference, error) {
	invalid := func(why string) (reference, error) {
		return reference{}, errorf(InvalidArgument, "invalid reference format%s", why)
	}
	if name == "" || strings.TrimSpace(name) != name {
		return invalid("")
	}
	var ref reference
	rest := name
	if i := strings.Index(rest, "@"); i >= 0 {
		ref.digest, rest = rest[i+1:], rest[:i]
		if !digestRE.MatchString(ref.digest) {
			return invalid("")
		}
	}
	if i := strings.LastIndex(rest, ":"); i > strings.LastIndex(rest, "/") {
		ref.tag, rest = rest[i+1:], rest[:i]
		if !tagRE.MatchString(ref.tag) {
			return invalid("")
		}
	}
	ref.domain, ref.path = "docker.io", rest
	if i := strings.Index(rest, "/"); i >= 0 {
		if first := rest[:i]; strings.ContainsAny(first, ".:") || first == "localhost" {
			ref.domain, ref.path = first, rest[i+1:]
		}
	}
	if ref.domain == "docker.io" && !strings.Contains(ref.path, "/") {
		ref.path = "library/" + ref.path
	}
	if strings.ToLower(ref.path) != ref.path {
		return invalid(fmt.Sprintf(": repository name (%s) must be lowercase", ref.path))
	}
	if !pathRE.MatchString(ref.path) {
		return invalid("")
	}
	if ref.tag == "" && ref.digest == "" {
		ref.tag = "latest"
	}
	if ref.digest != "" {
		ref.tag = "" // name:tag@digest pulls by digest; the tag is informational
	}
	return ref, nil
}

// NormalizeImage returns the fully qualified name containerd uses for an image name
// ("nginx" -> "docker.io/library/nginx:latest"), or an InvalidArgument error; the kubelet reports
// that as the InvalidImageName waiting reason.
func NormalizeImage(name string) (string, error) {
	ref, err := parseReference(name)
	if err != nil {
		return "", err
	}
	return ref.String(), nil
}
