// hash.go: the pod-template-hash, the name suffix and label that tie a ReplicaSet to one version of a
// Deployment's pod template ("nginx-77bf8679f9"). Changing the template changes the hash, hence a new
// ReplicaSet; changing it back finds the old one again.
//
//	ComputeHash(template, collisionCount) string
//	HashedText(template) string
//	SafeEncodeString(s) string
//	equalIgnoreHash(a, b) bool
package deployment

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"strconv"

	"kubesim/api"
)

// ComputeHash returns the pod-template-hash of a template as Kubernetes v1.34's Deployment controller
// computes it (pkg/controller/controller_utils.go, ComputeHash): FNV-32a over go-spew's print of the
// v1.PodTemplateSpec struct (HashedText, spew.go), then, when status.collisionCount is set, its four
// bytes little-endian padded to eight; the sum in decimal, mapped through SafeEncodeString. A learner
// sees the hash a real 1.34 cluster gives the same manifest: difftest/deployment holds it to the
// controller's own function, after the apiserver's own defaulting. If a ReplicaSet of that name exists
// with another template, the controller bumps collisionCount and so gets a new name.
//
// The print names every field of every struct of k8s.io/api's PodTemplateSpec in declaration order,
// so a Kubernetes release that adds a field changes every hash: layout.go is that release's layout
// (regenerated with `go test -run Layout -update` in difftest/deployment). Fields kubesim does not
// model count as the apiserver leaves them when the manifest does not set them; a manifest that sets
// one (a container's workingDir, say) hashes differently from a real cluster's.
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write([]byte(templateText(template)))
	if collisionCount != nil {
		var buf [8]byte
		binary.LittleEndian.PutUint32(buf[:], uint32(*collisionCount))
		h.Write(buf[:])
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// HashedText returns the text ComputeHash hashes: what Kubernetes' hashutil.DeepHashObject writes for
// the same template.
func HashedText(template *api.PodTemplateSpec) string { return templateText(template) }

// alphanums is Kubernetes' safe alphabet (k8s.io/apimachinery/pkg/util/rand): no vowels, so no words,
// and none of the look-alikes 0/o, 1/l.
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// SafeEncodeString maps each byte of s onto alphanums, so a decimal hash such as "2142116321" becomes a
// name-safe string such as "658655b765".
func SafeEncodeString(s string) string {
	out := make([]byte, len(s))
	for i := range len(s) {
		out[i] = alphanums[int(s[i])%len(alphanums)]
	}
	return string(out)
}

// equalIgnoreHash reports whether two pod templates are the same apart from the pod-template-hash
// label: how the controller recognises the ReplicaSet of the Deployment's current template.
func equalIgnoreHash(a, b *api.PodTemplateSpec) bool {
	return templateJSON(a) == templateJSON(b)
}

func templateJSON(t *api.PodTemplateSpec) string {
	labels := t.Labels
	if _, ok := labels[api.DefaultDeploymentUniqueLabelKey]; ok {
		cp := *t
		cp.Labels = make(map[string]string, len(labels))
		for k, v := range labels {
			if k != api.DefaultDeploymentUniqueLabelKey {
				cp.Labels[k] = v
			}
		}
		t = &cp
	}
	b, _ := json.Marshal(t)
	return string(b)
}
