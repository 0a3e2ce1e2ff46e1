// cluster.go: one call builds a whole cluster. New reads as the boot sequence of a real control plane
// (kubeadm init, in miniature): a clock, etcd, the apiserver, credentials for each component, then the
// components themselves, each talking to the apiserver under its own identity.
package sim

import (
	"context"
	"crypto"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/dns"
	"kubesim/kubectl"
	"kubesim/kubelet"
	"kubesim/scheduler/framework"
	"kubesim/store"
	"kubesim/trace"
)

// Mode is how time passes.
type Mode int

const (
	// StepMode runs one unit of work at a time on a virtual clock: same scenario, same trace, every run.
	StepMode Mode = iota
	// RealTime runs every component concurrently on the wall clock (optionally sped up).
	RealTime
)

// Epoch is the virtual clock's start in step mode: a fixed instant, so timestamps are reproducible.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// GCPercent is the garbage collector setting kubesim runs with (the kubesim binary sets it at start,
// the benchmarks while they run): Go's default, which lets the heap grow to twice what is live between
// collections. 400 (collecting a fourth as often) cost 4-8% less CPU in the envelope but more than
// doubled its peak memory (BENCHMARKS.md, "memory per pod"); GOMEMLIMIT still caps a large cluster.
const GCPercent = 100

// Config describes the cluster to build.
type Config struct {
	Mode  Mode
	Speed float64 // real-time mode: 60 makes a minute pass in a second
	Seed  int64   // every random choice (names, UIDs, tie-breaks) comes from this seed
	Nodes int     // worker nodes to start: DefaultNodes(Nodes), unless NodeSpecs says otherwise
	// NodeSpecs shapes each node (capacity, labels, taints, zone, architecture).
	NodeSpecs []NodeSpec

	// ControllerManager starts one kube-controller-manager (Deployment, ReplicaSet, DaemonSet,
	// ServiceAccount, Namespace, garbage collector, node lifecycle, pod GC) behind leader election.
	ControllerManager bool
	// Scheduler starts kube-scheduler with the default profile.
	Scheduler bool
	// ClusterCIDR and NodeCIDRMaskSize are kube-controller-manager's --cluster-cidr (default
	// 10.244.0.0/16 up to 256 nodes, WideClusterCIDR beyond) and --node-cidr-mask-size (default 24):
	// each node's podCIDR is one such range, so a /16 holds 256 nodes and a /9 holds 32768.
	ClusterCIDR      string
	NodeCIDRMaskSize int
	// RootCA is the cluster's CA certificate (PEM), which kube-controller-manager publishes as the
	// ConfigMap kube-root-ca.crt in every namespace, and RootCAKey its key, which signs each kubelet's
	// client certificate; nil: one made from Seed (pki.go).
	RootCA    []byte
	RootCAKey crypto.Signer
	// SchedulerPlugins are out-of-tree plugins for the kube-scheduler Scheduler starts (a learner's
	// Filter or Score plugin); SchedulerProfiles, if set, replace its default profile, typically to
	// enable them: plugins.DefaultProfile("") with a PluginRef appended.
	SchedulerPlugins  framework.Registry
	SchedulerProfiles []framework.Profile
	// ValidatingAdmission are extra validating admission plugins for the apiserver (a learner's).
	ValidatingAdmission []apiserver.ValidatingAdmission
	// CrashLoopBackOff, if set, is every kubelet's restart delay policy for crashed containers (a
	// learner's; nil: Kubernetes' 10s doubling up to 5m).
	CrashLoopBackOff kubelet.BackOffPolicy
	// ProbeThreshold, if set, is every kubelet's rule for when a probe's result changes (a learner's;
	// nil: kubelet.DefaultProbeThreshold).
	ProbeThreshold kubelet.ProbeThreshold
	// Controllers, if set, replace kube-controller-manager's controllers by name ("endpoints-controller"):
	// each factory's controller takes the built-in one's place in the list, so it is asked for work
	// at the same turn, behind the same leader election. A factory that returns nil turns the
	// controller off, as kube-controller-manager's --controllers=-NAME does.
	Controllers map[string]ControllerFactory

	DataDir       string   // etcd data dir; "" = a temporary one
	EtcdEndpoints []string // use an external etcd instead of the embedded one
	// EtcdMembers runs etcd as a cluster of 1, 3 or 5 members that faults can stop, cut off and
	// slow (faults_etcd.go); 0 is one member reached in-process, the fastest.
	EtcdMembers int
	// EtcdQuotaBackendBytes is the embedded etcd's --quota-backend-bytes (0: etcd's default, 2 GiB),
	// for the in-process member.
	EtcdQuotaBackendBytes int64

	// KeepTrace keeps every trace event in memory (tests, golden files). Long real-time runs leave it
	// off and stream the trace to subscribers instead.
	KeepTrace bool
	// Observe, if set, receives every trace event from the first one on (a narrator).
	Observe func(trace.Event)
	// JournalLines, if positive, keeps each node's last kubelet lines, up to this many, for a paused
	// run's `journalctl -u kubelet` (journal.go), and as many of each control-plane component's for
	// the logs of its static pod (component_logs.go). It turns the trace on.
	JournalLines int
}

// FullCluster is a working cluster of n nodes: kube-controller-manager, kube-scheduler and a kubelet
// per node, besides etcd and the apiserver.
func FullCluster(nodes int) Config {
	return Config{Nodes: nodes, ControllerManager: true, Scheduler: true}
}

// hasControlPlaneNode reports whether one of the nodes is a control-plane node (default nodes never
// are).
func (cfg Config) hasControlPlaneNode() bool {
	return slices.ContainsFunc(cfg.NodeSpecs, func(s NodeSpec) bool { return s.ControlPlane })
}

// describe says what the cluster runs, for the header of a story.
func (cfg Config) describe() string {
	parts := []string{"etcd", "kube-apiserver"}
	if cfg.ControllerManager {
		parts = append(parts, "kube-controller-manager")
	}
	if cfg.Scheduler {
		parts = append(parts, "kube-scheduler")
	}
	if n := max(cfg.Nodes, len(cfg.NodeSpecs)); n > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", n))
	}
	return strings.Join(parts, ", ")
}

// Cluster is a running kubesim cluster.
type Cluster struct {
	Config    Config
	Clock     clock.Clock
	Store     *store.Store
	APIServer *apiserver.Server
	Trace     *trace.Recorder
	Driver    *Driver // runs (step mode) or waits on (real time) the components
	Kubectl   *kubectl.Kubectl
	DNS       *dns.Server // CoreDNS

	virtual *clock.Virtual
	ctx     context.Context // lives as long as the cluster: real-time components run under it
	cancel  context.CancelFunc

	// stopAPIServer ends the running kube-apiserver's watch cache and timers; apiserverStarts counts
	// its starts (restore.go restarts it).
	stopAPIServer   context.CancelFunc
	apiserverStarts int

	// credMu guards creds, kubeletPKI, credRand and links: the credentials the cluster has issued and
	// each component's connection to the apiserver.
	credMu sync.Mutex
	// creds: user name -> its credential, as the apiserver holds it (token, groups, validity).
	creds map[string]apiserver.Credential
	// kubeletPKI: a kubelet's user (system:node:NAME) -> its node's /var/lib/kubelet/pki (pki.go);
	// the kubelet's credential carries the validity of the last client certificate there.
	kubeletPKI map[string]*kubeletPKI
	credRand   *rand.Rand
	links      map[string]*link // agent -> its transport

	components map[string]Component  // by Name(), as added
	stopped    map[string]bool       // components stopped by the Stop fault
	nodes      map[string]*Node      // by name
	schedulers map[string]*Scheduler // by name
	// controllerManagers are the kube-controller-manager replicas, by name.
	controllerManagers map[string]*ControllerManager
	nodeOrder          []string // node names in the order they joined
	journal            *journal // each node's last kubelet lines, if Config.JournalLines asks (journal.go)
	// componentLogs: each control-plane process's last lines, kept with the journal
	// (component_logs.go); procs says which process a trace component runs in.
	componentLogs *journal
	procs         processes

	// breaker, if set, pauses before the actions its breakpoints name (breakpoint.go).
	breaker atomic.Pointer[breaker]

	// informers are the informers Add has synced: a shared one is synced, pumped or run once.
	informers map[client.InformerHandle]bool

	// eventsRead keeps the Events decoded by Events between calls (observe.go).
	eventsRead eventsRead

	// seedOffset moves the apiserver's seed off the previous run's on resumed data (olddata.go).
	seedOffset int64
	// rootCA is Config.RootCA, or the CA made from the seed (pki.go); rootCAKey is its key.
	rootCA    []byte
	rootCAKey crypto.Signer
}

// New boots a cluster.
func New(ctx context.Context, cfg Config) (*Cluster, error) {
	ctx, cancel := context.WithCancel(ctx)
	c := &Cluster{Config: cfg, ctx: ctx, cancel: cancel, creds: map[string]apiserver.Credential{},
		kubeletPKI: map[string]*kubeletPKI{}, credRand: rand.New(rand.NewSource(cfg.Seed)), links: map[string]*link{},
		components: map[string]Component{}, stopped: map[string]bool{}, nodes: map[string]*Node{},
		schedulers: map[string]*Scheduler{}, controllerManagers: map[string]*ControllerManager{}}

	// The clock everything waits on: virtual in step mode, the (maybe sped-up) wall clock otherwise.
	if cfg.Mode == StepMode {
		c.virtual = clock.NewVirtual(Epoch)
		c.Clock = c.virtual
	} else {
		c.Clock = clock.NewReal(cfg.Speed)
	}
	c.Trace = trace.NewRecorder(c.Clock, cfg.KeepTrace)
	if cfg.Observe != nil {
		c.Trace.Subscribe(cfg.Observe)
	}
	if cfg.JournalLines > 0 {
		c.journal = newJournal(cfg.JournalLines)
		c.Trace.Subscribe(c.journal.subscriber(c.Clock))
		// Only a control-plane node's pods show the components' logs (controlplane_node.go).
		if cfg.hasControlPlaneNode() {
			c.componentLogs = newUnitLog(cfg.JournalLines, c.procs.of)
			c.Trace.Subscribe(c.componentLogs.subscriber(c.Clock))
		}
	}

	c.Trace.Record(trace.Event{Component: "scenario", Action: "boot"}.Msgf("The cluster starts: %s", cfg.describe()))
	if err := c.setRootCA(); err != nil {
		cancel()
		return nil, err
	}

	// etcd: the cluster's only state. Every other component reaches it through the apiserver.
	st, err := store.Open(ctx, store.Config{DataDir: cfg.DataDir, Endpoints: cfg.EtcdEndpoints, Clock: c.Clock,
		Members: cfg.EtcdMembers, Trace: c.Trace, QuotaBackendBytes: cfg.EtcdQuotaBackendBytes})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("starting etcd: %w", err)
	}
	c.Store = st
	if err := c.resumeOldData(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("reading the data a previous run left: %w", err)
	}

	// kube-apiserver: the only component that talks to etcd; it bootstraps namespaces and RBAC.
	if err := c.startAPIServer(); err != nil {
		c.Close()
		return nil, fmt.Errorf("starting kube-apiserver: %w", err)
	}

	// The step driver, which runs the components one unit of work at a time.
	if cfg.Mode == StepMode {
		c.Driver = newDriver(c.virtual, c.APIServer, st, c.Trace)
	} else {
		c.Driver = newRealTimeDriver(c.Clock, c.APIServer, st, c.Trace)
	}

	// kubectl, as the cluster admin (group system:masters, as kubeadm's admin.conf).
	c.Kubectl = kubectl.New(kubectl.Config{Client: c.Client("kubernetes-admin", "kubectl", apiserver.GroupMasters), User: "kubernetes-admin",
		Login: func(user string, groups ...string) *client.Client { return c.Client(user, "kubectl", groups...) }, Clock: c.Clock, Trace: c.Trace,
		Wait: c.Driver.Advance})

	// kube-controller-manager: the reconcile loops that turn desired state into objects.
	if cfg.ControllerManager {
		cm, err := c.StartControllerManager(ctx, "kube-controller-manager")
		if err == nil {
			err = c.Driver.RunUntil(ctx, "kube-controller-manager holds its lease",
				func() (bool, error) { return cm.Elector.IsLeader(), nil }, 10)
		}
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("starting kube-controller-manager: %w", err)
		}
	}
	// kube-scheduler: assigns each new pod to a node (filter, score, bind).
	if cfg.Scheduler {
		if _, err := c.StartScheduler(ctx, "kube-scheduler", "kube-scheduler", cfg.SchedulerProfiles...); err != nil {
			c.Close()
			return nil, fmt.Errorf("starting kube-scheduler: %w", err)
		}
	}
	// CoreDNS: cluster DNS, answering Service names from what it watches.
	c.DNS = dns.New(dns.Options{Client: c.Client(dns.Identity, dns.Name, dns.Groups...), Clock: c.Clock, Trace: c.Trace})
	if err := c.Add(ctx, c.DNS); err != nil {
		c.Close()
		return nil, fmt.Errorf("starting CoreDNS: %w", err)
	}
	// The nodes: a kubelet, a container runtime and kube-proxy each. In step mode the cluster starts once every
	// node has registered, has its podCIDR and reports Ready.
	specs := cfg.NodeSpecs
	if len(specs) == 0 {
		specs = DefaultNodes(cfg.Nodes)
	}
	for i, spec := range specs {
		if _, err := c.StartNode(ctx, spec, i+1); err != nil {
			c.Close()
			return nil, fmt.Errorf("starting node %s: %w", spec.Name, err)
		}
	}
	if len(specs) > 0 {
		allReady := func() (bool, error) {
			if ok, err := c.nodesHavePodCIDRs(ctx); !ok || err != nil {
				return false, err
			}
			return c.NodesReady(ctx, len(specs))
		}
		if err := c.Driver.RunUntil(ctx, "every node is Ready", allReady, 0); err != nil {
			c.Close()
			return nil, err
		}
	}
	// As kubeadm init does once the control plane is up: CoreDNS and kube-proxy (addons.go).
	if cfg.hasControlPlaneNode() && cfg.ControllerManager && cfg.Scheduler {
		if err := c.installAddons(ctx, len(specs)); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// Close stops every component and etcd.
func (c *Cluster) Close() {
	c.cancel()
	if c.Store != nil {
		c.Store.Close()
	}
}

// Client returns a client for user (issuing a credential on first use), naming itself agent in the
// trace. Its connection is the agent's link, which the Partition fault can cut.
func (c *Cluster) Client(user, agent string, groups ...string) *client.Client {
	return client.New(c.link(agent), c.Token(user, groups...), agent)
}

// Token returns user's bearer token, issuing one (valid forever) on first use.
func (c *Cluster) Token(user string, groups ...string) string {
	c.credMu.Lock()
	defer c.credMu.Unlock()
	return c.issueLocked(user, groups).Token
}

// issueLocked returns user's credential, issuing one (valid forever) on first use. c.credMu must be
// held.
func (c *Cluster) issueLocked(user string, groups []string) apiserver.Credential {
	if cr, ok := c.creds[user]; ok {
		return cr
	}
	return c.putCredentialLocked(c.newCredentialLocked(user, groups))
}

// newCredentialLocked draws a new token for user, valid forever; nobody holds it yet. c.credMu must
// be held.
func (c *Cluster) newCredentialLocked(user string, groups []string) apiserver.Credential {
	return apiserver.Credential{Token: fmt.Sprintf("%016x", c.credRand.Int63()), User: apiserver.User{Name: user, Groups: groups}}
}

// putCredentialLocked records cr as its user's credential and gives it to the apiserver, replacing
// the one it had. c.credMu must be held.
func (c *Cluster) putCredentialLocked(cr apiserver.Credential) apiserver.Credential {
	c.creds[cr.User.Name] = cr
	c.APIServer.AddCredential(cr)
	return cr
}

func traceJoin(name string) trace.Event {
	return trace.Event{Component: name, Action: "start", Detail: true}.Msgf("%s started: informers synced", name)
}

// Now is the cluster's current time.
func (c *Cluster) Now() time.Time { return c.Clock.Now() }
