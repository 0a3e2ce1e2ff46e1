// equal.go: semantic equality of statuses, so the kubelet writes a status only when it changed.
package kubelet

import "kubesim/api"

// valueHolder lets api.SpecEqual (Kubernetes' equality.Semantic: quantities and times by value, nil
// and empty alike) compare any value: the value sits where a spec would.
type valueHolder[T any] struct {
	api.TypeMeta
	api.ObjectMeta
	Value T
}

// semanticEqual reports whether a and b are equal in Kubernetes' semantic sense.
func semanticEqual[T any](a, b T) bool {
	return api.SpecEqual(&valueHolder[T]{Value: a}, &valueHolder[T]{Value: b})
}
