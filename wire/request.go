// request.go: what a caller sends the apiserver and what it gets back. This is the in-process form of a
// REST call: `GET /api/v1/namespaces/default/pods?labelSelector=app=nginx` becomes
// Request{Verb: "list", Resource: "pods", Namespace: "default", LabelSelector: "app=nginx"}. The HTTP
// front translates URLs into exactly these requests, so both paths share one pipeline.
package wire

import "kubesim/api"

// The verbs RBAC knows, as Kubernetes names them.
const (
	VerbGet              = "get"
	VerbList             = "list"
	VerbWatch            = "watch"
	VerbCreate           = "create"
	VerbUpdate           = "update"
	VerbPatch            = "patch"
	VerbDelete           = "delete"
	VerbDeleteCollection = "deletecollection"
)

// Deletion propagation policies (metav1.DeletionPropagation).
const (
	PropagationBackground = "Background"
	PropagationForeground = "Foreground"
	PropagationOrphan     = "Orphan"
)

// Request is one API call.
type Request struct {
	// Token is the bearer credential; the authenticate gate turns it into a user.
	Token string
	// Agent names the calling program in the trace ("kubectl", "kube-scheduler", "kubelet/node-2"),
	// as the User-Agent header does on the wire.
	Agent string
	// Impersonate asks to act as someone else (kubectl --as and --as-group; the Impersonate-User,
	// Impersonate-Group, Impersonate-Uid and Impersonate-Extra-* headers): the user the token proves
	// must be allowed to impersonate each part, and every later gate then sees the user asked for.
	Impersonate *Impersonation

	Verb        string
	Resource    string // plural, short or qualified name: "pods", "deploy", "deployments.apps"
	Subresource string // "status", "binding", "scale", "eviction"
	Namespace   string
	Name        string

	// Body is the object sent with create and update (for subresources: the Binding, Scale or
	// Eviction, or the whole object for status).
	Body api.Object
	// HandOver gives Body to the apiserver: the caller built it for this request, nothing else refers
	// to it or to anything under it that anyone may change, and the caller will not read or change
	// it again (a status write changes nothing under Body's status, so the status's parts may stay
	// shared with the caller if nobody ever changes them, as nobody changes a kubelet's computed
	// statuses). It also takes the object in the Response as read-only: that object may share its
	// maps, slices and pointers with the one the apiserver's watch cache keeps. A create or a status
	// write then works on Body itself instead of a private copy, and a create, a status write or a
	// binding gives the object it stores to the cache instead of a copy (a controller's new pod, an
	// event, a kubelet's status, a scheduler's binding each spare two copies of the object). Without
	// it the apiserver never changes the caller's object, and the Response's object is the caller's
	// own.
	HandOver bool

	DryRun bool // validate and admit everything, persist nothing (?dryRun=All)

	// Quiet marks a request that is not part of the cluster's story (the simulator reading state to
	// check a condition): it passes every gate like any other, but leaves no trace lines.
	Quiet bool

	// list and watch
	LabelSelector       string
	FieldSelector       string
	ResourceVersion     string // list: "" = consistent, "0" = any; watch: where to start
	AllowWatchBookmarks bool
	// Limit asks a list for at most this many items (0: all), and Continue for the next chunk of a
	// list, with the token the previous chunk returned (kubectl get asks 500 at a time).
	Limit    int64
	Continue string

	// delete
	GracePeriodSeconds *int64
	PropagationPolicy  string
}

// Impersonation is who a request asks to act as.
type Impersonation struct {
	User   string // a user's name, or system:serviceaccount:<namespace>:<name>
	Groups []string
	UID    string
	Extra  map[string][]string // the user's extra attributes, by key (lower case)
}

// Response is what a successful call returns: an object (get, create, update, delete of an object that
// is now terminating), a list, or an open watch.
type Response struct {
	Object api.Object
	List   *ListResult
	Watch  Watch
	// Deleted is true when a delete removed the object from etcd (not just marked it terminating).
	Deleted bool
}

// ListResult is a list of objects consistent at ResourceVersion. A chunked list (Request.Limit) that
// goes on has a Continue token for the next chunk, and, when no selector filtered it, the number of
// items left.
type ListResult struct {
	Items              []api.Object
	ResourceVersion    string
	Continue           string
	RemainingItemCount *int64
}
