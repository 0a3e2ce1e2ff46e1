// rollout.go: `kubectl rollout status` and `kubectl rollout history` for a Deployment. Both read the
// Deployment and its ReplicaSets, one per revision of the pod template (annotation
// deployment.kubernetes.io/revision), exactly as they are stored: kubectl keeps no history of its own.
//
//	RolloutStatus(ctx, namespace, name) (message string, done bool, err error)
//	RolloutHistory(ctx, namespace, name) (string, error)
//
// kubesim simplification: RolloutStatus is one look (`--watch=false`); waiting for the rollout is the
// caller's loop, since in step mode time moves only when the driver steps the cluster.
package kubectl

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"kubesim/api"
	"kubesim/client"
)

// changeCauseAnnotation is the reason a user gave for a revision (`kubectl annotate
// deployment/NAME kubernetes.io/change-cause=...`), shown by rollout history.
const changeCauseAnnotation = "kubernetes.io/change-cause"

// RolloutStatus tells whether a Deployment's latest rollout is complete, in kubectl's words
// ("deployment "nginx" successfully rolled out"). A rollout past its progress deadline is an error.
func (k *Kubectl) RolloutStatus(ctx context.Context, namespace, name string) (string, bool, error) {
	k.say("request", objectPath("deployments", namespace, name), "kubectl rollout status deployment/%s --watch=false", name)
	d, err := client.For[api.Deployment](k.client).Get(ctx, namespace, name)
	if err != nil {
		return "", false, k.Report(err)
	}
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...", false, nil
	}
	if c := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing); c != nil && c.Reason == "ProgressDeadlineExceeded" {
		return "", false, k.Report(fmt.Errorf("deployment %q exceeded its progress deadline", name))
	}
	st := d.Status
	switch {
	case d.Spec.Replicas != nil && st.UpdatedReplicas < *d.Spec.Replicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...", name, st.UpdatedReplicas, *d.Spec.Replicas), false, nil
	case st.Replicas > st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...", name, st.Replicas-st.UpdatedReplicas), false, nil
	case st.AvailableReplicas < st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...", name, st.AvailableReplicas, st.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out", name), true, nil
}

// RolloutHistory lists a Deployment's revisions, oldest first, as `kubectl rollout history` prints
// them:
//
//	deployment.apps/nginx
//	REVISION  CHANGE-CAUSE
//	1         <none>
//	2         <none>
func (k *Kubectl) RolloutHistory(ctx context.Context, namespace, name string) (string, error) {
	k.say("request", objectPath("deployments", namespace, name), "kubectl rollout history deployment/%s", name)
	d, err := client.For[api.Deployment](k.client).Get(ctx, namespace, name)
	if err != nil {
		return "", k.Report(err)
	}
	rss, err := k.replicaSetsOf(ctx, d)
	if err != nil {
		return "", k.Report(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "deployment.apps/%s\n", name)
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "REVISION\tCHANGE-CAUSE")
	for _, rs := range rss {
		cause := rs.Annotations[changeCauseAnnotation]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(w, "%d\t%s\n", revisionOf(rs), cause)
	}
	w.Flush()
	return b.String(), nil
}

// replicaSetsOf lists the ReplicaSets d controls, oldest revision first: those its selector matches
// whose controller reference names d's UID (a ReplicaSet that merely matches the labels is not d's).
func (k *Kubectl) replicaSetsOf(ctx context.Context, d *api.Deployment) ([]*api.ReplicaSet, error) {
	all, _, err := client.For[api.ReplicaSet](k.client).List(ctx, d.Namespace, client.ListOptions{LabelSelector: d.Spec.Selector.String()})
	if err != nil {
		return nil, err
	}
	var owned []*api.ReplicaSet
	for _, rs := range all {
		if ref := rs.ControllerRef(); ref != nil && ref.UID == d.UID && revisionOf(rs) > 0 {
			owned = append(owned, rs)
		}
	}
	slices.SortFunc(owned, func(a, b *api.ReplicaSet) int { return cmp.Compare(revisionOf(a), revisionOf(b)) })
	return owned, nil
}

// revisionOf is a ReplicaSet's revision number, 0 if it has none.
func revisionOf(rs *api.ReplicaSet) int64 {
	v, _ := strconv.ParseInt(rs.Annotations[api.RevisionAnnotation], 10, 64)
	return v
}
