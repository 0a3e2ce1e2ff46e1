// breakpoint.go: breakpoints before actions, so a teacher can stop the class just before something
// happens and ask what comes next. A breakpoint names a component and an action:
//
//	scheduler bind                  before kube-scheduler posts a Binding (the pod has no node yet)
//	apiserver admit [RESOURCE]      before any write reaches the apiserver's gates (admission included)
//	etcd put PREFIX                 before a write whose key (/registry/pods/default/web-1) has PREFIX
//	kubelet StartContainer [NODE]   before a kubelet asks its runtime to start a container
//
// The apiserver's actions are caught on the way in: every component reaches the apiserver through its
// own transport (link), and the cluster asks it before each request is sent. The kubelet's are caught
// on its side of the CRI. Nothing in the components knows.
//
//	ParseBreakpoint(s)        a Breakpoint, or an error listing the ones there are
//	Cluster.OnBreak(bps, fn)  call fn (which pauses) before each matching action
package sim

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"kubesim/kubelet"
	"kubesim/trace"
	"kubesim/wire"
)

// Breakpoint is a place to pause before an action.
type Breakpoint struct {
	Component string // scheduler, apiserver, etcd, kubelet
	Action    string // bind, admit, put, StartContainer
	Arg       string // the resource, key prefix or node it is limited to ("" = any)
}

// breakpoints are the actions one can stop before, with what their argument means.
var breakpoints = []string{"scheduler bind", "apiserver admit [RESOURCE]", "etcd put KEY-PREFIX", "kubelet StartContainer [NODE]"}

// ParseBreakpoint reads "COMPONENT ACTION [ARG]".
func ParseBreakpoint(s string) (Breakpoint, error) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 3 {
		return Breakpoint{}, fmt.Errorf("breakpoint %q: write COMPONENT ACTION [ARG], one of: %s", s, strings.Join(breakpoints, "; "))
	}
	b := Breakpoint{Component: f[0], Action: f[1]}
	if len(f) == 3 {
		b.Arg = f[2]
	}
	switch {
	case b.Component == "scheduler" && b.Action == "bind" && b.Arg == "",
		b.Component == "apiserver" && b.Action == "admit",
		b.Component == "etcd" && b.Action == "put" && strings.HasPrefix(b.Arg, "/registry"),
		b.Component == "kubelet" && b.Action == "StartContainer":
		return b, nil
	}
	return Breakpoint{}, fmt.Errorf("breakpoint %q: no such action; there are: %s", s, strings.Join(breakpoints, "; "))
}

func (b Breakpoint) String() string {
	return strings.TrimSpace(b.Component + " " + b.Action + " " + b.Arg)
}

// write reports whether a request changes state (and so passes admission and reaches etcd).
func write(req *wire.Request) bool {
	switch req.Verb {
	case wire.VerbCreate, wire.VerbUpdate, wire.VerbPatch, wire.VerbDelete:
		return !req.DryRun
	}
	return false
}

// matchRequest reports whether the request agent is about to send is the action b stops before.
func (b Breakpoint) matchRequest(req *wire.Request) bool {
	if req.Quiet || !write(req) {
		return false
	}
	switch b.Component + " " + b.Action {
	case "scheduler bind":
		return strings.HasSuffix(strings.SplitN(req.Agent, "/", 2)[0], "scheduler") && req.Subresource == "binding"
	case "apiserver admit":
		return b.Arg == "" || strings.HasPrefix(req.Resource, b.Arg)
	case "etcd put":
		key := "/registry/" + strings.SplitN(req.Resource, ".", 2)[0] + "/"
		if req.Namespace != "" {
			key += req.Namespace + "/"
		}
		key += req.Name
		return strings.HasPrefix(key, b.Arg) || req.Name == "" && strings.HasPrefix(b.Arg, key)
	}
	return false
}

// describeRequest says what the request is about to do, for the line that announces the pause.
func describeRequest(req *wire.Request) string {
	what := req.Resource
	if req.Subresource != "" {
		what += "/" + req.Subresource
	}
	obj := req.Name
	if req.Namespace != "" {
		obj = req.Namespace + "/" + req.Name
	}
	return fmt.Sprintf("%s is about to %s %s %s", req.Agent, req.Verb, what, obj)
}

// breaker is what the cluster's transports and runtimes ask before an action.
type breaker struct {
	points []Breakpoint
	pause  func(why string)
	// busy is set while a pause runs: the prompt's own reads, and anything they cause, never stop.
	busy atomic.Bool
}

// OnBreak makes the cluster call pause before every action a breakpoint names, with a line that says
// what is about to happen. Only one pause runs at a time.
func (c *Cluster) OnBreak(points []Breakpoint, pause func(why string)) {
	c.breaker.Store(&breaker{points: points, pause: pause})
}

// beforeRequest is the transports' hook: it pauses before a request a breakpoint names.
func (c *Cluster) beforeRequest(_ context.Context, req *wire.Request) {
	b := c.breaker.Load()
	if b == nil {
		return
	}
	for _, p := range b.points {
		if p.matchRequest(req) {
			b.stop(fmt.Sprintf("%s: %s", p, describeRequest(req)))
			return
		}
	}
}

// beforeStartContainer is the kubelets' hook, on their side of the CRI.
func (c *Cluster) beforeStartContainer(node, containerID string) {
	b := c.breaker.Load()
	if b == nil {
		return
	}
	for _, p := range b.points {
		if p.Component == "kubelet" && p.Action == "StartContainer" && (p.Arg == "" || p.Arg == node) {
			b.stop(fmt.Sprintf("%s: kubelet/%s is about to StartContainer %s", p, node, containerID))
			return
		}
	}
}

func (b *breaker) stop(why string) {
	if !b.busy.CompareAndSwap(false, true) {
		return
	}
	defer b.busy.Store(false)
	b.pause(why)
}

// breakingRuntime is a node's runtime as its kubelet sees it, with the kubelet breakpoints on the
// kubelet's side of the CRI.
type breakingRuntime struct {
	kubelet.Runtime
	c    *Cluster
	node string
}

func (r breakingRuntime) StartContainer(ctx context.Context, containerID string) error {
	r.c.beforeStartContainer(r.node, containerID)
	return r.Runtime.StartContainer(ctx, containerID)
}

// zhPause translates the lines of a paused run: the breakpoint's, and the CLI's prompt (which
// narrates through the same catalogue).
var zhPause = trace.Catalog{
	"breakpoint %s":     "断点 %s",
	"stopped before %s": "在动作之前停下：%s",
	// the prompt (cmd/kubesim/prompt.go)
	"(kubesim) next, continue, section, until COND, get, describe, etcd get, queue, cache, help, q > ": "(kubesim) next 下一步，continue 继续，section 下一节，until 条件，get，describe，etcd get，queue，cache 缓存，help 帮助，q 退出 > ",
	"%s holds.": "%s 已成立。",
	"next takes a number of steps, 1 or more: next 5": "next 后面跟步数，至少 1：next 5",
	"At the prompt:":                                                 "提示符下可用的命令：",
	"next [N]: run one step (Enter), or N":                           "next [N]：运行一步（回车），或 N 步",
	"continue: run to the next breakpoint, or the end":               "continue：运行到下一个断点，或到结束",
	"until COND: run until a condition holds, e.g. until pods bound": "until 条件：一直运行到条件成立，例如 until pods bound",
	"section: run to the next heading of the story":                  "section：运行到故事的下一个标题",
	"stop the run": "停止运行",
	"unknown command %q: help lists the commands": "未知命令 %q：help 列出所有命令",
}
