// mutation.go: the cache mutation detector (client-go's KUBE_CACHE_MUTATION_DETECTOR). An object in
// an informer's cache is shared: with the apiserver's watch cache that delivered it, with every other
// in-process informer, with every handler and every lister's caller. A component that changes one in
// place, instead of changing a DeepCopy, corrupts all of them at once. With
// KUBESIM_CACHE_MUTATION_DETECTOR=true each informer keeps the JSON of every object it caches and, when
// the object leaves its cache (replaced by a newer version, deleted, or at Stop), panics if the object
// no longer encodes the same, naming the informer and the object. It costs an encoding per event: for
// tests (.ci/run plays the scenarios with it), not for the envelope.
//
//	mutationDetector.cached(key, obj)        remember obj as it is now
//	mutationDetector.check(who, key, obj)    panic if obj changed since
//	mutationDetector.leaving(who, key, obj)  check, then forget it
package client

import (
	"encoding/json"
	"fmt"
	"os"
)

// detectMutations is read once, as client-go reads its variable.
var detectMutations = os.Getenv("KUBESIM_CACHE_MUTATION_DETECTOR") == "true"

// mutationDetector holds the JSON of each cached object, by key. An informer has one only when the
// detector is on (nil otherwise: its methods do nothing); the informer's mu guards it.
type mutationDetector struct {
	seen map[string][]byte
}

func newMutationDetector() *mutationDetector {
	if !detectMutations {
		return nil
	}
	return &mutationDetector{seen: map[string][]byte{}}
}

func (d *mutationDetector) cached(key string, obj any) {
	if d == nil {
		return
	}
	d.seen[key] = encodeForDetector(obj)
}

func (d *mutationDetector) check(who, key string, obj any) {
	if d == nil {
		return
	}
	was, ok := d.seen[key]
	if !ok {
		return
	}
	if now := encodeForDetector(obj); string(now) != string(was) {
		// Objects are shared between informers: the one that notices is not necessarily the one whose
		// component changed it.
		panic(fmt.Sprintf("cache mutation detected: object %s in the cache of %s was changed in place:\nwas %s\nnow %s", key, who, was, now))
	}
}

func (d *mutationDetector) leaving(who, key string, obj any) {
	if d == nil {
		return
	}
	d.check(who, key, obj)
	delete(d.seen, key)
}

func encodeForDetector(obj any) []byte {
	b, err := json.Marshal(obj)
	if err != nil {
		panic("cache mutation detector: " + err.Error())
	}
	return b
}
