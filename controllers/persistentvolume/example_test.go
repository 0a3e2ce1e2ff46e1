package persistentvolume_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/controllers/persistentvolume"
	"kubesim/internal/testenv"
)

// An administrator's volume and a claim that fits it, created together: the claim's first sync finds
// the volume still Pending (the binder has not made it Available yet), so it waits, with the event a
// real cluster shows; the volume's turn to Available brings the claim back, and the binder binds them.
func Example() {
	c, ctx := testenv.Start(testenv.Full(1))
	defer c.Close()
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "data-pv"},
		Spec: api.PersistentVolumeSpec{Capacity: claim("x", nil).Spec.Resources.Requests,
			AccessModes:            []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			PersistentVolumeSource: api.PersistentVolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/mnt/data"}}}}
	for _, obj := range []api.Object{pv, claim("data", api.Ptr(""))} {
		if _, err := c.Kubectl.Create(ctx, obj); err != nil {
			panic(err)
		}
	}
	if err := c.Driver.RunIdle(ctx, 100); err != nil {
		panic(err)
	}
	for _, line := range testenv.Story(c, persistentvolume.Name) {
		fmt.Println(line)
	}
	// Output:
	// claim default/data stays Pending: no persistent volumes available for this claim and no storage class is set
	// volume data-pv: phase Pending -> Available
	// bind claim default/data to volume data-pv
}
