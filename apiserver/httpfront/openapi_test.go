package httpfront_test

import "testing"

// `kubectl explain` reads the OpenAPI v3 document of the kind's group-version and prints the field's
// type and documentation, and its fields: Kubernetes' own words, from k8s.io/api's types.
func TestKubectlExplain(t *testing.T) {
	t.Parallel() // it mostly waits for kubectl processes, beside the other kubectl tests
	_, hs := newFront(t)
	k := newKubectl(t, hs, "admin-token")
	k.expect("explain pod.spec.containers", `(?m)^KIND: Pod$`, `(?m)^VERSION: v1$`, `(?m)^FIELD: containers <\[\]Container>$`,
		`List of containers belonging to the pod`, `(?m)^  image\s+<string>$`, `(?m)^  ports\s+<\[\]ContainerPort>$`)
	k.expect("explain deployment.spec.strategy.rollingUpdate.maxSurge", `(?m)^GROUP: apps$`, `(?m)^FIELD: maxSurge <IntOrString>$`,
		`The maximum number of pods that can be scheduled above the desired number of pods`)
	k.expect("explain lease", `(?m)^GROUP: coordination.k8s.io$`, `(?m)^KIND: Lease$`, `(?m)^  spec\s+<LeaseSpec>$`)
	k.expect("explain pod.spec.nope", `error: field "nope" does not exist`)
}

// With the schemas served, client-side `kubectl apply` builds its three-way strategic merge patch from
// them (their x-kubernetes-patch-merge-key and -patch-strategy): the edit still merges containers
// by name.
func TestKubectlApplyMergesWithTheServedSchemas(t *testing.T) {
	t.Parallel() // it mostly waits for kubectl processes, beside the other kubectl tests
	_, hs := newFront(t)
	k := newKubectl(t, hs, "admin-token")
	k.expectIn(sideDeployment("2", "nginx:1.25", "app: web"), "apply -f -", `^deployment.apps/web created\n$`)
	k.expectIn(sideDeployment("3", "nginx:1.26", "app: web"), "apply -f -", `^deployment.apps/web configured\n$`)
	k.expect("get deployment web -o jsonpath={.spec.replicas}/{.spec.template.spec.containers[*].image}", `^3/nginx:1.26$`)
}
