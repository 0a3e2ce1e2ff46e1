// hash.go: the pod-template-hash, the name suffix and label that tie a ReplicaSet to one version of a
// Deployment's pod template ("nginx-6d4cf56db6"). Changing the template changes the hash, hence a new
// ReplicaSet; changing it back finds the old one again.
//
//	ComputeHash(template, collisionCount) string
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

// ComputeHash hashes a pod template with FNV-32a, as Kubernetes' controller.ComputeHash does, and
// renders the number with SafeEncodeString. collisionCount (status.collisionCount) is mixed in when
// set: if a ReplicaSet of that name exists with another template, the controller bumps the count and
// so gets a new name.
//
// The bytes hashed differ, so the values differ from a real cluster's (while being just as stable).
// Kubernetes v1.34 (pkg/controller/controller_utils.go, ComputeHash) hashes
// hashutil.DeepHashObject's output: go-spew's "%#v" print of the k8s.io/api/core/v1.PodTemplateSpec
// struct, e.g. `(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) ... Requests:(v1.ResourceList)
// map[cpu:{i:(resource.int64Amount){value:(int64)100 scale:(resource.Scale)-3} d:(resource.infDecAmount)
// {Dec:(*inf.Dec)<nil>} s:(string)100m Format:(resource.Format)DecimalSI}] ...`. That text names every
// field of every struct of that exact k8s.io/api release in declaration order (ones kubesim does not
// model, such as RestartPolicyRules or HostnameOverride, as `<nil>`), the private fields of
// resource.Quantity including its cached string, and the template as the real apiserver's defaulting
// left it (securityContext {}, terminationMessagePath, ...). Reproducing it would mean copying the
// layout of k8s.io/api's types into kubesim and re-checking it at every Kubernetes release (any new
// field changes every hash), so kubesim hashes the template's JSON instead.
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	b, err := json.Marshal(template)
	if err != nil {
		panic("deployment: a pod template that does not marshal: " + err.Error())
	}
	h.Write(b)
	if collisionCount != nil {
		var buf [4]byte
		binary.LittleEndian.PutUint32(buf[:], uint32(*collisionCount))
		h.Write(buf[:])
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// alphanums is Kubernetes' safe alphabet (k8s.io/apimachinery/pkg/util/rand): no vowels, so no words,
// and none of the look-alikes 0/o, 1/l.
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// SafeEncodeString maps each byte of s onto alphanums, so a decimal hash such as "2142116321" becomes a
// name-safe string such as "6d4cf56db6".
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
