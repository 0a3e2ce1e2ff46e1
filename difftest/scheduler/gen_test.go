package scheduler

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scheduler"
)

// A generated case: a small cluster and one pending pod, built from a seed (the same seed, the same
// case).
type genCase struct {
	seed    int64
	cluster scheduler.FixedCluster
	pod     *api.Pod
}

// The vocabulary the generator draws from: few values, so that labels, selectors, taints and
// tolerations meet often.
var (
	zones      = []string{"zone-a", "zone-b", "zone-c"}
	apps       = []string{"web", "db", "cache"}
	images     = []string{"nginx:1.25", "redis:7", "postgres:16", "busybox"}
	imageSizes = []int64{5 << 20, 80 << 20, 300 << 20, 1200 << 20}
	cpus       = []string{"0", "100m", "250m", "500m", "1", "2", "4"}
	mems       = []string{"0", "128Mi", "256Mi", "512Mi", "1Gi", "2Gi", "4Gi"}
	podsAllow  = []string{"0", "1", "2", "3", "110", "110", "110"}
	taints     = []api.Taint{
		{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule},
		{Key: "spot", Value: "true", Effect: api.TaintEffectPreferNoSchedule},
		{Key: "maintenance", Effect: api.TaintEffectNoExecute},
		{Key: "node.kubernetes.io/not-ready", Effect: api.TaintEffectNoExecute},
		{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule},
	}
	hostPorts = []int32{80, 443, 8080}
)

const (
	hostnameKey = "kubernetes.io/hostname"
	zoneKey     = "topology.kubernetes.io/zone"
)

func pick[T any](r *rand.Rand, s []T) T { return s[r.Intn(len(s))] }

// generate builds the case for seed.
func generate(seed int64) genCase {
	r := rand.New(rand.NewSource(seed))
	c := genCase{seed: seed}
	nNodes := 1 + r.Intn(8)
	for i := 1; i <= nNodes; i++ {
		c.cluster.Nodes = append(c.cluster.Nodes, genNode(r, fmt.Sprintf("node-%d", i)))
	}
	if r.Intn(3) == 0 {
		c.cluster.Services = append(c.cluster.Services, &api.Service{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Service"},
			ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: "default", UID: "svc-uid"},
			Spec:       api.ServiceSpec{Selector: map[string]string{"app": pick(r, apps)}},
		})
	}
	var rsLabels map[string]string
	if r.Intn(3) == 0 {
		rsLabels = map[string]string{"app": pick(r, apps)}
		c.cluster.ReplicaSets = append(c.cluster.ReplicaSets, &api.ReplicaSet{
			TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: api.ObjectMeta{Name: "rs", Namespace: "default", UID: "rs-uid"},
			Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: rsLabels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: rsLabels}}},
		})
	}
	nPods := r.Intn(13)
	for i := 0; i < nPods; i++ {
		p := genPod(r, fmt.Sprintf("pod-%d", i), false)
		p.Spec.NodeName = pick(r, c.cluster.Nodes).Name
		p.Status.Phase = api.PodRunning
		c.cluster.Pods = append(c.cluster.Pods, p)
	}
	c.pod = genPod(r, "pending", true)
	if rsLabels != nil && r.Intn(2) == 0 {
		c.pod.Labels = rsLabels
		controller := true
		c.pod.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid", Controller: &controller}}
	}
	c.pod.Status.Phase = api.PodPending
	genPreemption(rand.New(rand.NewSource(seed^0x5eed)), &c)
	genVolumes(rand.New(rand.NewSource(seed^0x7ea5)), &c)
	return c
}

// genPreemption gives two cases in three priorities, start times and PodDisruptionBudgets, so that
// preemption finds victims. It draws from a stream of its own: the rest of a seed's case stays as
// it was before preemption was compared.
func genPreemption(r *rand.Rand, c *genCase) {
	if r.Intn(3) == 0 {
		return
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range c.cluster.Pods {
		p.Spec.Priority = ptr(pick(r, []int32{0, 0, 10, 100, -5}))
		// Every pod has a start time: kube-scheduler takes time.Now() for one without.
		t := api.NewTime(start.Add(time.Duration(r.Intn(4)) * time.Minute))
		p.Status.StartTime = &t
	}
	c.pod.Spec.Priority = ptr(pick(r, []int32{0, 50, 100, 1000, 1000}))
	for i := range r.Intn(3) {
		pdb := &api.PodDisruptionBudget{
			TypeMeta:   api.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pdb-%d", i), Namespace: pick(r, []string{"default", "default", "other"}), UID: fmt.Sprintf("pdb-%d-uid", i)},
			Spec:       api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": pick(r, apps)}}},
			Status:     api.PodDisruptionBudgetStatus{DisruptionsAllowed: int32(r.Intn(2))},
		}
		if len(c.cluster.Pods) > 0 && r.Intn(3) == 0 {
			pdb.Status.DisruptedPods = map[string]api.Time{pick(r, c.cluster.Pods).Name: api.NewTime(start)}
		}
		c.cluster.DisruptionBudgets = append(c.cluster.DisruptionBudgets, pdb)
	}
}

func ptr[T any](v T) *T { return &v }

func genNode(r *rand.Rand, name string) *api.Node {
	n := &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: api.ObjectMeta{Name: name, UID: name + "-uid", Labels: map[string]string{hostnameKey: name}},
	}
	if r.Intn(5) > 0 {
		n.Labels[zoneKey] = pick(r, zones)
	}
	if r.Intn(2) == 0 {
		n.Labels["disk"] = pick(r, []string{"ssd", "hdd"})
	}
	alloc := resource.ResourceList{
		"cpu":    resource.MustParse(pick(r, cpus[3:])),
		"memory": resource.MustParse(pick(r, mems[3:])),
		"pods":   resource.MustParse(pick(r, podsAllow)),
	}
	n.Status.Capacity, n.Status.Allocatable = alloc, alloc
	if r.Intn(8) == 0 {
		n.Spec.Unschedulable = true
	}
	for range r.Intn(3) * r.Intn(2) {
		t := pick(r, taints)
		dup := false
		for _, have := range n.Spec.Taints {
			dup = dup || (have.Key == t.Key && have.Effect == t.Effect)
		}
		if !dup {
			n.Spec.Taints = append(n.Spec.Taints, t)
		}
	}
	for i, img := range images {
		if r.Intn(3) == 0 {
			// The names as a kubelet reports them vary: as written, fully qualified, or tagged latest.
			names := []string{img}
			switch r.Intn(3) {
			case 0:
				names = append(names, "docker.io/library/"+img)
			case 1:
				if !strings.Contains(img, ":") {
					names = []string{img + ":latest"}
				}
			}
			n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: names, SizeBytes: imageSizes[i]})
		}
	}
	return n
}

// genPod builds a pod; the pending one gets the scheduling constraints more often.
func genPod(r *rand.Rand, name string, pending bool) *api.Pod {
	p := &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name + "-uid", Labels: map[string]string{"app": pick(r, apps)}},
	}
	if r.Intn(6) == 0 {
		p.Namespace = "other"
	}
	if pending {
		p.Namespace = "default"
	}
	for i := range 1 + r.Intn(2) {
		ctr := api.Container{Name: fmt.Sprintf("c%d", i), Image: pick(r, images)}
		if r.Intn(4) > 0 {
			ctr.Resources.Requests = resource.ResourceList{}
			if cpu := pick(r, cpus[:1+r.Intn(len(cpus))]); cpu != "0" || r.Intn(2) == 0 {
				ctr.Resources.Requests["cpu"] = resource.MustParse(cpu)
			}
			if mem := pick(r, mems[:1+r.Intn(len(mems))]); mem != "0" || r.Intn(2) == 0 {
				ctr.Resources.Requests["memory"] = resource.MustParse(mem)
			}
		}
		if r.Intn(5) == 0 {
			ctr.Ports = []api.ContainerPort{{ContainerPort: 8080, HostPort: pick(r, hostPorts), Protocol: "TCP"}}
		}
		p.Spec.Containers = append(p.Spec.Containers, ctr)
	}
	odds := 6
	if pending {
		odds = 2
	}
	if r.Intn(odds) == 0 {
		p.Spec.Affinity = &api.Affinity{}
		genPodAffinity(r, p.Spec.Affinity)
	}
	if !pending {
		return p
	}
	if r.Intn(4) == 0 {
		p.Spec.NodeSelector = map[string]string{}
		switch r.Intn(3) {
		case 0:
			p.Spec.NodeSelector[zoneKey] = pick(r, zones)
		case 1:
			p.Spec.NodeSelector["disk"] = "ssd"
		default:
			p.Spec.NodeSelector[hostnameKey] = fmt.Sprintf("node-%d", 1+r.Intn(9))
		}
	}
	if r.Intn(3) == 0 {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &api.Affinity{}
		}
		p.Spec.Affinity.NodeAffinity = genNodeAffinity(r)
	}
	for range r.Intn(3) {
		t := pick(r, taints)
		tol := api.Toleration{Key: t.Key, Operator: api.TolerationOpEqual, Value: t.Value, Effect: t.Effect}
		switch r.Intn(4) {
		case 0:
			tol.Operator, tol.Value = api.TolerationOpExists, ""
		case 1:
			tol.Effect = ""
		}
		p.Spec.Tolerations = append(p.Spec.Tolerations, tol)
	}
	for range r.Intn(3) {
		c := api.TopologySpreadConstraint{MaxSkew: int32(1 + r.Intn(2)), TopologyKey: pick(r, []string{hostnameKey, zoneKey}),
			WhenUnsatisfiable: pick(r, []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}),
			LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"app": pick(r, apps)}}}
		if c.WhenUnsatisfiable == api.DoNotSchedule && r.Intn(4) == 0 {
			d := int32(2 + r.Intn(3))
			c.MinDomains = &d
		}
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	}
	if r.Intn(25) == 0 {
		p.Spec.NodeName = fmt.Sprintf("node-%d", 1+r.Intn(9))
	}
	if r.Intn(10) == 0 {
		never := api.PreemptNever
		p.Spec.PreemptionPolicy = &never
	}
	return p
}

func genNodeAffinity(r *rand.Rand) *api.NodeAffinity {
	na := &api.NodeAffinity{}
	requirement := func() (api.NodeSelectorRequirement, bool) {
		switch r.Intn(5) {
		case 0:
			return api.NodeSelectorRequirement{Key: "metadata.name", Operator: api.NodeSelectorOpIn,
				Values: []string{fmt.Sprintf("node-%d", 1+r.Intn(9))}}, true
		case 1:
			return api.NodeSelectorRequirement{Key: zoneKey, Operator: api.NodeSelectorOpNotIn, Values: []string{pick(r, zones)}}, false
		case 2:
			return api.NodeSelectorRequirement{Key: "disk", Operator: api.NodeSelectorOpExists}, false
		case 3:
			return api.NodeSelectorRequirement{Key: "disk", Operator: api.NodeSelectorOpDoesNotExist}, false
		}
		return api.NodeSelectorRequirement{Key: zoneKey, Operator: api.NodeSelectorOpIn, Values: []string{pick(r, zones), pick(r, zones)}}, false
	}
	term := func() api.NodeSelectorTerm {
		var t api.NodeSelectorTerm
		for range 1 + r.Intn(2) {
			req, field := requirement()
			if field {
				t.MatchFields = append(t.MatchFields, req)
			} else {
				t.MatchExpressions = append(t.MatchExpressions, req)
			}
		}
		return t
	}
	if r.Intn(2) == 0 {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{}
		for range 1 + r.Intn(2) {
			na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = append(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms, term())
		}
	}
	for range r.Intn(3) {
		na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
			api.PreferredSchedulingTerm{Weight: int32(1 + r.Intn(100)), Preference: term()})
	}
	return na
}

func genPodAffinity(r *rand.Rand, a *api.Affinity) {
	term := func() api.PodAffinityTerm {
		t := api.PodAffinityTerm{TopologyKey: pick(r, []string{hostnameKey, zoneKey}),
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": pick(r, apps)}}}
		if r.Intn(5) == 0 {
			t.Namespaces = []string{pick(r, []string{"default", "other"})}
		}
		return t
	}
	// terms is one required or one preferred term.
	terms := func() ([]api.PodAffinityTerm, []api.WeightedPodAffinityTerm) {
		if r.Intn(2) == 0 {
			return []api.PodAffinityTerm{term()}, nil
		}
		return nil, []api.WeightedPodAffinityTerm{{Weight: int32(1 + r.Intn(100)), PodAffinityTerm: term()}}
	}
	if r.Intn(2) == 0 {
		required, preferred := terms()
		a.PodAffinity = &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required,
			PreferredDuringSchedulingIgnoredDuringExecution: preferred}
	}
	if r.Intn(2) == 0 {
		required, preferred := terms()
		a.PodAntiAffinity = &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required,
			PreferredDuringSchedulingIgnoredDuringExecution: preferred}
	}
}

// The storage vocabulary: classes that bind at once or wait for the first consumer, with a
// provisioner or without (kubernetes.io/no-provisioner: volumes made by hand).
var (
	classNames = []string{"fast", "wait", "manual"}
	sizes      = []string{"1Gi", "5Gi", "10Gi"}
)

const (
	betaZoneKey   = "failure-domain.beta.kubernetes.io/zone"
	regionKey     = "topology.kubernetes.io/region"
	betaRegionKey = "failure-domain.beta.kubernetes.io/region"
)

// genVolumes gives one case in two StorageClasses, PersistentVolumes and PersistentVolumeClaims,
// and the pending pod (and some bound pods) volumes that use the claims: bound to volumes with node
// affinity and zone labels, pre-bound but not yet complete, waiting for their first consumer (with
// or without a matching volume, a provisioner, a selected node), Immediate and unbound,
// ReadWriteOncePod and held by another pod, or missing. It draws from a stream of its own, as
// genPreemption does.
func genVolumes(r *rand.Rand, c *genCase) {
	if r.Intn(2) == 0 {
		return
	}
	// In one case in two (three in four when the pending pod's priority lets it preempt) the
	// pending pod's only claim waits for its first consumer and can be provisioned anywhere: the pod
	// still fits somewhere, and preemption is still reached about as often as without volumes. In
	// the others some nodes also get region labels, or the deprecated beta zone label instead of
	// the GA one.
	benign := r.Intn(2) == 0 || c.pod.Spec.Priority != nil && *c.pod.Spec.Priority >= 100 && r.Intn(2) == 0
	for _, n := range c.cluster.Nodes {
		if benign {
			break
		}
		if z, ok := n.Labels[zoneKey]; ok && r.Intn(6) == 0 {
			delete(n.Labels, zoneKey)
			n.Labels[betaZoneKey] = z
		}
		if r.Intn(4) == 0 {
			n.Labels[pick(r, []string{regionKey, betaRegionKey})] = pick(r, []string{"eu", "us"})
		}
	}
	for _, name := range classNames {
		if r.Intn(8) == 0 {
			continue // a class that does not exist
		}
		sc := &api.StorageClass{
			TypeMeta:    api.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"},
			ObjectMeta:  api.ObjectMeta{Name: name, UID: name + "-uid"},
			Provisioner: "kubesim.io/hostpath",
		}
		mode := api.VolumeBindingWaitForFirstConsumer
		switch name {
		case "fast":
			mode = api.VolumeBindingImmediate
		case "manual":
			sc.Provisioner = api.NotProvisioned
		}
		if r.Intn(8) == 0 {
			sc.Provisioner = pick(r, []string{api.NotProvisioned, "kubesim.io/hostpath"})
		}
		sc.VolumeBindingMode = &mode
		c.cluster.Classes = append(c.cluster.Classes, sc)
	}
	fs := api.PersistentVolumeFilesystem
	for i := range r.Intn(6) {
		pv := &api.PersistentVolume{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pv-%d", i), UID: fmt.Sprintf("pv-%d-uid", i), Labels: map[string]string{}},
			Spec: api.PersistentVolumeSpec{
				Capacity:                      resource.ResourceList{"storage": resource.MustParse(pick(r, sizes))},
				AccessModes:                   []api.PersistentVolumeAccessMode{pick(r, []api.PersistentVolumeAccessMode{api.ReadWriteOnce, api.ReadWriteOnce, api.ReadWriteOncePod, api.ReadWriteMany})},
				PersistentVolumeReclaimPolicy: api.PersistentVolumeReclaimRetain,
				StorageClassName:              pick(r, classNames),
				VolumeMode:                    &fs,
			},
			Status: api.PersistentVolumeStatus{Phase: pick(r, []api.PersistentVolumePhase{api.VolumeAvailable, api.VolumeAvailable, api.VolumeBound, api.VolumeReleased})},
		}
		if r.Intn(2) == 0 {
			pv.Spec.Local = &api.LocalVolumeSource{Path: "/mnt/" + pv.Name}
		} else {
			pv.Spec.HostPath = &api.HostPathVolumeSource{Path: "/data/" + pv.Name}
		}
		switch r.Intn(4) {
		case 0:
			pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: hostnameKey, Operator: api.NodeSelectorOpIn,
					Values: []string{fmt.Sprintf("node-%d", 1+r.Intn(len(c.cluster.Nodes)+1))}}}}}}}
		case 1:
			pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: zoneKey, Operator: api.NodeSelectorOpIn, Values: []string{pick(r, zones)}}}}}}}
		}
		if r.Intn(2) == 0 {
			zone := pick(r, zones)
			switch r.Intn(4) {
			case 0:
				zone += "__" + pick(r, zones) // a volume in two zones
			case 1:
				zone += "__" // a label Kubernetes cannot parse, and ignores
			}
			pv.Labels[pick(r, []string{zoneKey, zoneKey, betaZoneKey})] = zone
		}
		if r.Intn(5) == 0 {
			pv.Labels[pick(r, []string{regionKey, betaRegionKey})] = pick(r, []string{"eu", "us"})
		}
		c.cluster.Volumes = append(c.cluster.Volumes, pv)
	}
	nClaims := 1 + r.Intn(4)
	for i := range nClaims {
		class := pick(r, classNames)
		pvc := &api.PersistentVolumeClaim{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("claim-%d", i), Namespace: "default", UID: fmt.Sprintf("claim-%d-uid", i)},
			Spec: api.PersistentVolumeClaimSpec{
				AccessModes:      []api.PersistentVolumeAccessMode{pick(r, []api.PersistentVolumeAccessMode{api.ReadWriteOnce, api.ReadWriteOncePod, api.ReadWriteOncePod})},
				Resources:        api.VolumeResourceRequirements{Requests: resource.ResourceList{"storage": resource.MustParse(pick(r, sizes))}},
				StorageClassName: &class,
				VolumeMode:       &fs,
			},
			Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending},
		}
		if r.Intn(20) == 0 {
			empty := ""
			pvc.Spec.StorageClassName = &empty
		}
		switch r.Intn(5) {
		case 0, 1: // bound, to a volume that exists (or, now and then, one that does not)
			if len(c.cluster.Volumes) > 0 && r.Intn(6) > 0 {
				pv := pick(r, c.cluster.Volumes)
				pvc.Spec.VolumeName = pv.Name
				pv.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: "default", Name: pvc.Name, UID: pvc.UID}
				pv.Status.Phase = api.VolumeBound
			} else {
				pvc.Spec.VolumeName = "pv-gone"
			}
			if r.Intn(10) > 0 {
				pvc.Annotations = map[string]string{api.AnnBindCompleted: "yes"}
			}
			pvc.Status.Phase = api.ClaimBound
		case 2: // waiting for a node the scheduler chose
			if r.Intn(3) == 0 {
				pvc.Annotations = map[string]string{api.AnnSelectedNode: pick(r, c.cluster.Nodes).Name}
			}
			fallthrough
		default: // unbound: mostly of a class that waits for the first consumer
			if class == "fast" && r.Intn(6) > 0 {
				*pvc.Spec.StorageClassName = pick(r, []string{"wait", "manual"})
			}
		}
		if r.Intn(8) == 0 && len(c.cluster.Volumes) > 0 && pvc.Spec.VolumeName == "" {
			// a volume pre-bound to the claim by its author (claimRef without a UID)
			pv := pick(r, c.cluster.Volumes)
			if pv.Spec.ClaimRef == nil {
				pv.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: "default", Name: pvc.Name}
			}
		}
		c.cluster.Claims = append(c.cluster.Claims, pvc)
	}
	mount := func(p *api.Pod, claim string) {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: fmt.Sprintf("v%d", len(p.Spec.Volumes)),
			VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}}})
	}
	// Bound pods that hold claims: a ReadWriteOncePod one in use makes the pending pod wait.
	for _, p := range c.cluster.Pods {
		if r.Intn(4) == 0 {
			mount(p, fmt.Sprintf("claim-%d", r.Intn(nClaims+1)))
		}
	}
	// The pending pod: one or two claims (now and then one that does not exist), and an emptyDir.
	if benign {
		wait := "wait"
		c.cluster.Classes = slices.DeleteFunc(c.cluster.Classes, func(sc *api.StorageClass) bool { return sc.Name == wait })
		mode := api.VolumeBindingWaitForFirstConsumer
		c.cluster.Classes = append(c.cluster.Classes, &api.StorageClass{
			TypeMeta:   api.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"},
			ObjectMeta: api.ObjectMeta{Name: wait, UID: wait + "-uid"}, Provisioner: "kubesim.io/hostpath", VolumeBindingMode: &mode})
		c.cluster.Claims = append(c.cluster.Claims, &api.PersistentVolumeClaim{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
			ObjectMeta: api.ObjectMeta{Name: "scratch", Namespace: "default", UID: "scratch-uid"},
			Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
				Resources:        api.VolumeResourceRequirements{Requests: resource.ResourceList{"storage": resource.MustParse("1Gi")}},
				StorageClassName: &wait, VolumeMode: &fs},
			Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending},
		})
		mount(c.pod, "scratch")
		return
	}
	for range 1 + r.Intn(4)/3 {
		claim := fmt.Sprintf("claim-%d", r.Intn(nClaims))
		if r.Intn(12) == 0 {
			claim = "missing"
		}
		mount(c.pod, claim)
	}
	if r.Intn(4) == 0 {
		c.pod.Spec.Volumes = append(c.pod.Spec.Volumes, api.Volume{Name: "scratch", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}})
	}
	// A pending pod with a priority outranks, in one case in two, the bound pods that hold its
	// claims: preemption may evict the holder of a ReadWriteOncePod claim (VolumeRestrictions'
	// RemovePod).
	if c.pod.Spec.Priority == nil || r.Intn(2) == 0 {
		return
	}
	for _, p := range c.cluster.Pods {
		for _, v := range p.Spec.Volumes {
			if slices.ContainsFunc(c.pod.Spec.Volumes, func(w api.Volume) bool {
				return w.PersistentVolumeClaim != nil && w.PersistentVolumeClaim.ClaimName == v.PersistentVolumeClaim.ClaimName
			}) {
				p.Spec.Priority = ptr(min(*p.Spec.Priority, *c.pod.Spec.Priority-1))
			}
		}
	}
}
