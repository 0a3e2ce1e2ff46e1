// workloads.go: the scheduler's caches of Services and ReplicaSets, the objects a pod belongs to.
// kube-scheduler watches them for one reason that matters here: PodTopologySpread spreads the pods of
// a workload by default (system default constraints) and needs to know which pods are siblings.
// Interface: workloadLister, which implements framework.WorkloadLister over the two informers.
package scheduler

import (
	"kubesim/api"
	"kubesim/client"
	"kubesim/scheduler/framework"
)

// workloadLister reads the scheduler's Service and ReplicaSet informers, or a fixed cluster's
// objects; with neither (the algorithm benchmarks) it finds nothing.
type workloadLister struct{ s *Scheduler }

var _ framework.WorkloadLister = workloadLister{}

// newWorkloadInformers builds the Service and ReplicaSet informers (no handlers: a change to either
// does not make a pending pod schedulable).
func (s *Scheduler) newWorkloadInformers(c *client.Client, o Options) {
	s.serviceInformer = client.NewInformer[api.Service](c, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: s.name + " services"})
	s.rsInformer = client.NewInformer[api.ReplicaSet](c, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: s.name + " replicasets"})
}

// Services lists the Services of a namespace. The informer's namespace index finds them without a
// walk over every Service of the cluster, which PodTopologySpread would otherwise pay every cycle.
func (w workloadLister) Services(namespace string) []*api.Service {
	if w.s.serviceInformer != nil {
		return w.s.serviceInformer.ByIndex(client.IndexNamespace, namespace)
	}
	var out []*api.Service
	for _, svc := range w.s.fixed.services() {
		if svc.Namespace == namespace {
			out = append(out, svc)
		}
	}
	return out
}

// ReplicaSet returns a ReplicaSet by namespace and name.
func (w workloadLister) ReplicaSet(namespace, name string) (*api.ReplicaSet, bool) {
	if w.s.rsInformer != nil {
		return w.s.rsInformer.Get(namespace + "/" + name)
	}
	return w.s.fixed.replicaSet(namespace, name)
}
