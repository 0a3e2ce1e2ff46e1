package httpfront_test

import "testing"

// The real kubectl prints the storage kinds with Kubernetes' columns: a claim Pending with no VOLUME
// nor CAPACITY (they show only once it is bound), a volume Available with no CLAIM, a default class
// marked "(default)".
func TestKubectlGetStorage(t *testing.T) {
	t.Parallel() // it mostly waits for kubectl processes, beside the other kubectl tests
	_, hs := newFront(t)
	k := newKubectl(t, hs, "admin-token")
	k.expectIn(`apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: data-pv
spec:
  capacity:
    storage: 5Gi
  accessModes: [ReadWriteOnce]
  hostPath:
    path: /mnt/data
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: local-path
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: rancher.io/local-path
volumeBindingMode: WaitForFirstConsumer
`, "apply -f -", `persistentvolumeclaim/data created`, `persistentvolume/data-pv created`, `storageclass.storage.k8s.io/local-path created`)
	k.expect("get pvc", `(?m)^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE$`,
		`(?m)^data\s+Pending\s+<unset>\s+\S+$`)
	k.expect("get pv", `(?m)^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE$`,
		`(?m)^data-pv\s+5Gi\s+RWO\s+Retain\s+Pending\s+<unset>\s+\S+$`)
	k.expect("get sc", `(?m)^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$`,
		`(?m)^local-path \(default\)\s+rancher.io/local-path\s+Delete\s+WaitForFirstConsumer\s+false\s+\S+$`)
}
