package apiserver

import (
	"encoding/json"
	"reflect"
	"testing"

	"kubesim/api"
	"kubesim/api/resource"
)

func sharePod(name, owner, image string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default",
		Labels:          map[string]string{"app": "web", "pod-template-hash": "abc"},
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-abc", UID: owner, Controller: new(bool)}}}}
	*p.OwnerReferences[0].Controller = true
	p.Spec.Containers = []api.Container{{Name: "app", Image: image, Resources: api.ResourceRequirements{
		Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("1m")}}}}
	p.Spec.Tolerations = make([]api.Toleration, 1, 4) // room past the end, as a decoded slice may have
	p.Spec.Tolerations[0] = api.Toleration{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute"}
	p.Spec.NodeName = "node-" + name
	return p
}

func same[T any](a, b []T) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

func TestSharerSharesEqualPartsOfOneController(t *testing.T) {
	s := newSharer()
	a, b := sharePod("a", "rs-1", "nginx:1.25"), sharePod("b", "rs-1", "nginx:1.25")
	wantB, _ := json.Marshal(b)
	s.share(a)
	s.share(b)
	if !same(a.Spec.Containers, b.Spec.Containers) || !same(a.Spec.Tolerations, b.Spec.Tolerations) || !same(a.OwnerReferences, b.OwnerReferences) {
		t.Errorf("pods of one ReplicaSet with equal parts do not share them")
	}
	if reflect.ValueOf(a.Labels).UnsafePointer() != reflect.ValueOf(b.Labels).UnsafePointer() {
		t.Errorf("equal labels are not shared")
	}
	if got, _ := json.Marshal(b); string(got) != string(wantB) {
		t.Errorf("sharing changed the pod:\n%s\nwant\n%s", got, wantB)
	}

	if cap(b.Spec.Tolerations) != len(b.Spec.Tolerations) {
		t.Errorf("a shared slice has room past its end (cap %d, len %d): an append would write into another pod's", cap(b.Spec.Tolerations), len(b.Spec.Tolerations))
	}

	// A part that differs stays the pod's own, and becomes the one later pods share.
	c := sharePod("c", "rs-1", "nginx:1.26")
	s.share(c)
	if same(a.Spec.Containers, c.Spec.Containers) || c.Spec.Containers[0].Image != "nginx:1.26" {
		t.Errorf("a pod with other containers got the shared ones: %+v", c.Spec.Containers)
	}
	if !same(a.Spec.Tolerations, c.Spec.Tolerations) {
		t.Errorf("its equal tolerations are not shared")
	}
	d := sharePod("d", "rs-1", "nginx:1.26")
	s.share(d)
	if !same(c.Spec.Containers, d.Spec.Containers) {
		t.Errorf("the next pod does not share the changed containers")
	}

	// Another controller's pods share nothing with these.
	e := sharePod("e", "rs-2", "nginx:1.26")
	s.share(e)
	if same(d.Spec.Containers, e.Spec.Containers) {
		t.Errorf("pods of two ReplicaSets share containers")
	}

	// Not a pod: untouched.
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "x", Labels: map[string]string{"a": "b"}}}
	if s.share(cm) != api.Object(cm) {
		t.Errorf("share returned another object for a ConfigMap")
	}
}

func TestSharerTableIsBounded(t *testing.T) {
	s := newSharer()
	for i := range maxSharedOwners + 10 {
		s.share(sharePod("p", string(rune('a'+i%26))+string(rune(i)), "nginx"))
	}
	if len(s.pods) > maxSharedOwners {
		t.Errorf("the table holds %d controllers, more than %d", len(s.pods), maxSharedOwners)
	}
}

// Each pod mounts its own kube-api-access-xxxxx volume, so its containers as a whole never equal
// another's: their equal parts (resources, ports, ...) and the volume's source are shared instead,
// the pods' own arrays written, never the ones another pod holds.
func TestSharerSharesContainerPartsWhenOnlyTheMountsDiffer(t *testing.T) {
	s := newSharer()
	withToken := func(name, volume string) *api.Pod {
		p := sharePod(name, "rs-1", "nginx:1.25")
		p.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m")}}
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, Protocol: api.ProtocolTCP}}
		p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: volume, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}}
		p.Spec.Volumes = []api.Volume{{Name: volume, VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{DefaultMode: api.Ptr[int32](420)}}}}
		return p
	}
	a, b := withToken("a", "kube-api-access-aaaaa"), withToken("b", "kube-api-access-bbbbb")
	wantB, _ := json.Marshal(b)
	s.share(a)
	aContainers := a.Spec.Containers
	s.share(b)
	if same(a.Spec.Containers, b.Spec.Containers) {
		t.Fatalf("containers with different mounts were shared whole")
	}
	if reflect.ValueOf(a.Spec.Containers[0].Resources.Requests).UnsafePointer() != reflect.ValueOf(b.Spec.Containers[0].Resources.Requests).UnsafePointer() {
		t.Errorf("equal resources are not shared")
	}
	if !same(a.Spec.Containers[0].Ports, b.Spec.Containers[0].Ports) {
		t.Errorf("equal ports are not shared")
	}
	if a.Spec.Volumes[0].Projected != b.Spec.Volumes[0].Projected {
		t.Errorf("the token volume's equal source is not shared")
	}
	if got, _ := json.Marshal(b); string(got) != string(wantB) {
		t.Errorf("sharing changed the pod:\n%s\nwant\n%s", got, wantB)
	}
	if &aContainers[0] != &a.Spec.Containers[0] || a.Spec.Containers[0].VolumeMounts[0].Name != "kube-api-access-aaaaa" {
		t.Errorf("sharing b changed a")
	}
}

// The cache's copy of an object its writer keeps (keep) shares nothing the writer could change: after
// the writer scribbles over every field, map, slice and pointee of its pods, the cache's copies read
// as before, whether their parts were taken from the kept ones or copied.
func TestKeptCopiesShareNothingWithTheWriter(t *testing.T) {
	s := newSharer()
	rich := func(name, volume string) *api.Pod {
		p := sharePod(name, "rs-1", "nginx:1.25")
		p.Annotations = map[string]string{"note": "x"}
		p.Finalizers = []string{"example.com/keep"}
		p.Spec.NodeSelector = map[string]string{"disk": "ssd"}
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{}}
		c := &p.Spec.Containers[0]
		c.Args = []string{"serve"}
		c.Env = []api.EnvVar{{Name: "A", Value: "1"}}
		c.Ports = []api.ContainerPort{{ContainerPort: 80}}
		c.ReadinessProbe = &api.Probe{PeriodSeconds: 5}
		c.VolumeMounts = []api.VolumeMount{{Name: volume, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}}
		p.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox", Args: []string{"true"}}}
		p.Spec.Volumes = []api.Volume{{Name: volume, VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{
			DefaultMode: api.Ptr[int32](420), Sources: []api.VolumeProjection{{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token"}}}}}}}
		p.Status.Conditions = []api.PodCondition{{Type: "Ready", Status: "True"}}
		p.Spec.TerminationGracePeriodSeconds = api.Ptr[int64](30)
		return p
	}
	if n := reflect.TypeFor[api.Volume]().NumField(); n != 2 {
		t.Fatalf("api.Volume has %d fields: keep copies a volume's name and source, and nothing else", n)
	}
	writers := []*api.Pod{rich("a", "kube-api-access-aaaaa"), rich("b", "kube-api-access-bbbbb"), rich("c", "kube-api-access-bbbbb")}
	writers[2].Spec.Containers[0].Image = "nginx:1.26" // parts that differ are copied
	*writers[2].Spec.Volumes[0].Projected.DefaultMode = 0o600
	var kept []api.Object
	var want []string
	for _, w := range writers {
		before, _ := json.Marshal(w)
		k := s.keep(w)
		got, _ := json.Marshal(k)
		if string(got) != string(before) {
			t.Fatalf("the kept copy differs from the pod:\n%s\nwant\n%s", got, before)
		}
		kept, want = append(kept, k), append(want, string(before))
	}
	if !same(kept[0].(*api.Pod).Spec.Tolerations, kept[1].(*api.Pod).Spec.Tolerations) {
		t.Errorf("the kept copies do not share their equal parts")
	}
	for _, w := range writers {
		scribble(reflect.ValueOf(w).Elem())
	}
	for i, k := range kept {
		if got, _ := json.Marshal(k); string(got) != want[i] {
			t.Errorf("scribbling over the writer's pod changed the cache's copy:\n%s\nwant\n%s", got, want[i])
		}
	}
}

// scribble changes every string, number and bool reachable from v in place, and adds a key to every
// map.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				scribble(f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, key := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(key))
			scribble(e)
			v.SetMapIndex(key, e)
		}
		if v.Type().Key().Kind() == reflect.String {
			v.SetMapIndex(reflect.ValueOf("scribbled").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(v.String() + "!")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			v.SetInt(v.Int() + 1)
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	}
}
