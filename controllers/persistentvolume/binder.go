// binder.go: the PV controller's binder, the part of pv_controller.go that matches claims with
// volumes.
//
//	New(c, informers, clk, tr, events) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, key)          sync one claim ("persistentvolumeclaims/<ns>/<name>") or one volume
//	                             ("persistentvolumes/<name>")
//
// Claims are queued when they change, volumes when they or their claim change, as in Kubernetes;
// and every claim and volume every 15 s (the controller's resync, --pvclaimbinder-sync-period). A
// new volume or StorageClass does not wake the claims that wait: a claim made before the volume that
// fits it binds at the next resync, up to 15 s later. Only a volume that already names its claim (a
// provisioned one) queues that claim at once. Each sync of a claim that stays Pending records its
// event again, so kubectl describe pvc counts them (x4 over 45s).
package persistentvolume

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=persistentvolume-binder).
const Name = "persistentvolume-binder-controller"

// EventSource is the component its events name, as in Kubernetes.
const EventSource = "persistentvolume-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// The events of the binder, with Kubernetes' reasons and messages.
const (
	ReasonFailedBinding        = "FailedBinding"
	ReasonWaitForFirstConsumer = "WaitForFirstConsumer"
	ReasonWaitForPodScheduled  = "WaitForPodScheduled"
	ReasonExternalProvisioning = "ExternalProvisioning"
	ReasonProvisioningFailed   = "ProvisioningFailed"

	msgNoClass       = "no persistent volumes available for this claim and no storage class is set"
	msgWaitConsumer  = "waiting for first consumer to be created before binding"
	msgExternalProvs = "Waiting for a volume to be created either by the external provisioner '%s' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."
)

const (
	claimPrefix  = "persistentvolumeclaims/"
	volumePrefix = "persistentvolumes/"
	resyncKey    = "resync"
)

// ResyncPeriod is how often every claim and volume is synced again (kube-controller-manager's
// --pvclaimbinder-sync-period, 15 s by default).
const ResyncPeriod = 15 * time.Second

// Controller binds claims to volumes.
type Controller struct {
	workloop.Component
	client  *client.Client
	tracer  internal.Tracer
	events  *client.EventRecorder
	claims  *client.Informer[api.PersistentVolumeClaim, *api.PersistentVolumeClaim]
	volumes *client.Informer[api.PersistentVolume, *api.PersistentVolume]
	classes *client.Informer[api.StorageClass, *api.StorageClass]
	pods    *client.Informer[api.Pod, *api.Pod]
	queue   *workqueue.Queue[string]
}

// New builds the binder on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, events *client.EventRecorder) *Controller {
	pc := &Controller{client: c, tracer: internal.Tracer{Component: Name, Recorder: tr}, events: events,
		claims:  client.InformerFor[api.PersistentVolumeClaim](informers, client.FactoryOptions{}),
		volumes: client.InformerFor[api.PersistentVolume](informers, client.FactoryOptions{}),
		classes: client.InformerFor[api.StorageClass](informers, client.FactoryOptions{}),
		pods:    client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		queue:   workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	pc.Component = workloop.NewComponent(&workloop.Loop{Queue: pc.queue, Reconcile: pc.Reconcile, Workers: 1,
		Component: Name, Actor: Identity, Trace: tr},
		pc.classes, pc.volumes, pc.claims, pc.pods)
	pc.claims.AddHandler(client.Handler[*api.PersistentVolumeClaim]{
		OnAdd:    func(c *api.PersistentVolumeClaim) { pc.queue.Add(claimPrefix + c.Namespace + "/" + c.Name) },
		OnUpdate: func(_, c *api.PersistentVolumeClaim) { pc.queue.Add(claimPrefix + c.Namespace + "/" + c.Name) },
		OnDelete: func(c *api.PersistentVolumeClaim) {
			if c.Spec.VolumeName != "" {
				pc.queue.Add(volumePrefix + c.Spec.VolumeName)
			}
		},
	})
	pc.volumes.AddHandler(client.Handler[*api.PersistentVolume]{
		OnAdd:    func(v *api.PersistentVolume) { pc.queue.Add(volumePrefix + v.Name) },
		OnUpdate: func(_, v *api.PersistentVolume) { pc.queue.Add(volumePrefix + v.Name) },
		OnDelete: func(v *api.PersistentVolume) {
			if ref := v.Spec.ClaimRef; ref != nil { // its claim is Lost now: sync it at once
				pc.queue.Add(claimPrefix + ref.Namespace + "/" + ref.Name)
			}
		},
	})
	pc.queue.Add(resyncKey) // wait.Until's first run comes at once
	return pc
}

// resync queues every claim and volume (pv_controller_base.go resync), and comes back after
// ResyncPeriod. It is no work in itself.
func (pc *Controller) resync() (workloop.Result, error) {
	for _, c := range pc.claims.List() {
		pc.queue.Add(claimPrefix + c.Namespace + "/" + c.Name)
	}
	for _, v := range pc.volumes.List() {
		pc.queue.Add(volumePrefix + v.Name)
	}
	return workloop.Result{Idle: true, RequeueAfter: ResyncPeriod}, nil
}

// Reconcile syncs the claim or volume the key names, or resyncs them all.
func (pc *Controller) Reconcile(ctx context.Context, key string) (workloop.Result, error) {
	if key == resyncKey {
		return pc.resync()
	}
	if name, ok := strings.CutPrefix(key, volumePrefix); ok {
		return pc.syncVolume(ctx, name)
	}
	claim, ok := pc.claims.Get(strings.TrimPrefix(key, claimPrefix))
	if !ok || claim.DeletionTimestamp != nil {
		return workloop.Result{Idle: true}, nil
	}
	if claim.Spec.VolumeName != "" {
		return pc.syncBoundClaim(ctx, claim)
	}
	return pc.syncUnboundClaim(ctx, claim)
}

// syncUnboundClaim finds a volume for a claim, or says why there is none and who will make one.
func (pc *Controller) syncUnboundClaim(ctx context.Context, claim *api.PersistentVolumeClaim) (workloop.Result, error) {
	class, hasClass := pc.classes.Get(api.ClaimClass(claim))
	delay := hasClass && class.BindingMode() == api.VolumeBindingWaitForFirstConsumer
	if pv := api.FindMatchingVolume(claim, pc.volumes.List(), nil, nil, delay); pv != nil {
		return workloop.Result{}, pc.bind(ctx, pv, claim)
	}
	if claim.Spec.StorageClassName == nil {
		if def := pc.defaultClass(); def != nil {
			pc.record(claim, "claim %s has no storageClassName: give it the default StorageClass %s", claimKey(claim), def.Name)
			return workloop.Result{}, pc.updateClaim(ctx, claim, func(c *api.PersistentVolumeClaim) { c.Spec.StorageClassName = &def.Name })
		}
	}
	_, selected := claim.Annotations[api.AnnSelectedNode]
	switch {
	case delay && !selected:
		reason, msg := ReasonWaitForFirstConsumer, msgWaitConsumer
		if pods := pc.pendingPodsUsing(claim); len(pods) == 1 {
			reason, msg = ReasonWaitForPodScheduled, fmt.Sprintf("waiting for pod %s to be scheduled", pods[0])
		} else if len(pods) > 1 {
			reason, msg = ReasonWaitForPodScheduled, fmt.Sprintf("waiting for pods %s to be scheduled", strings.Join(pods, ","))
		}
		return pc.pending(ctx, claim, client.EventNormal, reason, msg)
	case api.ClaimClass(claim) != "":
		return pc.provision(ctx, claim, class, hasClass)
	default:
		return pc.pending(ctx, claim, client.EventNormal, ReasonFailedBinding, msgNoClass)
	}
}

// provision hands the claim to its class's provisioner, by annotation, once.
func (pc *Controller) provision(ctx context.Context, claim *api.PersistentVolumeClaim, class *api.StorageClass, hasClass bool) (workloop.Result, error) {
	if !hasClass {
		return pc.pending(ctx, claim, client.EventWarning, ReasonProvisioningFailed,
			fmt.Sprintf("storageclass.storage.k8s.io %q not found", api.ClaimClass(claim)))
	}
	if claim.Annotations[api.AnnStorageProvisioner] == class.Provisioner {
		return workloop.Result{Idle: true}, nil // asked already
	}
	pc.record(claim, "claim %s has no volume: ask the provisioner %s of StorageClass %s", claimKey(claim), class.Provisioner, class.Name)
	err := pc.updateClaim(ctx, claim, func(c *api.PersistentVolumeClaim) {
		c.SetAnnotation(api.AnnStorageProvisioner, class.Provisioner)
	})
	if err != nil {
		return workloop.Result{}, err
	}
	pc.events.Eventf(ctx, claim, client.EventNormal, ReasonExternalProvisioning, msgExternalProvs, class.Provisioner)
	return workloop.Result{}, nil
}

// pending tells why the claim waits, at every sync, as Kubernetes does: at each resync the event
// comes again (kubectl describe counts them, "x4 over 45s").
func (pc *Controller) pending(ctx context.Context, claim *api.PersistentVolumeClaim, eventType, reason, msg string) (workloop.Result, error) {
	pc.record(claim, "claim %s stays Pending: %s", claimKey(claim), msg)
	pc.events.Event(ctx, claim, eventType, reason, msg)
	return workloop.Result{}, nil
}

// syncBoundClaim completes a binding the claim already names (a volumeName the user wrote): the
// volume must point back, and both be Bound.
func (pc *Controller) syncBoundClaim(ctx context.Context, claim *api.PersistentVolumeClaim) (workloop.Result, error) {
	pv, ok := pc.volumes.Get(claim.Spec.VolumeName)
	switch {
	case !ok:
		return workloop.Result{Idle: true}, nil // the volume may yet appear; its add queues the claim
	case pv.Spec.ClaimRef != nil && !api.RefersToClaim(pv.Spec.ClaimRef, claim):
		return workloop.Result{Idle: true}, nil // the volume is someone else's
	case claim.Status.Phase == api.ClaimBound && pv.Spec.ClaimRef != nil && pv.Status.Phase == api.VolumeBound:
		return workloop.Result{Idle: true}, nil
	}
	return workloop.Result{}, pc.bind(ctx, pv, claim)
}

// bind makes the volume and the claim point at each other, then marks both Bound: the volume
// first, as Kubernetes does, so that a crash in between leaves a volume that says whose it is.
func (pc *Controller) bind(ctx context.Context, pv *api.PersistentVolume, claim *api.PersistentVolumeClaim) error {
	pc.record(claim, "bind claim %s to volume %s", claimKey(claim), pv.Name)
	vols := client.For[api.PersistentVolume](pc.client)
	if pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.UID != claim.UID {
		pv = api.DeepCopy(pv)
		pv.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
			Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID, ResourceVersion: claim.ResourceVersion}
		pv.SetAnnotation(api.AnnBoundByController, "yes")
		var err error
		if pv, err = vols.Update(ctx, pv); err != nil {
			return err
		}
	}
	if pv.Status.Phase != api.VolumeBound {
		pv = api.DeepCopy(pv)
		pv.Status.Phase = api.VolumeBound
		if _, err := vols.UpdateStatus(ctx, pv); err != nil {
			return err
		}
	}
	claims := client.For[api.PersistentVolumeClaim](pc.client)
	if claim.Spec.VolumeName != pv.Name || claim.Annotations[api.AnnBindCompleted] != "yes" {
		claim = api.DeepCopy(claim)
		if claim.Spec.VolumeName == "" {
			claim.SetAnnotation(api.AnnBoundByController, "yes")
		}
		claim.Spec.VolumeName = pv.Name
		claim.SetAnnotation(api.AnnBindCompleted, "yes")
		var err error
		if claim, err = claims.Update(ctx, claim); err != nil {
			return err
		}
	}
	claim = api.DeepCopy(claim)
	claim.Status.Phase = api.ClaimBound
	claim.Status.AccessModes = pv.Spec.AccessModes
	claim.Status.Capacity = pv.Spec.Capacity.DeepCopy()
	_, err := claims.UpdateStatus(ctx, claim)
	return err
}

// syncVolume keeps a volume's phase: Available while it has no claim, Bound while its claim holds
// it, Released once the claim is gone, and deleted then if its reclaim policy says Delete.
func (pc *Controller) syncVolume(ctx context.Context, name string) (workloop.Result, error) {
	pv, ok := pc.volumes.Get(name)
	if !ok || pv.DeletionTimestamp != nil {
		return workloop.Result{Idle: true}, nil
	}
	ref := pv.Spec.ClaimRef
	if ref == nil {
		return pc.volumePhase(ctx, pv, api.VolumeAvailable)
	}
	claim, ok := pc.claims.Get(ref.Namespace + "/" + ref.Name)
	switch {
	case ref.UID == "":
		// Reserved for a claim by name: the claim's sync binds it (at the claim's next change or
		// resync); until then it is Available.
		return pc.volumePhase(ctx, pv, api.VolumeAvailable)
	case ok && api.RefersToClaim(ref, claim):
		if claim.Spec.VolumeName == pv.Name {
			return pc.volumePhase(ctx, pv, api.VolumeBound)
		}
		pc.queue.Add(claimPrefix + claimKey(claim)) // pre-bound: the claim's sync completes it
		return workloop.Result{Idle: true}, nil
	case pv.Status.Phase != api.VolumeBound && pv.Status.Phase != api.VolumeReleased:
		return workloop.Result{Idle: true}, nil // pre-bound to a claim not made yet
	case pv.Spec.PersistentVolumeReclaimPolicy == api.PersistentVolumeReclaimDelete:
		pc.tracer.Record("delete", volumePrefix+pv.Name, pv.ResourceVersion,
			"claim %s/%s of volume %s is gone and its reclaim policy is Delete: delete it", ref.Namespace, ref.Name, pv.Name)
		_, _, err := client.For[api.PersistentVolume](pc.client).Delete(ctx, "", pv.Name, client.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			err = nil
		}
		return workloop.Result{}, err
	default:
		return pc.volumePhase(ctx, pv, api.VolumeReleased)
	}
}

// volumePhase writes the volume's phase if it differs.
func (pc *Controller) volumePhase(ctx context.Context, pv *api.PersistentVolume, phase api.PersistentVolumePhase) (workloop.Result, error) {
	if pv.Status.Phase == phase {
		return workloop.Result{Idle: true}, nil
	}
	pc.tracer.Record("update", volumePrefix+pv.Name, pv.ResourceVersion,
		"volume %s: phase %s -> %s", pv.Name, pv.Status.Phase, phase)
	pv = api.DeepCopy(pv)
	pv.Status.Phase = phase
	_, err := client.For[api.PersistentVolume](pc.client).UpdateStatus(ctx, pv)
	return workloop.Result{}, err
}

// defaultClass is the StorageClass marked default; of several, the newest, as Kubernetes picks.
func (pc *Controller) defaultClass() *api.StorageClass {
	var best *api.StorageClass
	for _, sc := range pc.classes.List() {
		if api.IsDefaultClass(sc) && (best == nil || best.CreationTimestamp.Before(sc.CreationTimestamp.Time) ||
			best.CreationTimestamp.Equal(sc.CreationTimestamp.Time) && sc.Name < best.Name) {
			best = sc
		}
	}
	return best
}

// pendingPodsUsing names, sorted, the unscheduled pods that use the claim.
func (pc *Controller) pendingPodsUsing(claim *api.PersistentVolumeClaim) []string {
	var names []string
	for _, p := range pc.pods.List() {
		if p.Namespace != claim.Namespace || p.Spec.NodeName != "" {
			continue
		}
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == claim.Name {
				names = append(names, p.Name)
				break
			}
		}
	}
	sort.Strings(names)
	return names
}

// updateClaim writes a change to the claim's spec or metadata.
func (pc *Controller) updateClaim(ctx context.Context, claim *api.PersistentVolumeClaim, change func(*api.PersistentVolumeClaim)) error {
	claim = api.DeepCopy(claim)
	change(claim)
	_, err := client.For[api.PersistentVolumeClaim](pc.client).Update(ctx, claim)
	return err
}

func (pc *Controller) record(claim *api.PersistentVolumeClaim, format string, args ...any) {
	pc.tracer.Record("sync", claimPrefix+claimKey(claim), claim.ResourceVersion, format, args...)
}

func claimKey(c *api.PersistentVolumeClaim) string { return c.Namespace + "/" + c.Name }
