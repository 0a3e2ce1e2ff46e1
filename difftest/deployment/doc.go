// Package deployment holds kubesim's pod-template-hash (controllers/deployment, ComputeHash) to
// Kubernetes v1.34.1's own: the same Deployment manifests go through kubesim (its decoding, its
// apiserver's defaulting, JSON as its etcd keeps it, then HashedText and ComputeHash) and through
// k8s.io/kubernetes (k8s.io/api's decoding, the apps/v1 defaulting, the conversion to the internal
// type and back, protobuf as etcd keeps it and kube-controller-manager reads it, then
// k8s.io/apimachinery's dump.ForHash and pkg/controller's ComputeHash). The test fails at the first
// differing byte of the printed text, or the first differing hash.
//
// It is a module of its own, beside difftest/scheduler, because it needs k8s.io/kubernetes (a replace
// directive for every k8s.io staging module, all at v0.34.1, see go.mod). CI runs it with
// `(cd difftest/deployment && go test ./...)`. To compare more generated templates:
//
//	go test -run Generated -seeds 20000
//
// What is compared:
//
//	layout_test.go  controllers/deployment/layout.go is k8s.io/api's PodTemplateSpec, walked by
//	                reflection as go-spew walks it (go test -run Layout -update rewrites it; do that
//	                when k8s.io/api moves to a new release, which changes every hash)
//	hash_test.go    the scenarios' and examples' Deployments, seeded random templates over the fields
//	                kubesim models (gen_test.go: containers, ports, env, resources with quantities in
//	                many forms, probes, volumes, tolerations, affinity, spread, labels, annotations),
//	                and `kubectl create deployment nginx --image=nginx`; each twice: kubesim's print of
//	                its own defaulted template against go-spew's print of the same template (the
//	                printer), then against the real apiserver's defaulting (kubesim's defaults), and
//	                the hashes with collisionCount unset, 0, 1, 7 and -3
//
// What is not: fields kubesim does not model (a manifest setting one loads with a warning and hashes
// differently, since kubesim drops the field), and a template's creationTimestamp when set (the real
// print holds the controller's time zone). No difference is kept on purpose: a new one fails the test.
package deployment
