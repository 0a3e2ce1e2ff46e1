// kubectl.go: Kubectl, the learner's hands, bound to one user's credentials, and how it talks to the
// trace: what it sends (one line per command) and, on failure, what kubectl prints:
// `Error from server (Forbidden): pods is forbidden: ...`.
//
//	New(Config) *Kubectl
//	(*Kubectl).As(user, groups...)   another user's kubeconfig
//	(*Kubectl).Impersonating(user, groups...)   the same kubeconfig, --as user --as-group group...
//	(*Kubectl).WithToken(token, user) a kubeconfig with an arbitrary (forged, expired) token
//	(*Kubectl).Client()              the connection underneath
//	(*Kubectl).Report(err)           print a failure as kubectl does
package kubectl

import (
	"context"
	"fmt"
	"strings"
	"time"

	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/trace"
	"kubesim/wire"
)

// Config is what kubectl reads from its kubeconfig, and where it reports.
type Config struct {
	// Client is the connection of the kubeconfig's current user.
	Client *client.Client
	// User is that user's name, as the trace shows it.
	User string
	// Login returns a connection under another user's credentials: a kubeconfig with that user in it.
	// The cluster issues kubesim's credentials, so the caller supplies this.
	Login func(user string, groups ...string) *client.Client
	// Clock paces retries on conflict.
	Clock clock.Clock
	// Wait lets d of cluster time pass while kubectl waits to retry (drain after a 429): the step
	// driver's Advance, so that the cluster moves meanwhile; nil sleeps on Clock.
	Wait func(ctx context.Context, d time.Duration) error
	// Trace receives kubectl's lines.
	Trace *trace.Recorder
}

// Kubectl is kubectl bound to one identity. It holds no cache: every command reads fresh from the
// apiserver, as kubectl does.
type Kubectl struct {
	cfg    Config
	client *client.Client
	as     string // the --as flag, when kubectl acts as another user: how its lines show the command
}

// New returns kubectl for cfg's user.
func New(cfg Config) *Kubectl {
	return &Kubectl{cfg: cfg, client: cfg.Client}
}

// wait lets d pass before a retry.
func (k *Kubectl) wait(ctx context.Context, d time.Duration) error {
	if k.cfg.Wait != nil {
		return k.cfg.Wait(ctx, d)
	}
	k.cfg.Clock.Sleep(d)
	return ctx.Err()
}

// As returns kubectl running under another user's credentials (a kubeconfig with another user).
func (k *Kubectl) As(user string, groups ...string) *Kubectl {
	cfg := k.cfg
	cfg.Client, cfg.User = k.cfg.Login(user, groups...), user
	return New(cfg)
}

// Impersonating returns kubectl under the same credentials acting as user (and groups): `kubectl
// --as alice --as-group devs`. The apiserver checks that kubectl's user may impersonate them, then
// answers as if they had asked.
func (k *Kubectl) Impersonating(user string, groups ...string) *Kubectl {
	out := New(k.cfg)
	out.client = k.client.Impersonating(wire.Impersonation{User: user, Groups: groups})
	out.as = " --as " + user
	for _, g := range groups {
		out.as += " --as-group " + g
	}
	return out
}

// WithToken returns kubectl presenting an arbitrary bearer token (a forged or expired kubeconfig);
// user is only how the trace names whoever holds it.
func (k *Kubectl) WithToken(token, user string) *Kubectl {
	cfg := k.cfg
	cfg.Client, cfg.User = k.client.WithToken(token), user
	return New(cfg)
}

// Client is the underlying typed-client connection.
func (k *Kubectl) Client() *client.Client { return k.client }

// User is the name of kubectl's user, as the trace shows it.
func (k *Kubectl) User() string { return k.cfg.User }

// say records one thing kubectl does.
func (k *Kubectl) say(action, object, format string, args ...any) {
	k.cfg.Trace.Record(trace.Event{Component: "kubectl", Actor: k.cfg.User, Action: action, Object: object}.Msgf(format, args...))
}

// Report records kubectl's answer to a failed command, worded as kubectl prints it, and returns err
// (nil for nil): every command here reports its own failures; a caller composing a command of its
// own reports with this.
func (k *Kubectl) Report(err error) error {
	if err == nil {
		return nil
	}
	msg := "error: " + err.Error()
	if reason := apierrors.ReasonForError(err); reason != "" {
		msg = fmt.Sprintf("Error from server (%s): %s", reason, err.Error())
	}
	k.cfg.Trace.Record(trace.Event{Component: "kubectl", Actor: k.cfg.User, Action: "error", Code: apierrors.CodeForError(err)}.Msgf("%s", msg))
	return err
}

// objectPath is how the trace names what a command is about: "deployments/default/nginx".
func objectPath(resource, namespace, name string) string {
	parts := []string{resource}
	if namespace != "" {
		parts = append(parts, namespace)
	}
	if name != "" {
		parts = append(parts, name)
	}
	return strings.Join(parts, "/")
}

// namespaced is "namespace/name", or just the name of a cluster-scoped object.
func namespaced(namespace, name string) string {
	return strings.TrimPrefix(namespace+"/"+name, "/")
}

// unknownResource is kubectl's answer to a resource type the server does not serve.
func unknownResource(resource string) error {
	return fmt.Errorf("the server doesn't have a resource type %q", resource)
}
