package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
)

// `kubectl create deployment nginx --image=nginx` against Kubernetes 1.34: the Deployment kubectl
// sends, defaulted by the apiserver, gets ReplicaSet nginx-66686b6766 on a real cluster
// (difftest/deployment checks it against the controller's own ComputeHash), and so in kubesim.
func TestKubectlCreateDeploymentHashesAsARealCluster(t *testing.T) {
	var d api.Deployment
	require.NoError(t, api.DecodeInto([]byte(`{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"nginx",
		"creationTimestamp":null,"labels":{"app":"nginx"}},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"nginx"}},
		"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx",
		"image":"nginx","resources":{}}]}},"strategy":{}},"status":{}}`), &d))
	api.SetDefaults(&d)
	assert.Equal(t, "66686b6766", ComputeHash(&d.Spec.Template, nil))
	assert.NotEqual(t, "66686b6766", ComputeHash(&d.Spec.Template, api.Ptr[int32](1)), "a collision count gives another name")
}

// The printed text begins as go-spew prints a v1.PodTemplateSpec, every field named in declaration
// order, types in parentheses, nil pointers and empty lists as <nil>.
func TestHashedTextIsSpewsPrint(t *testing.T) {
	text := HashedText(&api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"b": "2", "a": "1"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx", Args: []string{}}}}})
	assert.Contains(t, text, "(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) GenerateName:(string) ")
	assert.Contains(t, text, " CreationTimestamp:(v1.Time){Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}} DeletionTimestamp:(*v1.Time)<nil> ")
	assert.Contains(t, text, " Labels:(map[string]string)map[a:1 b:2] Annotations:(map[string]string)<nil> ", "keys sorted")
	assert.Contains(t, text, " Containers:([]v1.Container)[{Name:(string)c Image:(string)nginx Command:([]string)<nil> Args:([]string)<nil> ",
		"an empty list is nil, as protobuf gives it to the controller")
	assert.Contains(t, text, " TerminationMessagePath:(string)/dev/termination-log TerminationMessagePolicy:(v1.TerminationMessagePolicy)File ",
		"the apiserver's defaults of fields kubesim does not model")
	assert.Contains(t, text, " SecurityContext:(*v1.PodSecurityContext){SELinuxOptions:(*v1.SELinuxOptions)<nil> ")
}

// A quantity prints as the struct ParseQuantity makes of the apiserver's text (the values are go-spew's
// print of resource.MustParse in k8s.io/apimachinery v0.34.1 on a 64-bit machine: big.nat's words are
// the machine's).
func TestQuantityTextIsParseQuantitysStruct(t *testing.T) {
	for in, want := range map[string]string{
		"100m":  "{i:(resource.int64Amount){value:(int64)100 scale:(resource.Scale)-3} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)100m Format:(resource.Format)DecimalSI}",
		"128Mi": "{i:(resource.int64Amount){value:(int64)134217728 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string) Format:(resource.Format)BinarySI}",
		"1Gi":   "{i:(resource.int64Amount){value:(int64)1073741824 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)1Gi Format:(resource.Format)BinarySI}",
		"0":     "{i:(resource.int64Amount){value:(int64)0 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)0 Format:(resource.Format)DecimalSI}",
		"1500m": "{i:(resource.int64Amount){value:(int64)1500 scale:(resource.Scale)-3} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)1500m Format:(resource.Format)DecimalSI}",
		"100Ti": "{i:(resource.int64Amount){value:(int64)0 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec){unscaled:(big.Int){neg:(bool)false abs:(big.nat)[8568098291072368640 5960]} scale:(inf.Scale)9}} s:(string) Format:(resource.Format)BinarySI}",
		"1Ei":   "{i:(resource.int64Amount){value:(int64)0 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec){unscaled:(big.Int){neg:(bool)false abs:(big.nat)[0 62500000]} scale:(inf.Scale)9}} s:(string) Format:(resource.Format)BinarySI}",
	} {
		assert.Equal(t, want, quantityText(in), in)
	}
}
