// objectmeta_test.go compares kubesim's ValidateObjectMeta with
// apimachinery's, the checks every object's metadata passes on create:
// generateName and name, namespace, labels, annotations, owner references
// and finalizers, built from fuzz bytes. (k8s.io/kubernetes' core validation
// adds one rule, finalizers without a domain must be Kubernetes' own; the
// generated finalizers all pass it, so apimachinery's answer is the whole
// answer.)
package difftest

import (
	"fmt"
	"testing"

	k8snames "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	"kubesim/api"
	simfield "kubesim/api/field"
	sim "kubesim/api/validation"
)

var (
	metaFinalizers = []string{"kubernetes", "orphan", "foregroundDeletion", "example.com/cleanup", "a/b/c", "Example.com/x", "-/x"}
	metaAPIVersion = []string{"v1", "apps/v1", "", "/v1", "apps/", "a/b/c"}
	metaKinds      = []string{"ReplicaSet", "Event", ""}
)

func compareObjectMeta(t *testing.T, data []byte) {
	t.Helper()
	at := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	pick := func(list []string, i int) string { return list[int(at(i))%len(list)] }
	k := metav1.ObjectMeta{
		GenerateName: pick(nameSeeds, 0), Name: pick(nameSeeds, 1), Namespace: pick(nameSeeds, 2),
		Generation: int64(at(3)%3) - 1,
	}
	if at(4)%2 == 1 {
		k.Labels = map[string]string{pick(nameSeeds, 5): pick(nameSeeds, 6)}
	}
	if at(7)%2 == 1 {
		k.Annotations = map[string]string{pick(nameSeeds, 8): "v"}
	}
	for i := 9; i < 13 && at(i) != 0; i++ {
		k.Finalizers = append(k.Finalizers, pick(metaFinalizers, i))
	}
	for i := 13; i+2 < len(data) && i < 25; i += 3 {
		controller := at(i+2)%2 == 1
		k.OwnerReferences = append(k.OwnerReferences, metav1.OwnerReference{APIVersion: pick(metaAPIVersion, i),
			Kind: pick(metaKinds, i+1), Name: pick(nameSeeds, i+2), UID: types.UID(pick([]string{"", "u"}, i+1)), Controller: &controller})
	}
	s := api.ObjectMeta{GenerateName: k.GenerateName, Name: k.Name, Namespace: k.Namespace, Generation: k.Generation,
		Labels: k.Labels, Annotations: k.Annotations, Finalizers: k.Finalizers}
	for _, r := range k.OwnerReferences {
		s.OwnerReferences = append(s.OwnerReferences, api.OwnerReference{APIVersion: r.APIVersion, Kind: r.Kind,
			Name: r.Name, UID: string(r.UID), Controller: r.Controller})
	}
	namespaced := at(25)%2 == 0
	kerrs := k8snames.ValidateObjectMeta(&k, namespaced, k8snames.NameIsDNSSubdomain, k8sfield.NewPath("metadata"))
	serrs := sim.ValidateObjectMeta(&s, namespaced, sim.NameIsDNSSubdomain, simfield.NewPath("metadata"))
	// Owner references are rendered with their JSON field names on both sides, but the types differ in
	// the fields they carry, so compare the errors without the bad value of a whole reference.
	if ks, ss := errorPaths(kerrs), simErrorPaths(serrs); ks != ss {
		t.Errorf("ValidateObjectMeta(%+v, namespaced %v):\n kubernetes %s\n kubesim    %s", k, namespaced, ks, ss)
	}
}

func errorPaths(errs k8sfield.ErrorList) string {
	out := ""
	for _, e := range errs {
		out += fmt.Sprintf("[%s %s %s] ", e.Field, e.Type, e.Detail)
	}
	return out
}

func simErrorPaths(errs simfield.ErrorList) string {
	out := ""
	for _, e := range errs {
		out += fmt.Sprintf("[%s %s %s] ", e.Field, e.Type, e.Detail)
	}
	return out
}

var objectMetaSeeds = [][]byte{
	{0, 1, 2}, {20, 21, 22, 0, 1, 3, 4, 1, 5}, {1, 1, 1, 2, 0, 0, 0, 0, 1, 2, 3, 4, 5},
	{0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1, 1, 1, 0, 1, 2, 1, 1, 0, 1, 1, 1},
	{5, 6, 7, 1, 1, 40, 41, 1, 42, 6, 0, 0, 0, 2, 2, 2, 3, 0, 3, 4, 1, 1, 5, 2, 0, 0},
}

func TestObjectMetaTable(t *testing.T) {
	for _, s := range objectMetaSeeds {
		compareObjectMeta(t, s)
	}
	t.Logf("compared %d object metadata", len(objectMetaSeeds))
}

func FuzzObjectMeta(f *testing.F) {
	for _, s := range objectMetaSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareObjectMeta(t, data)
	})
}
