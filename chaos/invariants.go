// invariants.go: what a cluster must never do, whatever breaks (the chaos soak checks them after
// every unit of work, chaos.go):
//
//   - no pod bound twice: a pod's spec.nodeName never changes once set;
//   - no ReplicaSet with more non-terminating pods than its replicas + its Deployment's maxSurge;
//   - no pod on a node that does not exist;
//   - no lost Deployment: every Deployment created is still there.
//
// Desired state reached (every Deployment available) is a condition, not an invariant: it holds once
// the faults stop, and DeploymentsAvailable checks it.
package chaos

import (
	"context"
	"fmt"

	"kubesim/api"
	"kubesim/sim"
)

// Invariants checks a cluster's invariants and remembers what it saw across checks (where each pod
// was bound, which Deployments exist).
type Invariants struct {
	c           *sim.Cluster
	bound       map[string]string // pod UID -> the node it was first seen bound to
	deployments []string          // "namespace/name" of every Deployment that must exist

	// Checks counts the assertions made (one per pod, ReplicaSet and Deployment looked at, per
	// invariant); Violations are the distinct ones that failed, in the order found.
	Checks     int
	Violations []string
	seen       map[string]bool
}

// NewInvariants is a checker for c that has seen nothing yet.
func NewInvariants(c *sim.Cluster) *Invariants {
	return &Invariants{c: c, bound: map[string]string{}, seen: map[string]bool{}}
}

// ExpectDeployment adds a Deployment that must exist from now on.
func (inv *Invariants) ExpectDeployment(namespace, name string) {
	inv.deployments = append(inv.deployments, namespace+"/"+name)
}

func (inv *Invariants) violate(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !inv.seen[msg] {
		inv.seen[msg] = true
		inv.Violations = append(inv.Violations, msg)
	}
}

// Check reads the cluster once and checks every invariant against it; an error is a failure to read,
// a broken invariant is a Violation.
func (inv *Invariants) Check(ctx context.Context) error {
	pods, err := sim.List[api.Pod](ctx, inv.c, "", "", "")
	if err != nil {
		return err
	}
	nodes, err := sim.List[api.Node](ctx, inv.c, "", "", "")
	if err != nil {
		return err
	}
	replicaSets, err := sim.List[api.ReplicaSet](ctx, inv.c, "", "", "")
	if err != nil {
		return err
	}
	deployments, err := sim.List[api.Deployment](ctx, inv.c, "", "", "")
	if err != nil {
		return err
	}
	nodeExists := map[string]bool{}
	for _, n := range nodes {
		nodeExists[n.Name] = true
	}
	active := map[string]int{} // ReplicaSet UID -> its non-terminating pods
	for _, p := range pods {
		if node := p.Spec.NodeName; node != "" {
			inv.Checks += 2
			if first, ok := inv.bound[p.UID]; !ok {
				inv.bound[p.UID] = node
			} else if first != node {
				inv.violate("pod %s bound twice: to %s, then to %s", p.Key(), first, node)
			}
			if !nodeExists[node] {
				inv.violate("pod %s is on node %s, which does not exist", p.Key(), node)
			}
		}
		if ref := p.ControllerRef(); ref != nil && ref.Kind == "ReplicaSet" && podActive(p) {
			active[ref.UID]++
		}
	}
	byUID := map[string]*api.Deployment{}
	byKey := map[string]bool{}
	for _, d := range deployments {
		byUID[d.UID] = d
		byKey[d.Key()] = true
	}
	for _, rs := range replicaSets {
		inv.Checks++
		limit := int(ptrValue(rs.Spec.Replicas))
		if ref := rs.ControllerRef(); ref != nil {
			if d, ok := byUID[ref.UID]; ok {
				limit += maxSurge(d)
			}
		}
		if n := active[rs.UID]; n > limit {
			inv.violate("replicaset %s has %d pods that are not terminating, more than replicas %d + maxSurge (%d)",
				rs.Key(), n, ptrValue(rs.Spec.Replicas), limit)
		}
	}
	for _, key := range inv.deployments {
		inv.Checks++
		if !byKey[key] {
			inv.violate("deployment %s was lost", key)
		}
	}
	return nil
}

// podActive is the ReplicaSet controller's idea of a pod that counts: not terminating, not finished.
func podActive(p *api.Pod) bool {
	return p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
}

func ptrValue(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// maxSurge is a Deployment's maxSurge in pods (0 for Recreate).
func maxSurge(d *api.Deployment) int {
	ru := d.Spec.Strategy.RollingUpdate
	if ru == nil || ru.MaxSurge == nil {
		return 0
	}
	n, err := ru.MaxSurge.ScaledValue(int(ptrValue(d.Spec.Replicas)), true)
	if err != nil {
		return 0
	}
	return n
}

// DeploymentsAvailable holds when every Deployment has caught up with its spec: observed, every
// replica updated and available, and exactly replicas non-terminating pods behind it.
func DeploymentsAvailable() sim.Condition { return deploymentsAvailable{} }

type deploymentsAvailable struct{}

func (deploymentsAvailable) String() string { return "every deployment available" }

func (deploymentsAvailable) Met(ctx context.Context, c *sim.Cluster) (bool, error) {
	deployments, err := sim.List[api.Deployment](ctx, c, "", "", "")
	if err != nil {
		return false, err
	}
	for _, d := range deployments {
		want := ptrValue(d.Spec.Replicas)
		s := d.Status
		if s.ObservedGeneration < d.Generation || s.UpdatedReplicas != want || s.AvailableReplicas != want || s.Replicas != want {
			return false, nil
		}
	}
	return true, nil
}
