// Package persistentvolume is the PersistentVolume controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/volume/persistentvolume, pv_controller.go), and beside it a
// simulated external provisioner (what sig-storage-lib-external-provisioner does for a CSI driver or
// rancher.io/local-path).
//
// Read next: binder.go (a claim meets a volume), then provisioner.go (a volume made for a claim),
// then the scheduler's VolumeBinding plugin (scheduler/plugins/volumebinding.go), which keeps a pod
// Pending while its claim is unbound, and binds WaitForFirstConsumer claims on the pod's node.
//
// What it promises:
//
//  1. A Pending claim is bound to the smallest Available volume that fits it (same class, every
//     access mode, enough storage, the selector's labels): the volume's claimRef and the claim's
//     volumeName point at each other, and both become Bound.
//  2. A claim without storageClassName gets the default StorageClass once one exists (retroactive
//     assignment, as Kubernetes does since 1.28).
//  3. A claim with no volume to bind: of a class that binds Immediately, its class's provisioner is
//     asked (ExternalProvisioning, and the claim's volume.kubernetes.io/storage-provisioner
//     annotation); of a WaitForFirstConsumer class, it waits for the scheduler's selected-node
//     annotation (WaitForFirstConsumer, or WaitForPodScheduled while a pod using it is pending);
//     with no class at all, FailedBinding "no persistent volumes available for this claim and no
//     storage class is set". Each event is Kubernetes' reason and message, recorded again at each
//     sync of the claim, so every 15 s while it waits.
//  4. The provisioner makes a volume "pvc-<claim uid>" pre-bound to the claim, on the selected node
//     when there is one (ProvisioningSucceeded), and the binder completes the binding.
//  5. A volume whose claim is deleted is Released (Retain) or deleted (Delete).
//  6. A claim is synced when it changes and at the resync every 15 s (--pvclaimbinder-sync-period),
//     not when a volume or class appears: a claim made before the volume that fits it binds up to
//     15 s after the volume, as in Kubernetes. A provisioned volume, which names its claim, queues
//     that claim at once.
//
// What it simplifies: the ExternalProvisioning event is told once per claim (Kubernetes repeats it
// at each sync until the volume comes), no recycling, no volume expansion, no storage capacity.
// Every provisioner named by a class is "installed" and succeeds at once, except
// kubernetes.io/no-provisioner, which makes nothing, as in Kubernetes. No volume is mounted anywhere:
// the kubelet only waits until a pod's claims are bound.
package persistentvolume
