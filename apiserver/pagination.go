// pagination.go: lists in chunks, with limit and continue (k8s.io/apiserver/pkg/storage/continue.go
// and the etcd3 store's GetList). `kubectl get` asks for 500 items at a time; each chunk that is not
// the last carries a continue token, and the client asks again with it until a chunk has none.
//
// The token is Kubernetes' own: base64url (unpadded) of the JSON {"v":"meta.k8s.io/v1","rv":R,
// "start":K}, where R is the etcd revision of the first chunk and K the key to go on from, relative to
// the list's prefix (the last key returned followed by a NUL byte, the least key after it). Every
// chunk is read at revision R, so the chunks together are one consistent list, whatever was written
// in between: etcd keeps its history until it is compacted. After that the token has expired, and
// the answer is 410 Gone in Kubernetes' words, with a fresh token (rv -1: the current revision) that
// goes on with the rest, inconsistently, if the client accepts that.
//
// Which chunk comes from where, as in kube-apiserver 1.34: a first chunk without a resourceVersion is
// a consistent read from the watch cache, cut at limit; a continuation, and a first chunk at an exact
// resourceVersion, are read from etcd at the revision asked for (kubesim's cache keeps no snapshots
// of past revisions, which is when kube-apiserver too goes to etcd). remainingItemCount is given only
// when no selector filtered the list, for only then is etcd's count of the keys left exact.
package apiserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/store"
	"kubesim/wire"
)

// The 410 messages of kube-apiserver's etcd3 store, for a list at a compacted revision.
const (
	listExpired          = "The resourceVersion for the provided list is too old."
	inconsistentContinue = "The provided continue parameter is too old to display a consistent list result. " +
		"You can start a new list without the continue parameter, or use the continue token in this response to " +
		"retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - " +
		"objects that were created, modified, or deleted between the time the first chunk was returned and now may " +
		"show up in the list."
)

// maxChunkRead is the most keys one etcd read of a chunk asks for, as the etcd3 store's maxLimit: when a
// selector drops items, the next read asks twice as many, up to this.
const maxChunkRead = 10000

// continueToken is the token's JSON.
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

// encodeContinue makes the token that goes on from key (an etcd key under prefix) at revision rv.
func encodeContinue(key, prefix string, rv int64) string {
	b, _ := json.Marshal(continueToken{APIVersion: "meta.k8s.io/v1", ResourceVersion: rv, StartKey: strings.TrimPrefix(key, prefix)})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeContinue reads a token into the etcd key to go on from and the revision to read at (-1: now).
// A token that does not decode, or whose key would leave the prefix, is 400 with Kubernetes' wording.
func decodeContinue(token, prefix string) (string, int64, error) {
	invalid := func(why string) error { return apierrors.NewBadRequest("invalid continue token: " + why) }
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return "", 0, invalid("continue key is not valid: " + err.Error())
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		return "", 0, invalid("continue key is not valid: " + err.Error())
	}
	switch {
	case c.APIVersion != "meta.k8s.io/v1":
		return "", 0, invalid("continue key is not valid: server does not recognize this encoded version " + c.APIVersion)
	case c.ResourceVersion == 0:
		return "", 0, invalid("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	case c.StartKey == "":
		return "", 0, invalid("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)")
	}
	// path.Clean keeps a key like "../secrets/x" from ranging outside the list's prefix.
	key := "/" + strings.TrimPrefix(c.StartKey, "/")
	if path.Clean(key) != key {
		return "", 0, invalid("continue key is not valid: " + c.StartKey)
	}
	return prefix + key[1:], c.ResourceVersion, nil
}

// listPrefix is the etcd prefix a list ranges over: /registry/pods/default/ for a namespace's pods,
// /registry/pods/ for every namespace's.
func listPrefix(res *api.Resource, namespace string) string {
	if res.Namespaced && namespace != "" {
		return "/registry/" + res.Name + "/" + namespace + "/"
	}
	return "/registry/" + res.Name + "/"
}

// chunkOf cuts a list read whole from the watch cache at revision rev down to its first limit items,
// with the token for the rest.
func chunkOf(res *api.Resource, namespace string, sel selection, items []api.Object, rev, limit int64) *wire.ListResult {
	out := &wire.ListResult{Items: items, ResourceVersion: strconv.FormatInt(rev, 10)}
	if limit <= 0 || int64(len(items)) <= limit {
		return out
	}
	last := items[limit-1].GetObjectMeta()
	out.Items = items[:limit]
	out.Continue = encodeContinue(etcdKey(res, last.Namespace, last.Name)+"\x00", listPrefix(res, namespace), rev)
	if sel.unfiltered() {
		left := int64(len(items)) - limit
		out.RemainingItemCount = &left
	}
	return out
}

// listChunk reads a chunk from etcd: at most limit items (0: all) matching sel, from the key fromKey
// ("" for the first) at revision rev (0: now). continuing says that the chunk was asked for with a
// continue token, which decides the wording of a 410.
func (s *Server) listChunk(ctx context.Context, res *api.Resource, namespace string, sel selection, fromKey string, rev, limit int64, continuing bool) (*wire.ListResult, error) {
	prefix := listPrefix(res, namespace)
	items := []api.Object{}
	read := limit
	var (
		lastKey string
		count   int64
		hasMore bool
	)
	for {
		kvs, n, at, err := s.store.ListPage(ctx, prefix, fromKey, rev, read)
		if err != nil {
			return nil, s.chunkError(ctx, err, res, prefix, fromKey, rev, continuing)
		}
		rev, count, hasMore = at, n, int64(len(kvs)) < n
		for _, kv := range kvs {
			if limit > 0 && int64(len(items)) >= limit {
				hasMore = true
				break
			}
			lastKey = kv.Key
			obj, err := decode(res, kv)
			if err != nil {
				return nil, apierrors.NewInternalError(err)
			}
			if sel.matches(obj) {
				items = append(items, obj)
			}
		}
		fromKey = lastKey + "\x00"
		if !hasMore || limit <= 0 || int64(len(items)) >= limit {
			break
		}
		read = min(2*read, maxChunkRead)
	}
	out := &wire.ListResult{Items: items, ResourceVersion: strconv.FormatInt(rev, 10)}
	if hasMore {
		out.Continue = encodeContinue(fromKey, prefix, rev)
		if sel.unfiltered() {
			left := count - limit
			out.RemainingItemCount = &left
		}
	}
	return out, nil
}

// chunkError words an etcd failure of a chunk as kube-apiserver does.
func (s *Server) chunkError(ctx context.Context, err error, res *api.Resource, prefix, fromKey string, rev int64, continuing bool) error {
	switch {
	case store.IsCompacted(err) && continuing:
		gone := apierrors.NewResourceExpired(inconsistentContinue)
		gone.ErrStatus.Continue = encodeContinue(fromKey, prefix, -1)
		return gone
	case store.IsCompacted(err):
		return apierrors.NewResourceExpired(listExpired)
	case errors.Is(err, store.ErrFutureRevision):
		now, _ := s.store.CurrentRevision(ctx)
		return apierrors.NewTimeout(fmt.Sprintf("Too large resource version: %d, current: %d", rev, now))
	}
	return storageError(err, res, "")
}
