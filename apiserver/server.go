// server.go: the Server and its one request path. Every call, from kubectl or from a component, runs
// the same gates in the same order; each gate records its decision in the trace:
//
//	authenticate (401) -> authorize (403) -> mutating admission -> validate (422)
//	  -> validating admission (403) -> persist to etcd (409, 404)
//
// Reads (get, list, watch) stop after authorize: admission and validation only concern writes.
package apiserver

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/trace"
	"kubesim/wire"
)

// Config assembles a Server.
type Config struct {
	Store *store.Store
	Clock clock.Clock
	Trace *trace.Recorder // nil: untraced
	// Seed makes generated names (generateName suffixes) and UIDs reproducible; step mode relies on it.
	Seed int64
	// WatchWindow is how many events per resource the watch cache keeps (0 = default).
	WatchWindow int
	// BookmarkInterval is how often watchers that allow bookmarks get one (0 = every minute, as
	// kube-apiserver sends them before a watch's timeout).
	BookmarkInterval time.Duration
	// EventTTL is how long etcd keeps an Event after its last write (0 = one hour, kube-apiserver's
	// --event-ttl).
	EventTTL time.Duration
	// CompactionInterval is how often the apiserver compacts etcd's history, up to the revision it
	// read one interval before (0 = every 5 minutes, kube-apiserver's --etcd-compaction-interval;
	// negative: never).
	CompactionInterval time.Duration
	// ValidatingAdmission are extra validating admission plugins, run after the built-in ones and
	// before the webhooks (admission_plugins.go).
	ValidatingAdmission []ValidatingAdmission
	// RootCA is the cluster's CA certificate (PEM): bootstrap.go puts it into the system namespaces
	// as kube-root-ca.crt (nil: it does not).
	RootCA []byte
}

// Server is kube-apiserver in miniature.
type Server struct {
	store *store.Store
	clock clock.Clock
	trace *trace.Recorder
	cache *watchCache
	authn *tokenAuthenticator

	mutating   []mutatingPlugin
	validating []validatingPlugin
	webhooks   webhookState     // the backend admission webhooks are called through (webhook.go)
	services   serviceAllocator // cluster IPs and node ports (servicealloc.go)

	// randMu guards rnd, the seeded source of names, UIDs and Service IPs and ports, and tokenRnd,
	// that of the names of the kube-api-access volumes: a stream of its own, so that giving every pod
	// its token volume did not move the names and UIDs every story shows.
	randMu   sync.Mutex
	rnd      *rand.Rand
	tokenRnd *rand.Rand

	bookmarkEvery time.Duration
	eventTTL      time.Duration
	rootCA        []byte        // Config.RootCA
	compactEvery  time.Duration // <= 0: never
	metrics       metrics
	// lastWrite is, per resource name, the highest etcd revision this apiserver wrote. Decisions read
	// from the watch cache (RBAC, namespace lifecycle, service accounts) first wait until the cache
	// has caught up with it, so that a RoleBinding takes effect for the very next request.
	lastWrite map[string]*atomic.Int64

	// beforeWrite, when a test sets it, runs just before each write reaches etcd: where another
	// writer can come in between a read and its compare-and-swap.
	beforeWrite func(key string)
}

// New builds a Server. Call Start before sending requests.
func New(cfg Config) *Server {
	window := cfg.WatchWindow
	if window <= 0 {
		window = defaultWindow
	}
	every := cfg.BookmarkInterval
	if every <= 0 {
		every = time.Minute
	}
	eventTTL := cfg.EventTTL
	if eventTTL <= 0 {
		eventTTL = defaultEventTTL
	}
	compactEvery := cfg.CompactionInterval
	if compactEvery == 0 {
		compactEvery = defaultCompactionInterval
	}
	s := &Server{
		store:         cfg.Store,
		clock:         cfg.Clock,
		trace:         cfg.Trace,
		cache:         newWatchCache(window),
		authn:         &tokenAuthenticator{tokens: map[string]Credential{}},
		rnd:           rand.New(rand.NewSource(cfg.Seed)),
		tokenRnd:      rand.New(rand.NewSource(cfg.Seed ^ 0x6b7562652d617069)), // "kube-api"
		bookmarkEvery: every,
		eventTTL:      eventTTL,
		rootCA:        cfg.RootCA,
		compactEvery:  compactEvery,
		lastWrite:     map[string]*atomic.Int64{},
	}
	for _, r := range api.Resources() {
		s.lastWrite[r.Name] = new(atomic.Int64)
	}
	s.mutating = []mutatingPlugin{defaulting{}, namespaceLifecycle{s}, serviceAccountAdmission{s}, defaultTolerationSeconds{}, priorityAdmission{s}, mutatingWebhooks{s}}
	s.validating = []validatingPlugin{nodeRestriction{s}, resourceQuotaAdmission{s}}
	for _, p := range cfg.ValidatingAdmission {
		s.validating = append(s.validating, externalValidating{p})
	}
	s.validating = append(s.validating, validatingWebhooks{s})
	return s
}

// Start fills the watch cache from etcd, follows etcd's watch, and creates the bootstrap objects
// (system namespaces, RBAC roles and bindings for each component) that a fresh cluster needs.
func (s *Server) Start(ctx context.Context) error {
	if err := s.cache.start(ctx, s.store); err != nil {
		return fmt.Errorf("starting watch cache: %w", err)
	}
	s.scheduleBookmarks(ctx)
	if s.compactEvery > 0 {
		s.scheduleCompaction(ctx, s.compactEvery)
	}
	return s.bootstrap(ctx)
}

func (s *Server) scheduleBookmarks(ctx context.Context) {
	var t clock.Timer
	t = s.clock.AfterFunc(s.bookmarkEvery, func() {
		if ctx.Err() != nil {
			return
		}
		s.cache.bookmark()
		t.Reset(s.bookmarkEvery)
	})
	context.AfterFunc(ctx, func() { t.Stop() })
}

// Do runs one request through the pipeline under the identity its Token proves.
func (s *Server) Do(ctx context.Context, req *wire.Request) (*wire.Response, error) {
	start := s.clock.Now()
	resp, res, err := s.do(ctx, req)
	s.metrics.observe(req, res, err, s.clock.Since(start))
	return resp, err
}

func (s *Server) do(ctx context.Context, req *wire.Request) (*wire.Response, *api.Resource, error) {
	res, ok := api.ResourceFor(req.Resource)
	if !ok {
		return nil, nil, apierrors.NewNotFound(req.Resource, "")
	}
	if req.Subresource != "" && !res.HasSubresource(req.Subresource) {
		return nil, res, apierrors.NewNotFound(res.GroupResource()+"/"+req.Subresource, req.Name)
	}
	if !res.Namespaced {
		req.Namespace = ""
	}

	// Gate 1: authenticate.
	user, why := s.authn.authenticate(req.Token, s.clock.Now())
	if why != "" {
		s.record(req, res, trace.Event{Component: "kube-apiserver", Action: "authenticate", Code: 401}.
			Msgf("%s: %s -> 401 Unauthorized", describe(req, res), why))
		return nil, res, apierrors.NewUnauthorized()
	}
	if s.trace != nil {
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "authenticate", Detail: true}.
			Msgf("bearer token -> %s", user))
	}

	// Gate 2: authorize (first whether the user may act as the one it asks to be, if it asks).
	if err := s.fresh(ctx, "clusterrolebindings", "clusterroles", "rolebindings", "roles"); err != nil {
		return nil, res, deadlineError(fmt.Errorf("waiting for the authorization cache: %w", err))
	}
	if req.Impersonate != nil {
		var err error
		if user, err = s.impersonate(req, res, user); err != nil {
			return nil, res, err
		}
	}
	attrs := newAttributes(user, req, res)
	attrs.quiet = !s.traced(req)
	if user.InGroup(GroupNodes) && attrs.nodeAuthorizerReadsPods() {
		if err := s.fresh(ctx, "pods"); err != nil {
			return nil, res, deadlineError(fmt.Errorf("waiting for the node authorizer's cache: %w", err))
		}
	}
	if allowed, why := s.authorize(attrs); !allowed {
		err := forbidden(attrs, why)
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "authorize", Code: 403}.
			Msgf("%s -> 403 %s", describe(req, res), err.Error()))
		return nil, res, err
	} else if s.trace != nil {
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "authorize", Detail: true}.
			Msgf("%s: %s", describe(req, res), why))
	}

	var (
		resp *wire.Response
		err  error
	)
	verb := req.Verb
	if (res.Name == selfSubjectAccessReviews || res.Name == selfSubjectRulesReviews || res.Name == selfSubjectReviews) && verb != wire.VerbCreate {
		verb = "" // a review is only ever created: MethodNotSupported below
	}
	if verb != wire.VerbWatch {
		// kube-apiserver ends every request that is not long-running after --request-timeout (1
		// minute): a read that waits for an etcd without a quorum gets a 504, never hangs. A write's
		// handler bounds itself tighter, from its start: writeTimeout. The write's deadline is the
		// earlier one, so it is the only one a write needs (one timer a request, not two).
		timeout := requestTimeout
		switch verb {
		case wire.VerbCreate, wire.VerbUpdate, wire.VerbPatch, wire.VerbDelete:
			timeout = writeTimeout
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	switch verb {
	case wire.VerbGet:
		resp, err = s.get(ctx, req, res)
	case wire.VerbList:
		resp, err = s.list(ctx, req, res)
	case wire.VerbWatch:
		resp, err = s.watch(ctx, req, res)
	case wire.VerbCreate:
		resp, err = s.create(ctx, req, res, user)
	case wire.VerbUpdate, wire.VerbPatch: // a patch arrives already applied: see update
		resp, err = s.update(ctx, req, res, user)
	case wire.VerbDelete:
		resp, err = s.delete(ctx, req, res, user)
	default:
		err = apierrors.NewMethodNotSupported(res.GroupResource(), req.Verb)
	}
	if err != nil {
		var told recorded
		if errors.As(err, &told) {
			return nil, res, told.error // its gate already told the trace
		}
		code := apierrors.CodeForError(err)
		if code == 0 {
			err = apierrors.NewInternalError(err)
			code = 500
		}
		if req.Verb != wire.VerbGet || code != 404 { // a get that finds nothing is routine, not a story
			// Two recorders naming an event after the same instant is routine too: the recorder
			// takes the next name (see client/record.go).
			routine := res.Name == "events" && code == 409
			s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: req.Verb, Code: code, Detail: routine}.
				Msgf("%s -> %d %s", describe(req, res), code, err.Error()))
		}
	}
	return resp, res, err
}

// traced says whether record keeps what it is told about req: a gate that has words to build for
// the trace builds them only then.
func (s *Server) traced(req *wire.Request) bool { return s.trace.Enabled() && !req.Quiet }

// record adds a trace event about req, filling in the object when the caller did not.
func (s *Server) record(req *wire.Request, res *api.Resource, e trace.Event) {
	if !s.traced(req) {
		return
	}
	if e.Object == "" {
		e.Object = objectPath(res, req.Namespace, req.Name)
	}
	s.trace.Record(e)
}

// wrote notes that this apiserver wrote resource at revision rev.
func (s *Server) wrote(resource string, rev int64) {
	w := s.lastWrite[resource]
	for {
		cur := w.Load()
		if rev <= cur || w.CompareAndSwap(cur, rev) {
			return
		}
	}
}

// fresh waits until the watch cache holds every write this apiserver made to the named resources:
// read-your-writes for the decisions it takes from its cache.
func (s *Server) fresh(ctx context.Context, resources ...string) error {
	var want int64
	for _, r := range resources {
		want = max(want, s.lastWrite[r].Load())
	}
	return s.cache.waitFor(ctx, want)
}

// Revision is how far the watch cache has read etcd. The step driver compares it with etcd's current
// revision to know that every watcher has been handed every change.
func (s *Server) Revision() int64 { return s.cache.revision() }

// WaitForRevision blocks until the watch cache has read etcd up to rev.
func (s *Server) WaitForRevision(ctx context.Context, rev int64) error {
	return s.cache.waitFor(ctx, rev)
}

// Compact compacts etcd up to rev and drops the watch cache's history before it, so that a watch
// resuming from an older resourceVersion gets 410 Gone and its informer relists.
func (s *Server) Compact(ctx context.Context, rev int64) error {
	if err := s.store.Compact(ctx, rev); err != nil {
		return err
	}
	s.cache.compacted(rev)
	if s.trace != nil {
		s.trace.Record(trace.Event{Component: "etcd", Action: "compact"}.
			Msgf("compacted history up to revision %d: older resourceVersions are gone", rev))
	}
	return nil
}

// Bookmark sends a bookmark to every watcher that allows them now (it also happens on a timer).
func (s *Server) Bookmark() { s.cache.bookmark() }
