package api

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api/resource"
	"kubesim/scenarios/manifests"
)

// seedDeployment is shared/seeds' nginx-deployment.yaml (its one copy is in scenarios/manifests),
// which must decode unchanged.
var seedDeployment = manifests.NginxDeployment

func TestDecodeSeedManifest(t *testing.T) {
	objs, err := Decode([]byte(seedDeployment))
	require.NoError(t, err)
	require.Len(t, objs, 1)
	d, ok := objs[0].(*Deployment)
	require.True(t, ok, "got %T", objs[0])

	assert.Equal(t, TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, d.TypeMeta)
	assert.Equal(t, "nginx", d.Name)
	assert.Equal(t, Ptr[int32](3), d.Spec.Replicas)
	assert.Equal(t, &LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}, d.Spec.Selector)
	assert.Equal(t, map[string]string{"app": "nginx"}, d.Spec.Template.Labels)
	assert.Equal(t, []Container{{
		Name:  "nginx",
		Image: "nginx:1.25",
		Ports: []ContainerPort{{ContainerPort: 80}},
	}}, d.Spec.Template.Spec.Containers)
}

func TestEncodeThenDecodeGivesTheSameObject(t *testing.T) {
	objs, err := Decode([]byte(seedDeployment))
	require.NoError(t, err)
	SetDefaults(objs[0])

	for _, encode := range []func(Object) ([]byte, error){Encode, EncodeYAML} {
		data, err := encode(objs[0])
		require.NoError(t, err)
		again, err := Decode(data)
		require.NoError(t, err, "%s", data)
		assert.Equal(t, objs, again)
	}
}

func TestDecodeNamesTheFullPathOfAnUnknownField(t *testing.T) {
	manifest := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        imagePullPolcy: Always
`
	_, err := Decode([]byte(manifest))
	require.Error(t, err)
	assert.EqualError(t, err, `strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy"`)
	var strict *StrictDecodingError
	assert.True(t, errors.As(err, &strict))
}

func TestDecodeReportsEveryUnknownField(t *testing.T) {
	manifest := `apiVersion: v1
kind: Pod
metadata:
  name: p
  labelz: {a: b}
spec:
  containers:
  - name: c
    image: busybox
  - name: d
    image: busybox
    volumeMount: []
  volumez: []
`
	_, err := Decode([]byte(manifest))
	assert.EqualError(t, err, `strict decoding error: unknown field "metadata.labelz", `+
		`unknown field "spec.containers[1].volumeMount", unknown field "spec.volumez"`)
}

// Every field of Kubernetes v1.34's schema loads. What kubesim does not simulate is dropped with a
// warning that names it, never rejected as if it were a typo.
func TestDecodeAcceptsKubernetesFieldsKubesimDoesNotSimulate(t *testing.T) {
	manifest := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      overhead: {cpu: 250m}
      resources: {limits: {cpu: "1"}}
      initContainers:
      - {name: init, image: busybox}
      containers:
      - name: web
        image: nginx
        volumeMounts: [{name: data, mountPath: /data}]
      volumes:
      - name: data
        image: {reference: "quay.io/data:1"}
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - topologyKey: kubernetes.io/hostname
            namespaceSelector: {}
            matchLabelKeys: [pod-template-hash]
            labelSelector: {matchLabels: {app: web}}
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: zone
        whenUnsatisfiable: DoNotSchedule
        matchLabelKeys: [pod-template-hash]
        nodeAffinityPolicy: Honor
        nodeTaintsPolicy: Honor
`
	objs, warnings, err := DecodeWithWarnings([]byte(manifest))
	require.NoError(t, err)
	require.Len(t, objs, 1)
	assert.Equal(t, "nginx", objs[0].(*Deployment).Spec.Template.Spec.Containers[0].Image)
	const ignored = `kubesim does not simulate field "spec.template.spec.%s"; it is ignored`
	var want []string
	for _, f := range []string{
		"affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys",
		"affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector",
		"initContainers", "overhead", "resources",
		"topologySpreadConstraints[0].matchLabelKeys", "topologySpreadConstraints[0].nodeAffinityPolicy",
		"topologySpreadConstraints[0].nodeTaintsPolicy", "volumes[0].image",
	} {
		want = append(want, fmt.Sprintf(ignored, f))
	}
	assert.Equal(t, want, warnings)
}

// The strict decoding errors read as the apiserver's: a miscased apiVersion is found (Kubernetes
// reads it with encoding/json) and then reported as an unknown field, an unknown key given twice is
// reported once, and a duplicate YAML key is reported by the YAML reader ahead of the other problems.
func TestDecodeStrictErrorsInTheApiserversWords(t *testing.T) {
	for _, tc := range []struct{ manifest, err string }{
		{"apiversion: v1\nkind: Pod\nmetadata:\n  name: p\n", `strict decoding error: unknown field "apiversion"`},
		{`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"foo":1,"foo":2}}`,
			`strict decoding error: unknown field "spec.foo"`},
		{`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","a":"2"}}}`,
			`strict decoding error: duplicate field "metadata.labels.a"`},
		{"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  foo: 1\n  foo: 2\n  bar: 3\n",
			"strict decoding error: yaml: unmarshal errors:\n  line 7: key \"foo\" already set in map, " +
				`unknown field "spec.bar", unknown field "spec.foo"`},
	} {
		_, err := Decode([]byte(tc.manifest))
		assert.EqualError(t, err, tc.err, tc.manifest)
	}
}

func TestDecodeFieldNamesAreCaseSensitive(t *testing.T) {
	_, err := Decode([]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"Name":"x"}}`))
	assert.EqualError(t, err, `strict decoding error: unknown field "metadata.Name"`)
}

func TestDecodeRejectsDuplicateFields(t *testing.T) {
	// JSON: reported by the strict check, with the path.
	_, err := Decode([]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a","name":"b"}}`))
	assert.EqualError(t, err, `strict decoding error: duplicate field "metadata.name"`)

	// YAML: reported by the YAML reader, with the line in the document.
	_, err = Decode([]byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  name: b\n"))
	assert.EqualError(t, err, "strict decoding error: yaml: unmarshal errors:\n  line 5: key \"name\" already set in map")
}

func TestDecodeInlinedAndCustomTypesAreKnownFields(t *testing.T) {
	manifest := `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: nginx
    resources:
      requests: {cpu: 100m, memory: 64Mi}
    readinessProbe:
      httpGet: {path: /healthz, port: http}
      periodSeconds: 5
`
	objs, err := Decode([]byte(manifest))
	require.NoError(t, err)
	c := objs[0].(*Pod).Spec.Containers[0]
	assert.Equal(t, FromString("http"), c.ReadinessProbe.HTTPGet.Port)
	assert.Equal(t, int32(5), c.ReadinessProbe.PeriodSeconds)
	assert.Equal(t, resource.MustParse("100m"), c.Resources.Requests[resource.ResourceCPU])
}

func TestDecodeMultipleDocuments(t *testing.T) {
	manifest := `---
apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
# the service in front of it
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
---
`
	objs, err := Decode([]byte(manifest))
	require.NoError(t, err)
	require.Len(t, objs, 2)
	assert.Equal(t, "shop", objs[0].(*Namespace).Name)
	svc := objs[1].(*Service)
	assert.Equal(t, "shop/web", svc.Key())
	assert.Equal(t, FromInt32(8080), svc.Spec.Ports[0].TargetPort)
}

func TestDecodeUnknownKindInKubectlsWords(t *testing.T) {
	_, err := Decode([]byte("apiVersion: v1\nkind: Foo\nmetadata: {name: x}\n"))
	assert.EqualError(t, err, `no matches for kind "Foo" in version "v1"`)

	_, err = Decode([]byte("apiVersion: apps/v2\nkind: Deployment\n"))
	var noMatch *NoKindMatchError
	require.True(t, errors.As(err, &noMatch))
	assert.Equal(t, `no matches for kind "Deployment" in version "apps/v2"`, err.Error())
}

func TestDecodeErrorNamesTheDocument(t *testing.T) {
	manifest := "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Nope\n"
	_, err := Decode([]byte(manifest))
	assert.EqualError(t, err, `document 2: no matches for kind "Nope" in version "v1"`)
}

func TestDecodeMissingKind(t *testing.T) {
	_, err := Decode([]byte("apiVersion: v1\nmetadata: {name: a}\n"))
	assert.EqualError(t, err, `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"a"}}'`)
}

func TestDecodeMalformedYAMLGivesTheLineInTheWholeFile(t *testing.T) {
	manifest := "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: [b\n"
	_, err := Decode([]byte(manifest))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "error converting YAML to JSON: yaml: line 8:")
}

func TestDecodeMalformedJSONGivesTheLine(t *testing.T) {
	_, err := Decode([]byte("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Namespace\",\n  \"metadata\": {\"name\": \"a\",}\n}"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid JSON at line 4")
}

func TestDecodeWrongTypeIsAnError(t *testing.T) {
	_, err := Decode([]byte("apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: three\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot unmarshal string")
	assert.Contains(t, err.Error(), "spec.replicas")
}

func TestDecodeIntoFillsTypeMetaAndChecksTheKind(t *testing.T) {
	var pod Pod
	pod.Labels = map[string]string{"stale": "yes"}
	require.NoError(t, DecodeInto([]byte(`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`), &pod))
	assert.Equal(t, TypeMeta{APIVersion: "v1", Kind: "Pod"}, pod.TypeMeta)
	assert.Nil(t, pod.Labels, "DecodeInto replaces the object's contents")

	err := DecodeInto([]byte("apiVersion: v1\nkind: Node\n"), &pod)
	assert.EqualError(t, err, "the object in the data (v1, Node) does not match the expected kind (v1, Pod)")

	err = DecodeInto([]byte(`{"spec":{"replica":2}}`), &Scale{})
	assert.EqualError(t, err, `strict decoding error: unknown field "spec.replica"`)
}

func TestDecodeEmptyInputIsNoObjects(t *testing.T) {
	for _, in := range []string{"", "\n", "# nothing\n", "---\n---\n"} {
		objs, err := Decode([]byte(in))
		assert.NoError(t, err, "%q", in)
		assert.Empty(t, objs, "%q", in)
	}
}

func TestDecodeNonObjectIsAnError(t *testing.T) {
	for _, in := range []string{"- a\n- b\n", "hello\n", "42"} {
		_, err := Decode([]byte(in))
		assert.Error(t, err, "%q", in)
	}
}

// FuzzDecode checks that no input makes Decode panic, and that whatever decodes also encodes and
// decodes again to the same objects. The seeds run in every plain "go test".
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		seedDeployment,
		"apiVersion: v1\nkind: Pod\nspec: {containers: [{name: a, ports: [{containerPort: 1}]}]}\n",
		"apiVersion: v1\nkind: Node\nstatus: {capacity: {cpu: '4', memory: 8Gi}}\n---\nkind: x\n",
		`{"apiVersion":"apps/v1","kind":"Deployment","spec":{"strategy":{"rollingUpdate":{"maxSurge":"25%"}}}}`,
		`{"apiVersion":"v1","kind":"Service","spec":{"ports":[{"targetPort":{"a":1}}]}}`,
		"apiVersion: v1\nkind: Pod\nmetadata: [1, 2]\n",
		"{\"kind\":", "---\n: :\n", "\x00", "[[[[", "apiVersion: v1\nkind: Event\neventTime: x\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := Decode(data)
		if err != nil {
			return
		}
		for _, obj := range objs {
			out, err := Encode(obj)
			require.NoError(t, err)
			again, err := Decode(out)
			require.NoError(t, err, "%s", out)
			require.Len(t, again, 1)
		}
	})
}

func BenchmarkDecodeSeedManifest(b *testing.B) {
	for b.Loop() {
		if _, err := Decode([]byte(seedDeployment)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeIntoJSONPod(b *testing.B) {
	data, err := Encode(fullPod())
	require.NoError(b, err)
	for b.Loop() {
		var pod Pod
		if err := DecodeInto(data, &pod); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDecodeJSONWithEscapesAndSpaces(t *testing.T) {
	objs, err := Decode([]byte("{ \"apiVersion\" : \"v1\" ,\n \"kind\":\"Namespace\",\"metadata\":{ \"na\\u006de\" : \"x\\\"y\" , \"labels\" : { } } }"))
	require.NoError(t, err)
	assert.Equal(t, `x"y`, objs[0].GetObjectMeta().Name)
}
