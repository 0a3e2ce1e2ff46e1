// reconcile.go: Reconcile, the ReplicaSet controller's one unit of work (syncReplicaSet in
// Kubernetes), and manageReplicas, which creates or deletes pods to close the gap between
// spec.replicas and the pods the ReplicaSet owns.
//
// Reconciling is level-based: the key says which ReplicaSet to look at, never what changed. Every run
// compares the whole desired state with the whole observed state, so a missed or repeated event does
// no harm.
package replicaset

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/controllers/internal"
)

// BurstReplicas caps how many pods one reconcile creates or deletes (Kubernetes' BurstReplicas); the
// rest wait for the next reconcile.
const BurstReplicas = 500

// SlowStartInitialBatchSize is the first batch of creates; each successful batch doubles the next.
const SlowStartInitialBatchSize = 1

// Reconcile brings one ReplicaSet ("namespace/name") to its desired number of pods and writes its
// status. It reads only the informer caches and writes only through the apiserver.
func (c *Controller) Reconcile(ctx context.Context, key string) error {
	cached, ok := c.rsInformer.Get(key)
	if !ok {
		c.tracer.Detail("reconcile", "replicasets/"+key, "", "reconcile %s: the ReplicaSet is gone; forget its expectations", key)
		c.expectations.DeleteExpectations(key)
		c.forgetCountCost(key)
		return nil
	}
	rs := api.DeepCopy(cached)
	selector, err := rs.Spec.Selector.AsSelector()
	if err != nil {
		// An invalid selector will not become valid by retrying.
		c.tracer.Record("reconcile", "replicasets/"+key, rs.ResourceVersion, "reconcile %s: invalid selector: %v", key, err)
		return nil
	}

	// Ask the expectations before reading the cache: a pod observed between the two readings then errs
	// on the side of waiting, never of acting twice.
	needsSync := c.expectations.SatisfiedExpectations(key)
	start := c.clock.Now()
	pods, err := c.claimPods(ctx, rs, selector)
	if err != nil {
		return err
	}
	cost := c.clock.Now().Sub(start)

	var manageErr error
	switch {
	case !needsSync:
		adds, dels := c.expectations.Pending(key)
		c.tracer.Record("reconcile", "replicasets/"+key, rs.ResourceVersion,
			"reconcile %s: wants %d, its cache shows %d, but %d adds and %d deletes it made are not in the cache yet -> wait (expectations)",
			key, replicas(rs), len(pods), adds, dels)
	case rs.DeletionTimestamp == nil:
		manageErr = c.manageReplicas(ctx, pods, rs)
	}

	start = c.clock.Now()
	status := calculateStatus(rs, pods, manageErr, start)
	c.noteCountCost(key, cost+c.clock.Now().Sub(start))
	updated, err := c.updateStatus(ctx, rs, status)
	if err != nil {
		return err
	}
	// Pods that are ready but not yet available become available minReadySeconds later: look again
	// then. (Kubernetes waits exactly minReadySeconds here; kubesim adds the second it adds when a pod
	// turns ready, because on a virtual clock "exactly then" is a tie that availability, which needs
	// strictly more than minReadySeconds, loses.)
	if manageErr == nil && updated.Spec.MinReadySeconds > 0 &&
		updated.Status.ReadyReplicas == replicas(updated) && updated.Status.AvailableReplicas != replicas(updated) {
		c.queue.AddAfter(key, minReadyDelay(updated))
	}
	return manageErr
}

// manageReplicas creates or deletes pods so that the ReplicaSet has spec.replicas of them. Before each
// batch of writes it records what it expects to see, so that the next Reconcile waits until its
// informer has caught up with them.
func (c *Controller) manageReplicas(ctx context.Context, pods []*api.Pod, rs *api.ReplicaSet) error {
	key := rs.Key()
	object := "replicasets/" + key
	want := replicas(rs)
	diff := len(pods) - int(want)
	switch {
	case diff < 0:
		n := min(-diff, BurstReplicas)
		c.expectations.ExpectCreations(key, n)
		c.tracer.Record("reconcile", object, rs.ResourceVersion, "reconcile %s: wants %d, has %d -> create %d pods (expecting %d adds)",
			key, want, len(pods), n, n)
		template := newPod(rs)
		created, err := slowStartBatch(n, SlowStartInitialBatchSize, c.parallel.Load(), func() error { return c.createPod(ctx, rs, template) })
		if skipped := n - created; skipped > 0 {
			// The pods that failed or were never tried will not show up: stop expecting them.
			for range skipped {
				c.expectations.CreationObserved(key)
			}
			c.tracer.Record("reconcile", object, rs.ResourceVersion,
				"reconcile %s: slow start stopped at an error after %d of %d creates; %d pods not created (expectations lowered)",
				key, created, n, skipped)
		}
		return err

	case diff > 0:
		n := min(diff, BurstReplicas)
		victims := podsToDelete(pods, c.relatedPods(rs), n, c.clock.Now())
		keys := make([]string, len(victims))
		why := make([]string, len(victims))
		for i, p := range victims {
			keys[i] = p.Key()
			why[i] = describeForDeletion(p)
		}
		c.expectations.ExpectDeletions(key, keys)
		c.tracer.Record("reconcile", object, rs.ResourceVersion, "reconcile %s: wants %d, has %d -> delete %d pods (expecting %d deletes): %s",
			key, want, len(pods), n, n, strings.Join(why, ", "))
		var errs []error
		for _, p := range victims {
			if err := c.deletePodOf(ctx, rs, p); err != nil {
				errs = append(errs, err)
			}
		}
		if len(errs) > 0 {
			return errs[0]
		}
		return nil
	}
	c.tracer.Detail("reconcile", object, rs.ResourceVersion, "reconcile %s: wants %d, has %d: nothing to do", key, want, len(pods))
	return nil
}

// slowStartBatch calls fn count times in batches of 1, 2, 4, ...: a batch runs only if every call of
// the previous one succeeded. A ReplicaSet that cannot create pods (quota exceeded, a webhook refusing
// them) thus fails once, not count times. It returns how many calls succeeded and the first error.
// With parallel (real time) each batch's calls run in goroutines of their own, as Kubernetes runs
// them; without (step mode) they run in order, so that every run tells the same story.
func slowStartBatch(count, initialBatchSize int, parallel bool, fn func() error) (int, error) {
	remaining, successes := count, 0
	for batch := min(remaining, initialBatchSize); batch > 0; batch = min(2*batch, remaining) {
		var (
			mu       sync.Mutex
			firstErr error
			wg       sync.WaitGroup
		)
		call := func() {
			err := fn()
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				successes++
			} else if firstErr == nil {
				firstErr = err
			}
		}
		for range batch {
			if parallel && batch > 1 {
				wg.Go(call)
			} else {
				call()
			}
		}
		wg.Wait()
		if firstErr != nil {
			return successes, firstErr
		}
		remaining -= batch
	}
	return successes, nil
}

// newPod is the pod a ReplicaSet stamps out: its template's labels, annotations and spec, a name
// generated from the ReplicaSet's ("nginx-6d4cf56db6-" + 5 random characters, chosen by the
// apiserver), and a controller reference back to the ReplicaSet.
func newPod(rs *api.ReplicaSet) *api.Pod {
	t := api.DeepCopy(rs).Spec.Template
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{
			GenerateName:    rs.Name + "-",
			Namespace:       rs.Namespace,
			Labels:          t.Labels,
			Annotations:     t.Annotations,
			Finalizers:      t.Finalizers,
			OwnerReferences: []api.OwnerReference{internal.NewControllerRef(&rs.ObjectMeta, "ReplicaSet")},
		},
		Spec: t.Spec,
	}
}

// createPod creates one pod from the template and reports it as an event on the ReplicaSet. Each
// create sends a copy of the template of its own, handed over (client.WriteOptions.HandOver): the
// apiserver works on it and stores it as it is, where it would copy the template twice.
func (c *Controller) createPod(ctx context.Context, rs *api.ReplicaSet, template *api.Pod) error {
	pod, err := c.pods.Create(ctx, api.DeepCopy(template), client.WriteOptions{HandOver: true})
	if err != nil {
		c.events.Eventf(ctx, rs, client.EventWarning, "FailedCreate", "Error creating: %v", err)
		return err
	}
	c.events.Eventf(ctx, rs, client.EventNormal, "SuccessfulCreate", "Created pod: %s", pod.Name)
	return nil
}

// deletePodOf deletes one of the ReplicaSet's pods. A pod already gone counts as deleted; any other
// failure means the delete will not be observed, so it is no longer expected.
func (c *Controller) deletePodOf(ctx context.Context, rs *api.ReplicaSet, pod *api.Pod) error {
	_, _, err := c.pods.Delete(ctx, pod.Namespace, pod.Name, client.DeleteOptions{})
	if err != nil {
		c.expectations.DeletionObserved(rs.Key(), pod.Key())
		if apierrors.IsNotFound(err) {
			return nil
		}
		c.events.Eventf(ctx, rs, client.EventWarning, "FailedDelete", "Error deleting: %v", err)
		return fmt.Errorf("deleting pod %s: %w", pod.Key(), err)
	}
	c.events.Eventf(ctx, rs, client.EventNormal, "SuccessfulDelete", "Deleted pod: %s", pod.Name)
	return nil
}

func replicas(rs *api.ReplicaSet) int32 { return api.Deref(rs.Spec.Replicas, 1) }
