package deployment

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/dump"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	"k8s.io/kubernetes/pkg/controller"
	"sigs.k8s.io/yaml"

	"kubesim/api"
	"kubesim/controllers/deployment"
)

var seeds = flag.Int("seeds", 2000, "generated templates to compare")

// realDeployment is the Deployment as kube-controller-manager v1.34 holds it after the apiserver took
// the manifest: decoded from JSON, defaulted (apps/v1 SetObjectDefaults_Deployment), converted to
// the internal type and back as the apiserver does before storing, then through protobuf, the
// encoding etcd keeps and the controller reads.
func realDeployment(t testing.TB, manifest []byte) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	if err := json.Unmarshal(manifest, &d); err != nil {
		t.Fatalf("k8s.io/api does not decode %s: %v", manifest, err)
	}
	legacyscheme.Scheme.Default(&d)
	var internal apps.Deployment
	if err := legacyscheme.Scheme.Convert(&d, &internal, nil); err != nil {
		t.Fatal(err)
	}
	var stored appsv1.Deployment
	if err := legacyscheme.Scheme.Convert(&internal, &stored, nil); err != nil {
		t.Fatal(err)
	}
	return protobufRoundTrip(t, &stored)
}

func protobufRoundTrip(t testing.TB, d *appsv1.Deployment) *appsv1.Deployment {
	t.Helper()
	b, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var out appsv1.Deployment
	if err := out.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	return &out
}

// kubesimDeployment is the Deployment as kubesim's controller holds it: decoded by kubesim's api,
// defaulted by kubesim's apiserver, and through JSON, the encoding kubesim's etcd keeps.
func kubesimDeployment(t testing.TB, manifest []byte) *api.Deployment {
	t.Helper()
	var d api.Deployment
	if err := api.DecodeInto(manifest, &d); err != nil {
		t.Fatalf("kubesim does not decode %s: %v", manifest, err)
	}
	api.SetDefaults(&d)
	b, err := json.Marshal(&d)
	if err != nil {
		t.Fatal(err)
	}
	var stored api.Deployment
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	return &stored
}

// compareCase runs one manifest through both sides and reports the first difference: the printed
// text of kubesim's defaulted template against spew's print of the same template (the printer), then
// against the real apiserver's defaulting (kubesim's defaults), then the hashes.
func compareCase(t *testing.T, name string, manifest []byte) bool {
	t.Helper()
	ksim := kubesimDeployment(t, manifest)
	text := deployment.HashedText(&ksim.Spec.Template)

	// The printer: kubesim's defaulted template, moved into k8s.io/api's struct.
	b, err := json.Marshal(ksim)
	if err != nil {
		t.Fatal(err)
	}
	var same appsv1.Deployment
	if err := json.Unmarshal(b, &same); err != nil {
		t.Fatal(err)
	}
	withUnmodelledDefaults(&same.Spec.Template.Spec)
	if want := dump.ForHash(protobufRoundTrip(t, &same).Spec.Template); text != want {
		t.Errorf("%s: kubesim prints its template unlike go-spew\n%s\nmanifest: %s", name, firstDifference(text, want), manifest)
		return false
	}

	// The apiserver's defaulting and the controller's hash.
	real := realDeployment(t, manifest)
	if want := dump.ForHash(real.Spec.Template); text != want {
		t.Errorf("%s: kubesim's defaulted template differs from the real apiserver's\n%s\nmanifest: %s", name, firstDifference(text, want), manifest)
		return false
	}
	for _, cc := range []*int32{nil, ptr[int32](0), ptr[int32](1), ptr[int32](7), ptr[int32](-3)} {
		got, want := deployment.ComputeHash(&ksim.Spec.Template, cc), controller.ComputeHash(&real.Spec.Template, cc)
		if got != want {
			t.Errorf("%s: collisionCount %v: kubesim hash %s, Kubernetes %s", name, show(cc), got, want)
			return false
		}
	}
	return true
}

// withUnmodelledDefaults sets the defaults that kubesim's hash adds for fields its types do not have
// (controllers/deployment/spew.go), as the apiserver's SetDefaults_PodSpec and SetDefaults_Container
// do, and serviceAccount, which its conversion to v1 copies from serviceAccountName.
func withUnmodelledDefaults(spec *v1.PodSpec) {
	if spec.SecurityContext == nil {
		spec.SecurityContext = &v1.PodSecurityContext{}
	}
	spec.DeprecatedServiceAccount = spec.ServiceAccountName
	for _, list := range [][]v1.Container{spec.InitContainers, spec.Containers} {
		for i := range list {
			if list[i].TerminationMessagePath == "" {
				list[i].TerminationMessagePath = v1.TerminationMessagePathDefault
			}
			if list[i].TerminationMessagePolicy == "" {
				list[i].TerminationMessagePolicy = v1.TerminationMessageReadFile
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

func show(p *int32) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

// firstDifference shows where two texts part: the position and some context of each.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-120)
	cut := func(s string) string { return s[from:min(len(s), i+120)] }
	return fmt.Sprintf("first difference at byte %d of %d/%d:\n kubesim: ...%s...\n spew:    ...%s...", i, len(got), len(want), cut(got), cut(want))
}

// TestScenarioTemplatesHashAsKubernetes takes every Deployment in the scenarios' and examples'
// manifests.
func TestScenarioTemplatesHashAsKubernetes(t *testing.T) {
	n := 0
	for _, dir := range []string{"../../scenarios/manifests", "../../examples"} {
		err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, doc := range strings.Split(string(data), "\n---") {
				var m map[string]any
				if err := yaml.Unmarshal([]byte(doc), &m); err != nil || m["kind"] != "Deployment" {
					continue
				}
				j, _ := json.Marshal(m)
				n++
				compareCase(t, fmt.Sprintf("%s#%d", path, i), j)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 10 {
		t.Fatalf("only %d Deployments found in the manifests", n)
	}
	t.Logf("%d Deployments from the scenarios' and examples' manifests compared", n)
}

// TestGeneratedTemplatesHashAsKubernetes compares seeded random templates over the fields kubesim
// models.
func TestGeneratedTemplatesHashAsKubernetes(t *testing.T) {
	failed := 0
	for seed := range *seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 16))
		manifest, _ := json.Marshal(map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "namespace": "default"},
			"spec": map[string]any{
				"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": genTemplate(r),
			},
		})
		if !compareCase(t, fmt.Sprintf("seed %d", seed), manifest) {
			if failed++; failed == 3 {
				t.Fatal("stopping after 3 differing cases")
			}
		}
	}
	t.Logf("%d generated templates compared", *seeds)
}

// TestKubectlCreateDeployment is `kubectl create deployment nginx --image=nginx` against 1.34: the
// Deployment kubectl v0.34.1 builds (pkg/cmd/create/create_deployment.go, createDeployment and
// buildPodSpec, no --port, --replicas 1), sent as JSON; controllers/deployment's unit test holds the
// hash it logs.
func TestKubectlCreateDeployment(t *testing.T) {
	labels := map[string]string{"app": "nginx"}
	sent := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "nginx", Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: v1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "nginx", Image: "nginx"}}},
			},
		},
	}
	manifest, err := json.Marshal(sent)
	if err != nil {
		t.Fatal(err)
	}
	if !compareCase(t, "kubectl create deployment nginx --image=nginx", manifest) {
		return
	}
	real := realDeployment(t, manifest)
	const want = "66686b6766" // controllers/deployment's TestKubectlCreateDeploymentHashesAsARealCluster
	if got := controller.ComputeHash(&real.Spec.Template, nil); got != want {
		t.Fatalf("Kubernetes hashes kubectl's template %s, the unit test in controllers/deployment says %s", got, want)
	}
	t.Logf("kubectl create deployment nginx --image=nginx: pod-template-hash %s on both sides", want)
}
