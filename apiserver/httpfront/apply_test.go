package httpfront_test

import (
	"strings"
	"testing"
)

// sideDeployment is a configuration for `kubectl apply --server-side -f -`.
func sideDeployment(replicas, image string, labels ...string) string {
	return strings.Join([]string{"apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: web",
		"  labels: {" + strings.Join(labels, ", ") + "}", "spec:",
		"  replicas: " + replicas, "  selector:", "    matchLabels: {app: web}", "  template:", "    metadata:",
		"      labels: {app: web}", "    spec:", "      containers:", "      - name: web", "        image: " + image, ""}, "\n")
}

// Server-side apply with the real kubectl: the first apply creates the object, owned by its field
// manager; a second manager that changes a field the first one set gets a 409 Conflict in Kubernetes'
// words, until it forces; the manager that dropped a field from its configuration sees it removed.
// https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts
func TestKubectlServerSideApply(t *testing.T) {
	t.Parallel() // it mostly waits for kubectl processes, beside the other kubectl tests
	_, hs := newFront(t)
	k := newKubectl(t, hs, "admin-token")

	k.expectIn(sideDeployment("2", "nginx:1.25", "app: web", "tier: front"), "apply --server-side -f -", `^deployment.apps/web serverside-applied\n$`)
	k.expect("get deployment web -o yaml --show-managed-fields", `(?m)^  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n    fieldsV1:\n`,
		`(?m)^    manager: kubectl\n    operation: Apply\n`, `f:replicas: \{\}`, `k:\{"name":"web"\}:`)

	// alice, another manager, wants only replicas: 5. kubectl set them, so that is a conflict.
	replicas := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 5}\n"
	k.expectIn(replicas, "apply --server-side --field-manager=alice -f -",
		`(?m)^error: Apply failed with 1 conflict: conflict with "kubectl" using apps/v1: \.spec\.replicas$`, `--force-conflicts`)
	k.expect("get deployment web -o jsonpath={.spec.replicas}", `^2$`)
	k.expectIn(replicas, "apply --server-side --field-manager=alice --force-conflicts -f -", `^deployment.apps/web serverside-applied\n$`)
	k.expect("get deployment web -o jsonpath={.spec.replicas}", `^5$`)
	k.expect("get deployment web -o jsonpath={.metadata.managedFields[*].manager}", `^kubectl alice$`)
	// Now kubectl setting replicas to 2 again conflicts with alice, who took them over.
	k.expectIn(sideDeployment("2", "nginx:1.25", "app: web", "tier: front"), "apply --server-side -f -",
		`(?m)^error: Apply failed with 1 conflict: conflict with "alice" using apps/v1: \.spec\.replicas$`)

	// kubectl's configuration leaves out the tier label and replicas, and changes the image: the
	// container merges by name, the label goes, replicas stay alice's.
	noReplicas := strings.Replace(sideDeployment("0", "nginx:1.26", "app: web"), "  replicas: 0\n", "", 1)
	k.expectIn(noReplicas, "apply --server-side -f -", `^deployment.apps/web serverside-applied\n$`)
	k.expect("get deployment web -o jsonpath={.spec.replicas}/{.spec.template.spec.containers[*].image}/{.metadata.labels}",
		`^5/nginx:1.26/\{"app":"web"\}$`)
}
