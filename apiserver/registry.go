// registry.go: gate 6 and the reads: how each verb turns into etcd operations (the generic registry,
// k8s.io/apiserver/pkg/registry/generic/registry.Store). Objects are stored as readable JSON under
// /registry/<resource>/<namespace>/<name>; an object's resourceVersion is the etcd revision that last
// modified it, never stored in the value itself.
package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/field"
	"kubesim/api/validation"
	"kubesim/store"
	"kubesim/trace"
	"kubesim/wire"
)

// etcdKey is where an object lives: /registry/pods/default/nginx, /registry/nodes/node-1.
// (Kubernetes keeps a few historical exceptions, such as nodes under /registry/minions; kubesim does
// not.)
func etcdKey(res *api.Resource, namespace, name string) string {
	if res.Namespaced {
		return "/registry/" + res.Name + "/" + namespace + "/" + name
	}
	return "/registry/" + res.Name + "/" + name
}

// encode serialises obj for etcd, without its resourceVersion.
func encode(obj api.Object) ([]byte, error) {
	m := obj.GetObjectMeta()
	rv := m.ResourceVersion
	m.ResourceVersion = ""
	defer func() { m.ResourceVersion = rv }()
	return api.Encode(obj)
}

func decode(res *api.Resource, kv store.KV) (api.Object, error) {
	obj := res.NewObject()
	if err := json.Unmarshal(kv.Value, obj); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", kv.Key, err)
	}
	obj.GetObjectMeta().ResourceVersion = strconv.FormatInt(kv.ModRevision, 10)
	return obj, nil
}

// deadlineError is the 504 of a request that waited (for etcd, or for the watch cache to catch up)
// past its deadline: kube-apiserver's handler finisher words it the same wherever the wait was.
func deadlineError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return apierrors.NewTimeout("request did not complete within requested timeout - " + context.DeadlineExceeded.Error())
	}
	return apierrors.NewTimeout(err.Error())
}

// storageError turns a store failure into the Status a client sees.
func storageError(err error, res *api.Resource, name string) error {
	switch {
	case store.IsNotFound(err):
		return apierrors.NewNotFound(res.GroupResource(), name)
	case store.IsKeyExists(err):
		return apierrors.NewAlreadyExists(res.GroupResource(), name)
	case store.IsConflict(err):
		return apierrors.NewConflict(res.GroupResource(), name, apierrors.OptimisticLockErrorMsg)
	case store.IsCompacted(err):
		return apierrors.NewResourceExpired(err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		// Without a quorum etcd's client retries a request until its deadline, where kube-apiserver
		// answers 504 (handlers/finisher).
		return deadlineError(err)
	}
	if msg, ok := store.NoSpace(err); ok {
		// etcd's database reached its quota: every write fails until an operator compacts,
		// defragments and disarms the alarm. kube-apiserver passes etcd's words through as well.
		return apierrors.NewUntranslated(msg)
	}
	if msg, ok := store.Timeout(err); ok {
		// A write that a leader accepted but no quorum committed fails after etcd's request timeout.
		// k8s.io/apiserver's storage error translation has no case for it, so the client sees a 500
		// in etcd's words.
		return apierrors.NewUntranslated(msg)
	}
	return apierrors.NewInternalError(err)
}

// read fetches the current object from etcd.
func (s *Server) read(ctx context.Context, res *api.Resource, namespace, name string) (api.Object, error) {
	kv, err := s.store.Get(ctx, etcdKey(res, namespace, name))
	if err != nil {
		return nil, storageError(err, res, name)
	}
	return decode(res, kv)
}

func (s *Server) get(ctx context.Context, req *wire.Request, res *api.Resource) (*wire.Response, error) {
	if req.Subresource == "scale" {
		return s.getScale(ctx, req, res)
	}
	obj, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	return &wire.Response{Object: obj}, nil
}

// list serves from the watch cache (events from etcd: uncached.go). With no resourceVersion the list must be consistent (as fresh as
// etcd), so the cache first catches up to etcd's current revision, which is how Kubernetes serves
// consistent lists from its cache since 1.31. The items are shared with the cache: never modify them
// (the client copies them before handing them out). A list in chunks (limit, continue) reads its
// later chunks from etcd: see pagination.go.
func (s *Server) list(ctx context.Context, req *wire.Request, res *api.Resource) (*wire.Response, error) {
	sel, err := newSelection(res, req.Namespace, req.LabelSelector, req.FieldSelector)
	if err != nil {
		return nil, err
	}
	if req.Limit < 0 {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid limit %d: must not be negative", req.Limit))
	}
	if req.Continue != "" {
		if req.ResourceVersion != "" && req.ResourceVersion != "0" {
			return nil, apierrors.NewBadRequest("specifying resource version is not allowed when using continue")
		}
		from, rev, err := decodeContinue(req.Continue, listPrefix(res, req.Namespace))
		if err != nil {
			return nil, err
		}
		chunk, err := s.listChunk(ctx, res, req.Namespace, sel, from, max(rev, 0), req.Limit, true)
		if err != nil {
			return nil, err
		}
		return &wire.Response{List: chunk}, nil
	}
	if uncachedResources[res.Name] {
		return s.listUncached(ctx, req, res, sel)
	}
	var want int64
	switch req.ResourceVersion {
	case "":
		if want, err = s.store.CurrentRevision(ctx); err != nil {
			return nil, storageError(err, res, "")
		}
	case "0":
	default:
		if want, err = strconv.ParseInt(req.ResourceVersion, 10, 64); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q", req.ResourceVersion))
		}
		if req.Limit > 0 {
			// A chunk at an exact resourceVersion: etcd has the past, the cache only the present.
			chunk, err := s.listChunk(ctx, res, req.Namespace, sel, "", want, req.Limit, false)
			if err != nil {
				return nil, err
			}
			return &wire.Response{List: chunk}, nil
		}
	}
	if err := s.cache.waitFor(ctx, want); err != nil {
		return nil, apierrors.NewTimeout(fmt.Sprintf("waiting for the watch cache to reach revision %d: %v", want, err))
	}
	items, rev := s.cache.list(res, sel)
	return &wire.Response{List: chunkOf(res, req.Namespace, sel, items, rev, req.Limit)}, nil
}

func (s *Server) watch(ctx context.Context, req *wire.Request, res *api.Resource) (*wire.Response, error) {
	sel, err := newSelection(res, req.Namespace, req.LabelSelector, req.FieldSelector)
	if err != nil {
		return nil, err
	}
	var from *int64
	if req.ResourceVersion != "" && req.ResourceVersion != "0" {
		rv, err := strconv.ParseInt(req.ResourceVersion, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q", req.ResourceVersion))
		}
		if err := s.cache.waitFor(ctx, rv); err != nil {
			return nil, apierrors.NewTimeout(fmt.Sprintf("too large resource version: %d", rv))
		}
		from = &rv
	}
	if from == nil && uncachedResources[res.Name] {
		return s.watchUncached(ctx, res, sel, req.AllowWatchBookmarks)
	}
	w, err := s.cache.watch(res, sel, from, req.AllowWatchBookmarks)
	if err != nil {
		return nil, err
	}
	return &wire.Response{Watch: w}, nil
}

// create admits, validates and stores a new object.
func (s *Server) create(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	switch res.Name {
	case selfSubjectAccessReviews:
		return s.reviewSelf(req, res, user)
	case selfSubjectRulesReviews:
		return s.reviewRules(req, res, user)
	case selfSubjectReviews:
		return s.reviewSelfSubject(req, res, user)
	}
	switch req.Subresource {
	case "binding":
		return s.bind(ctx, req, res, user)
	case "eviction":
		return s.evict(ctx, req, res, user)
	case "":
	default:
		return nil, apierrors.NewMethodNotSupported(res.GroupResource()+"/"+req.Subresource, wire.VerbCreate)
	}
	obj, err := s.bodyFor(req, res)
	if err != nil {
		return nil, err
	}
	m := obj.GetObjectMeta()
	if m.Name == "" && m.GenerateName != "" {
		m.Name = s.generateName(m.GenerateName)
	}
	req.Name = m.Name

	if err := s.admit(ctx, req, res, user, obj, nil); err != nil {
		return nil, err
	}
	if err := s.confirmNoEscalation(res, user, obj); err != nil {
		return nil, err
	}
	if svc, ok := obj.(*api.Service); ok {
		done, err := s.allocateService(ctx, svc, nil)
		if err != nil {
			return nil, err
		}
		defer done()
	}
	if err := s.validate(ctx, req, res, user, obj, nil); err != nil {
		return nil, err
	}

	now := s.clock.Now()
	m.UID = s.newUID()
	m.CreationTimestamp = api.NewTime(now)
	m.ResourceVersion = ""
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	if api.TracksGeneration(obj) {
		m.Generation = 1
	}
	prepareForCreate(obj)
	if req.DryRun {
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "dry-run"}.
			Msgf("%s: passed every gate; dry run, nothing written to etcd", describe(req, res)))
		return &wire.Response{Object: obj}, nil
	}
	// A generated name can collide with an existing one; like kube-apiserver (since 1.30), try a few
	// fresh suffixes before giving up with AlreadyExists.
	given := answerShared(req)
	if given {
		s.cache.shared.share(obj) // its controller's other pods' parts, where equal: the cache keeps obj
	}
	for attempt := 0; ; attempt++ {
		answer, err := s.persistAnswer(ctx, req, res, user, obj, 0, given)
		if err == nil {
			return &wire.Response{Object: answer}, nil
		}
		if m.GenerateName == "" || !apierrors.IsAlreadyExists(err) || attempt == maxGenerateNameAttempts {
			return nil, err
		}
		if given {
			// The failed write's object was the cache's to take (had etcd reported those bytes):
			// the next try names a new top level.
			obj = shallowCopy(obj)
			m = obj.GetObjectMeta()
		}
		m.Name = s.generateName(m.GenerateName)
		req.Name = m.Name
	}
}

// maxGenerateNameAttempts is how many extra names a generateName create tries after a collision.
const maxGenerateNameAttempts = 7

// prepareForCreate sets what a new object of some kinds starts with, as each kind's registry strategy
// does in Kubernetes: a pod is Pending with its QoS class, a workload starts with an empty status, a
// namespace carries the namespace controller's finalizer (deleting it first empties it).
func prepareForCreate(obj api.Object) {
	switch o := obj.(type) {
	case *api.Pod:
		o.Status = api.PodStatus{Phase: api.PodPending, QOSClass: api.QOSClass(o)}
	case *api.Deployment:
		o.Status = api.DeploymentStatus{}
	case *api.ReplicaSet:
		o.Status = api.ReplicaSetStatus{}
	case *api.DaemonSet:
		o.Status = api.DaemonSetStatus{}
	case *api.Namespace:
		if len(o.Spec.Finalizers) == 0 {
			o.Spec.Finalizers = []api.FinalizerName{api.FinalizerKubernetes}
		}
	}
}

// bodyFor checks the request body against the URL and returns a private copy to work on: the
// apiserver never modifies the caller's object, unless the caller handed it over. A handed-over body
// is worked on as it is by a create and a status write; an update of the whole object keeps its
// copy, because it starts again from the body as sent when the watch cache's copy was behind etcd.
func (s *Server) bodyFor(req *wire.Request, res *api.Resource) (api.Object, error) {
	if req.Body == nil {
		return nil, apierrors.NewBadRequest("the request has no body: send the object to " + req.Verb)
	}
	if got, ok := api.ResourceOf(req.Body); !ok || got != res {
		kind := reflect.TypeOf(req.Body).Elem().Name()
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (wrong kind): a %s cannot be stored as %s", kind, res.GroupResource()))
	}
	obj := req.Body
	worksOnBody := req.HandOver && (req.Verb == wire.VerbCreate || req.Verb == wire.VerbUpdate && req.Subresource == "status")
	if !worksOnBody {
		obj = api.DeepCopy(req.Body)
	}
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = res.APIVersion(), res.Kind
	m := obj.GetObjectMeta()
	if res.Namespaced {
		switch {
		case m.Namespace == "":
			m.Namespace = req.Namespace
		case req.Namespace == "":
			req.Namespace = m.Namespace
		case m.Namespace != req.Namespace:
			return nil, apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
		if m.Namespace == "" {
			m.Namespace = "default"
			req.Namespace = "default"
		}
	} else {
		m.Namespace = ""
	}
	if (req.Verb == wire.VerbUpdate || req.Verb == wire.VerbPatch) && req.Name != "" && m.Name != req.Name {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", m.Name, req.Name))
	}
	return obj, nil
}

// admit runs the mutating admission chain, then nothing else: validation comes next. Each plugin
// that changed something says so in one trace line.
func (s *Server) admit(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj, old api.Object) error {
	a := &admissionAttributes{req: req, res: res, user: user, obj: obj, old: old, traced: s.traced(req)}
	for _, p := range s.mutating {
		changes, err := p.Admit(ctx, a)
		if err != nil {
			s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "admit", Code: apierrors.CodeForError(err)}.
				Msgf("admission plugin %s rejected %s: %s", p.Name(), describe(req, res), err.Error()))
			return recorded{err}
		}
		if len(changes) > 0 && a.traced {
			s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "admit", Detail: true}.
				Msgf("%s: %s", p.Name(), strings.Join(changes, "; ")))
		}
	}
	return nil
}

// recorded marks an error whose gate has already told the trace about it.
type recorded struct{ error }

func (r recorded) Unwrap() error { return r.error }

// validate checks the object's fields (422 Invalid with one cause per field path), then runs the
// validating admission plugins (ResourceQuota and webhooks; 403 when they refuse).
func (s *Server) validate(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj, old api.Object) error {
	var errs field.ErrorList
	newPod, isPod := obj.(*api.Pod)
	switch {
	case old == nil:
		errs = validation.ValidateObject(obj)
	case isPod && req.Subresource == "status":
		// A pod's status strategy validates the status alone: the rest is the stored pod's.
		errs = validation.ValidatePodStatusUpdate(newPod, old.(*api.Pod))
	default:
		errs = validation.ValidateObjectUpdate(obj, old)
	}
	if len(errs) > 0 {
		kind := res.Kind
		if res.Group != "" {
			kind += "." + res.Group
		}
		err := apierrors.NewInvalid(kind, obj.GetObjectMeta().Name, errs)
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "validate", Code: 422}.
			Msgf("%s -> 422 %s", describe(req, res), err.Error()))
		return recorded{err}
	}
	if s.trace != nil {
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "validate", Detail: true}.
			Msgf("%s: valid", describe(req, res)))
	}
	a := &admissionAttributes{req: req, res: res, user: user, obj: obj, old: old}
	for _, p := range s.validating {
		if err := p.Validate(ctx, a); err != nil {
			s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "admit", Code: apierrors.CodeForError(err)}.
				Msgf("admission plugin %s rejected %s: %s", p.Name(), describe(req, res), err.Error()))
			return recorded{err}
		}
	}
	return nil
}

// writeTimeout bounds a write request from its start, as kube-apiserver's create, update, patch and
// delete handlers bound theirs (requestTimeoutUpperBound, 34s unless the request says ?timeout=):
// without an etcd quorum, etcd's client retries a write until this deadline. Do sets it; persist and
// remove run under it.
const writeTimeout = 34 * time.Second

// requestTimeout bounds every request but a watch: kube-apiserver's --request-timeout, 1 minute by
// default.
const requestTimeout = time.Minute

// persist writes obj to etcd: a create when modRev is 0, else a compare-and-swap on modRev. On success
// obj carries its new resourceVersion.
func (s *Server) persist(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj api.Object, modRev int64) error {
	_, err := s.persistAnswer(ctx, req, res, user, obj, modRev, false)
	return err
}

// persistAnswer is persist that returns the object to answer with: obj itself, or with given (see
// persistEncoded) a shallow copy of it that shares everything under it with the watch cache's.
func (s *Server) persistAnswer(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj api.Object, modRev int64, given bool) (api.Object, error) {
	val, err := encode(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return s.persistEncoded(ctx, req, res, user, obj, val, modRev, given)
}

// answerShared says whether the object a write builds may go to the watch cache as it is, and the
// answer share everything with it: the caller handed its body over (wire.Request.HandOver), and
// with it took the answer as read-only.
func answerShared(req *wire.Request) bool { return req.HandOver }

// persistEncoded is persist of an object already encoded as val (an update encodes it once, to
// compare it with what is stored and to write it), returning the object to answer with.
//
// Without given, the watch cache takes a copy of obj, which stays the caller's and gets the new
// resourceVersion: the answer is obj. With given, obj itself goes to the cache (which sets its
// resourceVersion when etcd reports the write): nobody may touch obj after this call, and the answer
// is a shallow copy of it, taken before, sharing every map, slice and pointer with the cache's
// object; only a caller that takes its answer as read-only may get it (answerShared). A create, a
// status write and a binding then store one object where they stored two.
func (s *Server) persistEncoded(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj api.Object, val []byte, modRev int64, given bool) (api.Object, error) {
	m := obj.GetObjectMeta()
	key := etcdKey(res, m.Namespace, m.Name)
	answer := obj
	if given {
		answer = shallowCopy(obj)
	}
	pending := s.cache.expectWrite(key, val, obj, given)
	if s.beforeWrite != nil {
		s.beforeWrite(key)
	}
	start := s.clock.Now()
	var (
		rev int64
		err error
	)
	switch ttl := s.ttlFor(res); {
	case modRev == 0 && ttl > 0:
		rev, err = s.store.CreateWithTTL(ctx, key, val, ttl)
	case modRev == 0:
		rev, err = s.store.Create(ctx, key, val)
	case ttl > 0:
		rev, err = s.store.UpdateWithTTL(ctx, key, val, modRev, ttl)
	default:
		rev, err = s.store.Update(ctx, key, val, modRev)
	}
	if err != nil {
		s.cache.abandonWrite(key, pending)
		return nil, storageError(err, res, answer.GetObjectMeta().Name)
	}
	am := answer.GetObjectMeta()
	am.ResourceVersion = strconv.FormatInt(rev, 10)
	s.wrote(res.Name, rev)
	if s.traced(req) {
		e := trace.Event{Component: "etcd", Actor: user.Name, Action: "put", Detail: routineWrite(res, answer, modRev),
			Object: objectPath(res, am.Namespace, am.Name), ResourceVersion: am.ResourceVersion}.Msgf("put %s -> revision %d", key, rev)
		if waited := s.clock.Since(start); waited > 0 {
			e = e.Msgf("put %s -> revision %d (the write waited %s in etcd)", key, rev, waited)
		}
		s.record(req, res, e)
	}
	return answer, nil
}

// routineWrite tells which writes the story can leave to the detail level: events (the recorder
// already tells each one) and Lease renewals by the current holder (a heartbeat every few seconds);
// taking over a Lease is news.
func routineWrite(res *api.Resource, obj api.Object, modRev int64) bool {
	switch res.Name {
	case "events":
		return true
	case "leases":
		return modRev != 0 && !leaseChangedHands(obj.(*api.Lease))
	}
	return false
}

// leaseChangedHands is true on the write that records a new holder: acquireTime equals renewTime then.
func leaseChangedHands(l *api.Lease) bool {
	return l.Spec.AcquireTime != nil && l.Spec.RenewTime != nil && l.Spec.AcquireTime.Equal(l.Spec.RenewTime.Time)
}

// update replaces an object (or one of its subresources) if the caller's resourceVersion is still
// current: optimistic concurrency, Kubernetes' answer to two writers racing. A patch comes here too:
// its sender (the HTTP front) has applied it to the object it read, and sends the result with that
// object's resourceVersion under the verb patch, which is what RBAC checks and the trace shows.
func (s *Server) update(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	switch req.Subresource {
	case "status":
		return s.updateStatus(ctx, req, res, user)
	case "finalize":
		return s.finalize(ctx, req, res, user)
	case "scale":
		return s.updateScale(ctx, req, res, user)
	case "":
	default:
		return nil, apierrors.NewMethodNotSupported(res.GroupResource()+"/"+req.Subresource, wire.VerbUpdate)
	}
	obj, err := s.bodyFor(req, res)
	if err != nil {
		return nil, err
	}
	req.Name = obj.GetObjectMeta().Name
	// Like updateStatus (and kube-apiserver's GuaranteedUpdate behind its watch cache), start from the
	// cache's copy when the request is based on it, and go to etcd only when that copy turns out to
	// be behind (the compare-and-swap fails) or the update would change nothing. Only a cache that
	// holds this apiserver's own writes to the object is asked: a request based on the version before
	// a write still on its way to the cache is then refused before admission, as reading etcd refuses
	// it (and the story of two writers racing stays the same in step mode).
	if old := s.settledBase(req, res, obj.GetObjectMeta().ResourceVersion); old != nil {
		if resp, done, err := s.fromCache(ctx, req, res, old, func() (*wire.Response, error) {
			return s.updateFrom(ctx, req, res, user, obj, old, true)
		}); done {
			return resp, err
		}
		// etcd has moved on: start again from its copy, with a fresh copy of the body (admission
		// may have changed this one).
		if obj, err = s.bodyFor(req, res); err != nil {
			return nil, err
		}
	}
	old, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	return s.updateFrom(ctx, req, res, user, obj, old, false)
}

// updateFrom is update applied to old, the current object as this apiserver knows it (cached: the
// watch cache's copy).
func (s *Server) updateFrom(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj, old api.Object, cached bool) (*wire.Response, error) {
	if err := checkResourceVersion(res, obj, old); err != nil {
		return nil, err
	}
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	// Fields the server owns survive any update.
	m.UID, m.CreationTimestamp, m.Generation = om.UID, om.CreationTimestamp, om.Generation
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = om.DeletionTimestamp, om.DeletionGracePeriodSeconds
	m.GenerateName = om.GenerateName
	// With a status subresource, the main resource ignores status changes (and vice versa).
	if res.HasSubresource("status") {
		api.CopyStatus(obj, old)
	}
	if err := s.admit(ctx, req, res, user, obj, old); err != nil {
		return nil, err
	}
	if err := s.confirmNoEscalation(res, user, obj); err != nil {
		return nil, err
	}
	if api.BumpsGeneration(obj, old) {
		m.Generation = om.Generation + 1
	}
	if svc, ok := obj.(*api.Service); ok {
		done, err := s.allocateService(ctx, svc, old.(*api.Service))
		if err != nil {
			return nil, err
		}
		defer done()
	}
	if err := s.validate(ctx, req, res, user, obj, old); err != nil {
		return nil, err
	}
	return s.finishUpdateFrom(ctx, req, res, user, obj, old, cached, false)
}

// fromCache runs write, an update applied to old (the watch cache's copy, at the request's
// resourceVersion), and gives its answer (done), or done false when the compare-and-swap found that
// etcd has moved on and the update must start again from etcd's copy. An update that would change
// nothing is answered once etcd confirms it still holds old (confirmUnchanged).
func (s *Server) fromCache(ctx context.Context, req *wire.Request, res *api.Resource, old api.Object, write func() (*wire.Response, error)) (*wire.Response, bool, error) {
	resp, err := write()
	switch {
	case errors.Is(err, errCheckEtcd):
		resp, err = s.confirmUnchanged(ctx, req, res, resp, old)
		return resp, true, err
	case apierrors.IsConflict(err):
		return nil, false, nil
	}
	return resp, true, err
}

// confirmUnchanged answers an update that would change nothing, judged on the watch cache's copy
// old (at the request's resourceVersion): if etcd's copy is still at that revision, the two are the
// same and so is the answer (resp, nothing written); if etcd has moved on, the request is based on
// an old version (409), and if the object is gone, 404: the answers reading etcd first would give,
// without decoding etcd's copy or running admission and validation again.
func (s *Server) confirmUnchanged(ctx context.Context, req *wire.Request, res *api.Resource, resp *wire.Response, old api.Object) (*wire.Response, error) {
	still, err := s.etcdStillAt(ctx, res, req, old)
	if err != nil {
		return nil, err
	}
	if !still {
		return nil, apierrors.NewConflict(res.GroupResource(), old.GetObjectMeta().Name, apierrors.OptimisticLockErrorMsg)
	}
	return resp, nil
}

// etcdStillAt reports whether etcd's copy of the object req names is at old's resourceVersion (one
// read, nothing decoded).
func (s *Server) etcdStillAt(ctx context.Context, res *api.Resource, req *wire.Request, old api.Object) (bool, error) {
	kv, err := s.store.Get(ctx, etcdKey(res, req.Namespace, req.Name))
	if err != nil {
		return false, storageError(err, res, req.Name)
	}
	return strconv.FormatInt(kv.ModRevision, 10) == old.GetObjectMeta().ResourceVersion, nil
}

// checkResourceVersion enforces optimistic concurrency: a write based on an old read is refused with
// 409 Conflict. An empty resourceVersion means an unconditional update.
func checkResourceVersion(res *api.Resource, obj, old api.Object) error {
	rv := obj.GetObjectMeta().ResourceVersion
	if rv != "" && rv != old.GetObjectMeta().ResourceVersion {
		return apierrors.NewConflict(res.GroupResource(), old.GetObjectMeta().Name, apierrors.OptimisticLockErrorMsg)
	}
	return nil
}

// finishUpdate writes obj over old unless nothing changed (a no-op update keeps the resourceVersion),
// and deletes an object whose last finalizer was just removed.
func (s *Server) finishUpdate(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj, old api.Object) (*wire.Response, error) {
	return s.finishUpdateFrom(ctx, req, res, user, obj, old, false, false)
}

// errCheckEtcd is finishUpdateFrom's answer for an update of nothing based on the watch cache's
// copy: that copy may be behind etcd, so only etcd's copy can tell that nothing changes.
var errCheckEtcd = errors.New("an update of nothing, judged on the cache's copy: check etcd's")

// finishUpdateFrom is finishUpdate; cached says that old is the watch cache's copy, not etcd's; given
// that obj goes to the watch cache as it is (persistEncoded).
func (s *Server) finishUpdateFrom(ctx context.Context, req *wire.Request, res *api.Resource, user User, obj, old api.Object, cached, given bool) (*wire.Response, error) {
	m := obj.GetObjectMeta()
	m.ResourceVersion = old.GetObjectMeta().ResourceVersion
	// An update that leaves a terminating object with no finalizers deletes it, once its grace period
	// is over (0): a pod in its grace period stays until the kubelet confirms (Kubernetes'
	// shouldDeleteDuringUpdate).
	if m.DeletionTimestamp != nil && len(m.Finalizers) == 0 && !hasNamespaceFinalizer(obj) && derefInt64(m.DeletionGracePeriodSeconds) == 0 {
		return s.remove(ctx, req, res, user, old)
	}
	val, err := encode(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if encodesAs(old, val) {
		if cached {
			// kube-apiserver's GuaranteedUpdate too reads etcd before it skips a write; the answer
			// comes with the error, for confirmUnchanged to give.
			return &wire.Response{Object: obj}, errCheckEtcd
		}
		return &wire.Response{Object: obj}, nil
	}
	if req.DryRun {
		return &wire.Response{Object: obj}, nil
	}
	modRev, _ := strconv.ParseInt(old.GetObjectMeta().ResourceVersion, 10, 64)
	answer, err := s.persistEncoded(ctx, req, res, user, obj, val, modRev, given)
	if err != nil {
		return nil, err
	}
	return &wire.Response{Object: answer}, nil
}

// sameObject reports whether a and b are stored alike: the same bytes in etcd.
func sameObject(a, b api.Object) bool {
	ea, err := encode(a)
	return err == nil && encodesAs(b, ea)
}

// encodesAs reports whether o is stored as val, an object already encoded.
func encodesAs(o api.Object, val []byte) bool {
	eo, err := encode(o)
	return err == nil && string(eo) == string(val)
}

// updateStatus writes only the status of an object (the status subresource): the kubelet reports a
// pod's phase, a controller its observed state, without touching what the user asked for.
//
// Like kube-apiserver's GuaranteedUpdate, it starts from the watch cache's copy of the object when
// that is the version the request was based on, and reads etcd only when the cache has no such copy
// or the write finds that etcd has moved on (409 from the compare-and-swap): most status writes
// then cost no etcd read and no decoding, and the new version shares the strings of the old one.
func (s *Server) updateStatus(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	body, err := s.bodyFor(req, res)
	if err != nil {
		return nil, err
	}
	req.Name = body.GetObjectMeta().Name
	if old := s.cachedBase(req, res, body.GetObjectMeta().ResourceVersion); old != nil {
		if resp, done, err := s.fromCache(ctx, req, res, old, func() (*wire.Response, error) {
			return s.updateStatusFrom(ctx, req, res, user, body, old, true)
		}); done {
			return resp, err
		}
		// The cache was behind etcd: start again from etcd's copy, whose answer is the one to give.
	} else if old := s.settledLatest(req, res, body.GetObjectMeta().ResourceVersion); old != nil {
		// An unconditional status write (the kubelet's: it owns the pod's status) starts from the
		// cache's latest copy, written with that copy's revision as the compare-and-swap's: if etcd
		// is still there, reading it would have given the same copy.
		resp, err := s.updateStatusFrom(ctx, req, res, user, body, old, true)
		switch {
		case errors.Is(err, errCheckEtcd):
			if still, err := s.etcdStillAt(ctx, res, req, old); err == nil && still {
				return resp, nil
			}
		case !apierrors.IsConflict(err):
			return resp, err
		}
		// etcd has moved on: start again from its copy.
	}
	old, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	return s.updateStatusFrom(ctx, req, res, user, body, old, false)
}

// updateStatusFrom is updateStatus applied to old, the current object as this apiserver knows it
// (cached: the watch cache's copy).
func (s *Server) updateStatusFrom(ctx context.Context, req *wire.Request, res *api.Resource, user User, body, old api.Object, cached bool) (*wire.Response, error) {
	if err := checkResourceVersion(res, body, old); err != nil {
		return nil, err
	}
	// The new version is old with body's status. When the caller handed body over and takes the
	// answer as read-only, it shares every part with old (the cache's copy, or etcd's decoded for this
	// request) and takes body's status as it is; it goes to the watch cache so.
	given := answerShared(req)
	var obj api.Object
	if given {
		obj = shallowCopy(old)
		api.TakeStatus(obj, body)
	} else {
		obj = api.DeepCopy(old)
		api.CopyStatus(obj, body)
	}
	if _, ok := obj.(*api.Deployment); ok {
		// A Deployment's status strategy keeps the body's annotations: the deployment controller
		// writes its revision annotation this way, without bumping the generation.
		obj.GetObjectMeta().Annotations = maps.Clone(body.GetObjectMeta().Annotations)
	}
	if err := s.validate(ctx, req, res, user, obj, old); err != nil {
		return nil, err
	}
	return s.finishUpdateFrom(ctx, req, res, user, obj, old, cached, given)
}

// settledBase is cachedBase, once the cache holds every write this apiserver made to the object.
func (s *Server) settledBase(req *wire.Request, res *api.Resource, rv string) api.Object {
	if !s.cache.settled(etcdKey(res, req.Namespace, req.Name)) {
		return nil
	}
	return s.cachedBase(req, res, rv)
}

// settledLatest is, for an unconditional write (rv ""), the watch cache's copy of the object req
// names, whatever its version, once the cache holds every write this apiserver made to it; nil for a
// conditional write, a dry run, or an object being deleted. Shallow, as cachedBase's.
func (s *Server) settledLatest(req *wire.Request, res *api.Resource, rv string) api.Object {
	if rv != "" || req.DryRun || !s.cache.settled(etcdKey(res, req.Namespace, req.Name)) {
		return nil
	}
	key := req.Name
	if res.Namespaced {
		key = req.Namespace + "/" + req.Name
	}
	cached := s.cache.get(res, key)
	if cached == nil || cached.GetObjectMeta().DeletionTimestamp != nil {
		return nil
	}
	return shallowCopy(cached)
}

// cachedBase is the watch cache's copy of the object req names, if it is at resourceVersion rv and
// not being deleted, for an update to start from; nil otherwise, and for an unconditional write
// (settledLatest is for those) or a dry run (etcd's copy judges those). The copy is shallow: its top
// level (metadata included) is the caller's, the maps, slices and pointers under it stay the
// cache's, which no update modifies (it deep-copies what it changes).
func (s *Server) cachedBase(req *wire.Request, res *api.Resource, rv string) api.Object {
	if rv == "" || req.DryRun {
		return nil
	}
	key := req.Name
	if res.Namespaced {
		key = req.Namespace + "/" + req.Name
	}
	cached := s.cache.get(res, key)
	if cached == nil || cached.GetObjectMeta().ResourceVersion != rv || cached.GetObjectMeta().DeletionTimestamp != nil {
		return nil
	}
	return shallowCopy(cached)
}

// shallowCopy copies obj's top level: a cached object an update may start from.
func shallowCopy(obj api.Object) api.Object {
	switch o := obj.(type) { // the kinds written most, copied without reflection
	case *api.Pod:
		c := *o
		return &c
	case *api.Event:
		c := *o
		return &c
	}
	v := reflect.New(reflect.TypeOf(obj).Elem())
	v.Elem().Set(reflect.ValueOf(obj).Elem())
	return v.Interface().(api.Object)
}

// finalize is namespaces/finalize: the namespace controller's way to clear spec.finalizers once the
// namespace is empty, which lets a Terminating namespace go.
func (s *Server) finalize(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	body, ok := req.Body.(*api.Namespace)
	if !ok {
		return nil, apierrors.NewBadRequest("namespaces/finalize needs a Namespace body")
	}
	old, err := s.read(ctx, res, "", req.Name)
	if err != nil {
		return nil, err
	}
	if err := checkResourceVersion(res, body, old); err != nil {
		return nil, err
	}
	obj := api.DeepCopy(old).(*api.Namespace)
	obj.Spec.Finalizers = append([]api.FinalizerName(nil), body.Spec.Finalizers...)
	return s.finishUpdate(ctx, req, res, user, obj, old)
}

// delete removes an object, or marks it for deletion: an object with finalizers, or a pod bound to a
// node (whose kubelet must stop its containers first, within the grace period), gets a
// deletionTimestamp and stays until the finalizers are gone or the kubelet confirms.
//
// A delete carries no preconditions, so a write that lands between its read and its compare-and-swap
// is no conflict of the caller's: like the storage layer of kube-apiserver (etcd3's conditionalDelete,
// GuaranteedUpdate), it reads the object again and retries, and only a 404 or another error ends it.
func (s *Server) delete(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	if err := s.admitNodeDelete(ctx, req, res, user); err != nil {
		return nil, err
	}
	for {
		resp, err := s.deleteOnce(ctx, req, res, user)
		if !apierrors.IsConflict(err) {
			return resp, err
		}
	}
}

// deleteOnce is one attempt of delete, from one read of the object.
func (s *Server) deleteOnce(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	old, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	if res.Name == "namespaces" {
		switch req.Name {
		case "default", "kube-system", "kube-public":
			return nil, apierrors.NewForbidden(res.GroupResource(), req.Name, "this namespace may not be deleted")
		}
	}
	obj := api.DeepCopy(old)
	m := obj.GetObjectMeta()
	switch req.PropagationPolicy {
	case wire.PropagationOrphan:
		addFinalizer(m, "orphan")
	case wire.PropagationForeground:
		addFinalizer(m, "foregroundDeletion")
	case "", wire.PropagationBackground:
	default:
		return nil, apierrors.NewInvalid("DeleteOptions", "", field.ErrorList{field.NotSupported(field.NewPath("propagationPolicy"), req.PropagationPolicy, []string{wire.PropagationForeground, wire.PropagationBackground, wire.PropagationOrphan})})
	}
	if res.Name == "namespaces" {
		// The namespace controller empties a namespace before it goes (the "kubernetes" finalizer).
		if ns := obj.(*api.Namespace); ns.Status.Phase != api.NamespaceTerminating {
			ns.Status.Phase = api.NamespaceTerminating
		}
	}
	grace := gracePeriod(obj, req.GracePeriodSeconds)
	now := s.clock.Now()
	if len(m.Finalizers) > 0 || grace > 0 || res.Name == "namespaces" && hasNamespaceFinalizer(obj) {
		if m.DeletionTimestamp == nil && m.Generation > 0 {
			m.Generation++ // the deletion's start is a change of desired state
		}
		if m.DeletionTimestamp == nil || grace < derefInt64(m.DeletionGracePeriodSeconds) {
			m.DeletionTimestamp = api.Ptr(api.NewTime(now.Add(time.Duration(grace) * time.Second)))
			m.DeletionGracePeriodSeconds = api.Ptr(grace)
		}
		if sameObject(obj, old) || req.DryRun {
			return &wire.Response{Object: obj}, nil
		}
		modRev, _ := strconv.ParseInt(old.GetObjectMeta().ResourceVersion, 10, 64)
		if err := s.persist(ctx, req, res, user, obj, modRev); err != nil {
			return nil, err
		}
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "delete", ResourceVersion: m.ResourceVersion}.
			Msgf("%s: marked for deletion (deletionTimestamp set, grace %ds, finalizers %v)", describe(req, res), grace, m.Finalizers))
		return &wire.Response{Object: obj}, nil
	}
	if req.DryRun {
		return &wire.Response{Object: obj, Deleted: true}, nil
	}
	return s.remove(ctx, req, res, user, old)
}

// remove deletes the key from etcd, provided nobody changed the object since it was read.
func (s *Server) remove(ctx context.Context, req *wire.Request, res *api.Resource, user User, old api.Object) (*wire.Response, error) {
	m := old.GetObjectMeta()
	modRev, _ := strconv.ParseInt(m.ResourceVersion, 10, 64)
	key := etcdKey(res, m.Namespace, m.Name)
	_, rev, err := s.store.Delete(ctx, key, modRev)
	if err != nil {
		return nil, storageError(err, res, m.Name)
	}
	s.wrote(res.Name, rev)
	if s.traced(req) {
		s.record(req, res, trace.Event{Component: "etcd", Actor: user.Name, Action: "delete",
			Object: objectPath(res, m.Namespace, m.Name), ResourceVersion: strconv.FormatInt(rev, 10)}.
			Msgf("delete %s -> revision %d", key, rev))
	}
	return &wire.Response{Object: old, Deleted: true}, nil
}

func addFinalizer(m *api.ObjectMeta, f string) {
	if !m.HasFinalizer(f) {
		m.Finalizers = append(m.Finalizers, f)
	}
}

func hasNamespaceFinalizer(obj api.Object) bool {
	ns, ok := obj.(*api.Namespace)
	return ok && len(ns.Spec.Finalizers) > 0
}

// gracePeriod is how long a pod gets to stop: the request's value, else the pod's
// terminationGracePeriodSeconds (default 30 s). A pod that never reached a node has nothing to stop
// and goes at once, as do all other kinds.
func gracePeriod(obj api.Object, requested *int64) int64 {
	pod, ok := obj.(*api.Pod)
	if !ok || pod.Spec.NodeName == "" {
		return 0
	}
	if pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return 0
	}
	if requested != nil {
		return max(*requested, 0)
	}
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		return *pod.Spec.TerminationGracePeriodSeconds
	}
	return 30
}

func derefInt64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
