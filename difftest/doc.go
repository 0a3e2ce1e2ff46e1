// Package difftest holds kubesim's api packages to the code they mirror: the same generated cases go
// through kubesim and through k8s.io/apimachinery and k8s.io/api at v0.34.1 (Kubernetes 1.34), and a
// test fails where the two answer differently.
//
// It is a module of its own so that the main module does not depend on Kubernetes; CI runs it with
// `(cd difftest && go test ./...)`, which runs every table and every fuzz seed. Each table test logs
// how many cases it compared. To search for new differences, fuzz one target at a time:
//
//	go test -run XXX -fuzz FuzzQuantity -fuzztime 5m
//
// What is compared:
//
//	quantity_test.go       resource.Quantity: parse (error or printed form), milli-value, Cmp, Add, Sub, JSON
//	selector_test.go       label selectors (parse, error, String, Matches) and field selectors
//	labelselector_test.go  metav1.LabelSelectorAsSelector and ValidateLabelSelector (spec.selector)
//	names_test.go          DNS-1123/1035 names, qualified names, label values, generateName prefixes,
//	                       label and annotation maps
//	intstr_test.go         IntOrString from JSON, printed, and scaled against a total
//	time_test.go           metav1.Time and MicroTime from JSON and written back
//	errors_test.go         the apiserver's Status errors: message, reason, code, details
//	objectmeta_test.go     metadata validation on create (names, namespace, owners, finalizers)
//	decode_test.go         strict decoding of manifests (the apiserver's fieldValidation=Strict)
//	schema_test.go         every field of every kind in k8s.io/api: modelled or listed as unmodelled
//	fullmanifest_test.go   a manifest setting every field of each kind loads on both sides
//
// The scheduler and the pod-template-hash are compared in modules of their own, difftest/scheduler
// and difftest/deployment (see their doc.go): they need k8s.io/kubernetes, which this module does
// not carry.
//
// Differences kept on purpose, and why, are written next to the check that skips them: Value and
// MilliValue saturate beyond an int64 where Kubernetes wraps, and round a negative quantity held in
// arbitrary precision away from zero where Kubernetes rounds it up; label selector syntax errors carry
// the position of the offending token; quantities with exponents of six digits or more are not compared
// (apimachinery takes seconds to parse "8e-22222210").
package difftest
