// nodes.go: the node maintenance verbs of the articles' operations sections. `kubectl cordon` marks a
// node unschedulable, `kubectl uncordon` undoes it, and `kubectl drain` cordons a node and evicts its
// pods through the Eviction API, so PodDisruptionBudgets are honoured and controllers replace the
// pods elsewhere.
//
//	Cordon(ctx, node) / Uncordon(ctx, node) error
//	Drain(ctx, node) ([]string, error)
//
// An eviction refused with 429 (a PodDisruptionBudget allows no disruption now) is retried every 5
// seconds, as kubectl drain does, until the budget allows it.
//
// kubesim simplification: drain always behaves as with --ignore-daemonsets, evicts one pod at a time
// (kubectl evicts them in parallel), and gives up after 10 minutes of cluster time where kubectl's
// default --timeout=0 would wait forever.
package kubectl

import (
	"context"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// Cordon marks a node unschedulable: the scheduler places no new pod there; running pods stay.
func (k *Kubectl) Cordon(ctx context.Context, node string) error {
	return k.setUnschedulable(ctx, node, true)
}

// Uncordon makes a node schedulable again.
func (k *Kubectl) Uncordon(ctx context.Context, node string) error {
	return k.setUnschedulable(ctx, node, false)
}

func (k *Kubectl) setUnschedulable(ctx context.Context, node string, on bool) error {
	verb := "cordon"
	if !on {
		verb = "uncordon"
	}
	k.say("request", objectPath("nodes", "", node), "kubectl %s %s", verb, node)
	nodes := client.For[api.Node](k.client)
	return k.Report(client.RetryOnConflict(ctx, k.cfg.Clock, client.DefaultRetry, func() error {
		n, err := nodes.Get(ctx, "", node)
		if err != nil {
			return err
		}
		n.Spec.Unschedulable = on
		_, err = nodes.Update(ctx, n)
		return err
	}))
}

// Drain cordons a node and evicts its pods (`kubectl drain NODE --ignore-daemonsets`): pods owned by a
// DaemonSet stay, as the flag says; every other pod is evicted and, if a controller owns it, replaced
// elsewhere. It returns the pods it evicted, as "namespace/name".
func (k *Kubectl) Drain(ctx context.Context, node string) ([]string, error) {
	if err := k.Cordon(ctx, node); err != nil {
		return nil, err
	}
	k.say("request", objectPath("nodes", "", node), "kubectl drain %s --ignore-daemonsets", node)
	pods, _, err := client.For[api.Pod](k.client).List(ctx, "", client.ListOptions{FieldSelector: "spec.nodeName=" + node})
	if err != nil {
		return nil, k.Report(err)
	}
	var evicted []string
	for _, p := range pods {
		if ref := p.ControllerRef(); ref != nil && ref.Kind == "DaemonSet" {
			k.say("drain", objectPath("pods", p.Namespace, p.Name), "ignoring DaemonSet-managed pod %s/%s", p.Namespace, p.Name)
			continue
		}
		k.say("request", objectPath("pods", p.Namespace, p.Name), "evicting pod %s/%s", p.Namespace, p.Name)
		if err := k.evictRetrying(ctx, p); err != nil {
			return evicted, k.Report(err)
		}
		evicted = append(evicted, p.Namespace+"/"+p.Name)
	}
	return evicted, nil
}

// Drain's retry of an eviction refused with 429 (kubectl's drain.evictPods).
const (
	evictionRetryDelay = 5 * time.Second
	drainGiveUp        = 10 * time.Minute
)

// evictRetrying evicts p, waiting out 429s as kubectl drain does and saying so in its words.
func (k *Kubectl) evictRetrying(ctx context.Context, p *api.Pod) error {
	for waited := time.Duration(0); ; waited += evictionRetryDelay {
		err := k.client.Evict(ctx, p.Namespace, p.Name, nil)
		if !apierrors.IsTooManyRequests(err) || waited >= drainGiveUp {
			return err
		}
		k.say("drain", objectPath("pods", p.Namespace, p.Name), "error when evicting pods/%q -n %q (will retry after %s): %v",
			p.Name, p.Namespace, evictionRetryDelay, err)
		if err := k.wait(ctx, evictionRetryDelay); err != nil {
			return err
		}
	}
}
