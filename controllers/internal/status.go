// status.go: SameStatus and SameList, how a controller decides a status write would change nothing.
package internal

import "encoding/json"

// SameStatus reports whether two statuses serialise the same, so that writing b over a would change
// nothing and can be skipped. (Kubernetes compares with apiequality.Semantic.DeepEqual; kubesim compares
// what would be written.)
func SameStatus[S any](a, b S) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// SameList is SameStatus for a list as the apiserver stores it: nil and empty are the same list.
func SameList[T any](a, b []T) bool {
	return len(a) == 0 && len(b) == 0 || SameStatus(a, b)
}
