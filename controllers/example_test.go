package controllers_test

import (
	"fmt"

	"kubesim/controllers"
	"kubesim/internal/testenv"
)

// A kube-controller-manager replica: its elector, which owns the replica's shared informers, then
// its controllers in the order the step driver asks them for work, each reading some of those
// informers.
func ExampleNewManager() {
	c, _ := testenv.Start(testenv.Step)
	defer c.Close()
	m, err := controllers.NewManager(c.Client(controllers.User, controllers.Name), c.Clock, c.Trace, controllers.Name)
	if err != nil {
		panic(err)
	}
	for _, comp := range m.Components() {
		fmt.Printf("%-35s informers: %d\n", comp.Name(), len(comp.Informers()))
	}
	// Output:
	// kube-controller-manager             informers: 16
	// node-ipam-controller                informers: 1
	// resourcequota-controller            informers: 7
	// deployment-controller               informers: 3
	// replicaset-controller               informers: 2
	// daemonset-controller                informers: 3
	// serviceaccount-controller           informers: 2
	// endpointslice-controller            informers: 4
	// endpoints-controller                informers: 3
	// namespace-controller                informers: 1
	// garbage-collector                   informers: 4
	// node-lifecycle-controller           informers: 3
	// pod-garbage-collector               informers: 2
	// disruption-controller               informers: 4
	// persistentvolume-binder-controller  informers: 4
	// external-provisioner                informers: 3
}
