// provisioner.go: a simulated external provisioner, what a CSI driver's csi-provisioner sidecar (or
// rancher.io/local-path) does with sig-storage-lib-external-provisioner. It runs beside the binder in
// kube-controller-manager here; in a real cluster it is a Deployment of its own.
//
//	NewProvisioner(c, informers, clk, tr, recorder) *Provisioner
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, key)          provision for one claim ("<ns>/<name>")
//
// It serves a claim the binder handed over (volume.kubernetes.io/storage-provisioner names the
// class's provisioner) that has no volume yet: for a WaitForFirstConsumer class only once the
// scheduler has written the selected node. The volume it makes, "pvc-<claim uid>", is pre-bound to
// the claim (claimRef), sized as the claim asks, of the claim's class and access modes, with the
// class's reclaim policy; on a selected node it is a local volume with node affinity to that node,
// so that a pod using it is scheduled there. The binder then completes the binding.
package persistentvolume

import (
	"context"
	"fmt"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// ProvisionerName is the component's name in the trace.
const ProvisionerName = "external-provisioner"

// The provisioner's events, with sig-storage-lib-external-provisioner's reasons and messages.
const (
	ReasonProvisioning          = "Provisioning"
	ReasonProvisioningSucceeded = "ProvisioningSucceeded"
)

// VolumeDir is where the simulated provisioner says its volumes live on a node.
const VolumeDir = "/var/lib/kubesim/volumes/"

// Provisioner makes volumes for claims.
type Provisioner struct {
	workloop.Component
	client  *client.Client
	tracer  internal.Tracer
	events  func(provisioner string) *client.EventRecorder
	claims  *client.Informer[api.PersistentVolumeClaim, *api.PersistentVolumeClaim]
	volumes *client.Informer[api.PersistentVolume, *api.PersistentVolume]
	classes *client.Informer[api.StorageClass, *api.StorageClass]
}

// NewProvisioner builds the provisioner on informers from the shared factory. recorder makes the
// event recorder of one provisioner: its events name the provisioner as their source.
func NewProvisioner(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, recorder func(provisioner string) *client.EventRecorder) *Provisioner {
	p := &Provisioner{client: c, tracer: internal.Tracer{Component: ProvisionerName, Recorder: tr}, events: recorder,
		claims:  client.InformerFor[api.PersistentVolumeClaim](informers, client.FactoryOptions{}),
		volumes: client.InformerFor[api.PersistentVolume](informers, client.FactoryOptions{}),
		classes: client.InformerFor[api.StorageClass](informers, client.FactoryOptions{})}
	queue := workqueue.New(clk, ProvisionerName, workqueue.DefaultControllerRateLimiter[string]())
	p.Component = workloop.NewComponent(&workloop.Loop{Queue: queue, Reconcile: p.Reconcile, Workers: 1,
		Component: ProvisionerName, Actor: Identity, Trace: tr, Resource: "persistentvolumeclaims"},
		p.classes, p.volumes, p.claims)
	p.claims.AddHandler(client.Handler[*api.PersistentVolumeClaim]{
		OnAdd:    func(c *api.PersistentVolumeClaim) { queue.Add(claimKey(c)) },
		OnUpdate: func(_, c *api.PersistentVolumeClaim) { queue.Add(claimKey(c)) },
	})
	return p
}

// Reconcile provisions a volume for the claim if it is handed over, unbound and has none yet.
func (p *Provisioner) Reconcile(ctx context.Context, key string) (workloop.Result, error) {
	claim, ok := p.claims.Get(key)
	if !ok || claim.DeletionTimestamp != nil || claim.Spec.VolumeName != "" {
		return workloop.Result{Idle: true}, nil
	}
	provisioner := claim.Annotations[api.AnnStorageProvisioner]
	class, ok := p.classes.Get(api.ClaimClass(claim))
	if provisioner == "" || provisioner == api.NotProvisioned || !ok || class.Provisioner != provisioner {
		return workloop.Result{Idle: true}, nil
	}
	node, selected := claim.Annotations[api.AnnSelectedNode]
	if class.BindingMode() == api.VolumeBindingWaitForFirstConsumer && !selected {
		return workloop.Result{Idle: true}, nil
	}
	name := "pvc-" + string(claim.UID)
	if _, exists := p.volumes.Get(name); exists {
		return workloop.Result{Idle: true}, nil
	}
	events := p.events(provisioner)
	events.Eventf(ctx, claim, client.EventNormal, ReasonProvisioning, "External provisioner is provisioning volume for claim %q", key)
	p.tracer.Record("create", volumePrefix+name, claim.ResourceVersion, "%s makes volume %s for claim %s", provisioner, name, key)
	_, err := client.For[api.PersistentVolume](p.client).Create(ctx, volumeFor(claim, class, name, node))
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return workloop.Result{}, err
	}
	events.Eventf(ctx, claim, client.EventNormal, ReasonProvisioningSucceeded, "Successfully provisioned volume %s", name)
	return workloop.Result{}, nil
}

// volumeFor is the volume the provisioner makes for claim: on node (if any) as a local volume.
func volumeFor(claim *api.PersistentVolumeClaim, class *api.StorageClass, name, node string) *api.PersistentVolume {
	pv := &api.PersistentVolume{
		ObjectMeta: api.ObjectMeta{Name: name, Annotations: map[string]string{api.AnnProvisionedBy: class.Provisioner}},
		Spec: api.PersistentVolumeSpec{
			Capacity:         resource.ResourceList{resource.ResourceStorage: claim.Spec.Resources.Requests[resource.ResourceStorage]},
			AccessModes:      claim.Spec.AccessModes,
			StorageClassName: class.Name,
			VolumeMode:       claim.Spec.VolumeMode,
			ClaimRef: &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID, ResourceVersion: claim.ResourceVersion},
		},
	}
	if class.ReclaimPolicy != nil {
		pv.Spec.PersistentVolumeReclaimPolicy = *class.ReclaimPolicy
	}
	path := fmt.Sprintf("%s%s_%s_%s", VolumeDir, name, claim.Namespace, claim.Name)
	if node == "" {
		pv.Spec.HostPath = &api.HostPathVolumeSource{Path: path}
		return pv
	}
	pv.Spec.Local = &api.LocalVolumeSource{Path: path}
	pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelHostname, Operator: api.NodeSelectorOpIn, Values: []string{node}}},
	}}}}
	return pv
}
