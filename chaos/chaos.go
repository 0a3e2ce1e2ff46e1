// chaos.go: the chaos soak. A step-mode cluster runs a few Deployments while a seeded random hand
// injects faults (kubelets stopping and starting, partitions and heals, the kube-controller-manager
// leader killed, the kube-scheduler frozen as in a long GC pause, etcd slowed and compacted, two
// clients writing the same Deployment at once, the pod policy webhook hanging) and the invariants
// (invariants.go) are checked after every unit of work. When the faults stop, everything is healed
// and the Deployments must all become available.
// Step mode is deterministic: the same seed replays the same faults at the same instants.
package chaos

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/sim"
	"kubesim/webhooks"
)

// Config is a chaos soak's shape.
type Config struct {
	Seed        int64
	Duration    time.Duration // cluster time with faults (default 5m)
	Nodes       int           // worker nodes (default 3)
	Deployments int           // Deployments of 2 to 4 replicas each (default 3)
	Interval    time.Duration // cluster time between two faults (default 10s)
	// Converge bounds the cluster time the Deployments get to become available once the faults stop
	// (default 15m: a pod evicted from a NotReady node waits 5m for its toleration to run out).
	Converge time.Duration
	// Log, if set, receives one line per fault, as it is injected.
	Log func(string)
}

// Report is what a chaos soak did and found.
type Report struct {
	Faults     map[string]int // faults injected, by kind
	Injected   int            // faults injected in all
	Conflicts  int            // writes refused with 409 Conflict (the conflicting writers)
	Steps      int            // units of work run
	Rounds     int            // times the invariants were checked (after every unit of work)
	Checks     int            // assertions made over all the rounds
	Violations []string       // the distinct invariants broken
	Degraded   time.Duration  // cluster time during which some Deployment was not fully available
	Converged  bool           // every Deployment available after the faults stopped
	Settled    time.Duration  // cluster time from the end of the faults to convergence
}

// String is the report as the CLI prints it.
func (r Report) String() string {
	var b strings.Builder
	kinds := make([]string, 0, len(r.Faults))
	for k := range r.Faults {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Fprintf(&b, "faults injected: %d\n", r.Injected)
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-24s %d\n", k, r.Faults[k])
	}
	fmt.Fprintf(&b, "writes refused with 409 Conflict: %d\n", r.Conflicts)
	fmt.Fprintf(&b, "invariants checked: %d times (after every unit of work; %d in all), %d assertions\n", r.Rounds, r.Steps, r.Checks)
	fmt.Fprintf(&b, "  no pod bound twice; no ReplicaSet above replicas + maxSurge; no pod on a missing node; no lost Deployment\n")
	fmt.Fprintf(&b, "some Deployment not fully available for %s of cluster time\n", r.Degraded)
	if r.Converged {
		fmt.Fprintf(&b, "desired state reached: every Deployment available %s after the faults stopped\n", r.Settled)
	} else {
		fmt.Fprintf(&b, "desired state NOT reached: some Deployment is still not available\n")
	}
	fmt.Fprintf(&b, "violations: %d\n", len(r.Violations))
	for _, v := range r.Violations {
		fmt.Fprintf(&b, "  %s\n", v)
	}
	return b.String()
}

// soak is one chaos soak in progress.
type soak struct {
	cfg    Config
	c      *sim.Cluster
	rnd    *rand.Rand
	report *Report
	inv    *Invariants

	stopped     []string // kubelets stopped, by component name
	partitioned []string // agents cut off
	frozen      []string // schedulers frozen (Stop)
	managers    []string // live kube-controller-manager replicas
	schedulers  []string // live kube-scheduler replicas
	replicas    int      // replicas started so far, to name the next one
	slow        bool
	hung        bool // the policy webhook hangs
	deployments []string
}

// Run runs a chaos soak and reports what it injected and checked. The error is a failure to run
// (a component failing, the cluster not starting); broken invariants are in the report.
func Run(ctx context.Context, cfg Config) (Report, error) {
	cfg = cfg.withDefaults()
	report := Report{Faults: map[string]int{}}
	cc := sim.FullCluster(cfg.Nodes)
	cc.Seed = cfg.Seed
	c, err := sim.New(ctx, cc)
	if err != nil {
		return report, err
	}
	defer c.Close()
	ch := &soak{cfg: cfg, c: c, rnd: rand.New(rand.NewSource(cfg.Seed)), report: &report,
		managers: []string{"kube-controller-manager"}, schedulers: []string{"kube-scheduler"}}
	if err := ch.addControllerManager(ctx); err != nil {
		return report, err
	}
	if err := ch.installWebhook(ctx); err != nil {
		return report, err
	}

	inv := NewInvariants(c)
	ch.inv = inv
	var checkErr error
	available, last := DeploymentsAvailable(), c.Now()
	c.Driver.AfterStep = func() {
		if checkErr != nil {
			return
		}
		report.Rounds++
		if checkErr = inv.Check(ctx); checkErr != nil || len(ch.deployments) < cfg.Deployments {
			return
		}
		ok, err := available.Met(ctx, c)
		if !ok {
			report.Degraded += c.Now().Sub(last)
		}
		last, checkErr = c.Now(), err
	}
	defer func() { c.Driver.AfterStep = nil }()

	for i := 1; i <= cfg.Deployments; i++ {
		name := fmt.Sprintf("app-%d", i)
		if _, err := c.Kubectl.Apply(ctx, []byte(DeploymentManifest(name, 2+ch.rnd.Intn(3)))); err != nil {
			return report, err
		}
		inv.ExpectDeployment("default", name)
		ch.deployments = append(ch.deployments, name)
	}
	if ok, err := c.Wait(ctx, DeploymentsAvailable(), 5*time.Minute, 0); err != nil || !ok {
		return report, fmt.Errorf("the deployments did not become available before the faults (%v)", err)
	}
	report.Degraded = 0 // the first rollout is not the faults' doing

	end := c.Now().Add(cfg.Duration)
	for c.Now().Before(end) && checkErr == nil {
		if err := ch.inject(ctx); err != nil {
			return report, err
		}
		if err := c.Driver.Advance(ctx, cfg.Interval); err != nil {
			return report, err
		}
	}
	if err := ch.healAll(ctx); err != nil {
		return report, err
	}
	faultsEnded := c.Now()
	report.Converged, err = c.Wait(ctx, DeploymentsAvailable(), cfg.Converge, 0)
	if err != nil {
		return report, err
	}
	report.Settled = c.Now().Sub(faultsEnded)
	if checkErr == nil {
		report.Rounds++
		checkErr = inv.Check(ctx)
	}
	report.Steps, report.Checks, report.Violations = c.Driver.Steps(), inv.Checks, inv.Violations
	return report, checkErr
}

func (cfg Config) withDefaults() Config {
	if cfg.Duration <= 0 {
		cfg.Duration = 5 * time.Minute
	}
	if cfg.Nodes <= 0 {
		cfg.Nodes = 3
	}
	if cfg.Deployments <= 0 {
		cfg.Deployments = 3
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.Converge <= 0 {
		cfg.Converge = 15 * time.Minute
	}
	return cfg
}

// DeploymentManifest is the soak's Deployment: replicas nginx pods labelled app=name, the Deployment
// named name. The durability test (sim) writes the same kind of Deployment between its kills.
func DeploymentManifest(name string, replicas int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
spec:
  replicas: %[2]d
  selector:
    matchLabels:
      app: %[1]s
  template:
    metadata:
      labels:
        app: %[1]s
    spec:
      containers:
      - name: app
        image: nginx:1.25
`, name, replicas)
}

func (ch *soak) note(kind, format string, args ...any) {
	ch.report.Faults[kind]++
	ch.report.Injected++
	if ch.cfg.Log != nil {
		ch.cfg.Log(fmt.Sprintf("%8s  %-24s %s", ch.c.Now().Sub(sim.Epoch).Round(time.Second), kind, fmt.Sprintf(format, args...)))
	}
}

// pick removes and returns a random element of *list.
func (ch *soak) pick(list *[]string) string {
	i := ch.rnd.Intn(len(*list))
	v := (*list)[i]
	*list = slices.Delete(*list, i, i+1)
	return v
}

// inject chooses one fault among those that apply now and injects it.
func (ch *soak) inject(ctx context.Context) error {
	c := ch.c
	var running []string
	for _, n := range c.NodeNames() {
		if name := "kubelet/" + n; !slices.Contains(ch.stopped, name) {
			running = append(running, name)
		}
	}
	type fault struct {
		kind string
		do   func() error
	}
	var faults []fault
	if len(running) > 1 {
		faults = append(faults, fault{"kubelet-stop", func() error {
			name := running[ch.rnd.Intn(len(running))]
			ch.stopped = append(ch.stopped, name)
			ch.note("kubelet-stop", "%s stops", name)
			return c.Stop(name)
		}})
	}
	if len(ch.stopped) > 0 {
		faults = append(faults, fault{"kubelet-start", func() error {
			name := ch.pick(&ch.stopped)
			ch.note("kubelet-start", "%s starts again", name)
			return c.Start(name)
		}})
	}
	var reachable []string
	for _, agent := range slices.Concat(running, ch.managers, ch.schedulers) {
		if !slices.Contains(ch.partitioned, agent) {
			reachable = append(reachable, agent)
		}
	}
	if len(reachable) > 0 {
		faults = append(faults, fault{"partition", func() error {
			agent := reachable[ch.rnd.Intn(len(reachable))]
			ch.partitioned = append(ch.partitioned, agent)
			ch.note("partition", "%s is cut off from kube-apiserver", agent)
			c.Partition(agent)
			return nil
		}})
	}
	if len(ch.partitioned) > 0 {
		faults = append(faults, fault{"heal", func() error {
			agent := ch.pick(&ch.partitioned)
			ch.note("heal", "%s reaches kube-apiserver again", agent)
			c.Heal(agent)
			return nil
		}})
	}
	faults = append(faults,
		fault{"kill-controller-manager", func() error { return ch.killControllerManager(ctx) }},
		fault{"compact", func() error {
			ch.note("compact", "etcd's history is compacted")
			return c.CompactEtcd(ctx)
		}},
		fault{"conflicting-writes", func() error { return ch.conflictingWrites(ctx) }},
		fault{"webhook-hang", func() error {
			ch.hung = !ch.hung
			if ch.hung {
				ch.note("webhook-hang", "the pod policy webhook hangs: pod creates wait %ds and fail", chaosWebhookTimeout)
				c.WebhookFault(chaosWebhook, webhooks.Hang)
				return nil
			}
			ch.note("webhook-hang", "the pod policy webhook answers again")
			c.WebhookFault(chaosWebhook, webhooks.Healthy)
			return nil
		}},
		fault{"slow-etcd", func() error {
			if ch.slow {
				ch.slow = false
				ch.note("slow-etcd", "etcd writes are fast again")
				c.SlowEtcd(0)
				return nil
			}
			d := time.Duration(50+ch.rnd.Intn(450)) * time.Millisecond
			ch.slow = true
			ch.note("slow-etcd", "every etcd write waits %s", d)
			c.SlowEtcd(d)
			return nil
		}},
	)
	if len(ch.schedulers) > 0 {
		faults = append(faults, fault{"freeze-scheduler", func() error {
			name := ch.schedulers[0]
			if i := slices.Index(ch.frozen, name); i >= 0 {
				ch.frozen = slices.Delete(ch.frozen, i, i+1)
				ch.note("freeze-scheduler", "%s runs again", name)
				return c.Start(name)
			}
			ch.frozen = append(ch.frozen, name)
			ch.note("freeze-scheduler", "%s is frozen (a long GC pause)", name)
			return c.Stop(name)
		}})
	}
	f := faults[ch.rnd.Intn(len(faults))]
	return f.do()
}

// addControllerManager starts one more kube-controller-manager replica, a standby while another leads.
func (ch *soak) addControllerManager(ctx context.Context) error {
	ch.replicas++
	name := fmt.Sprintf("kube-controller-manager-%d", ch.replicas+1)
	if _, err := ch.c.StartControllerManager(ctx, name); err != nil {
		return err
	}
	ch.managers = append(ch.managers, name)
	return nil
}

// killControllerManager kills the replica that leads (or, if none leads now, any) and starts a new
// standby, so that two replicas always run.
func (ch *soak) killControllerManager(ctx context.Context) error {
	victim := ch.managers[0]
	for _, name := range ch.managers {
		if cm, ok := ch.c.ControllerManager(name); ok && cm.Elector.IsLeader() {
			victim = name
		}
	}
	ch.managers = slices.DeleteFunc(ch.managers, func(s string) bool { return s == victim })
	ch.note("kill-controller-manager", "%s is killed; a new standby starts", victim)
	if err := ch.c.KillControllerManager(victim); err != nil {
		return err
	}
	return ch.addControllerManager(ctx)
}

// chaosWebhook is the pod policy webhook the soak installs (every pod needs an app label), and
// chaosWebhookTimeout its timeoutSeconds: a hang makes every pod create wait that long and fail
// (failurePolicy Fail).
const (
	chaosWebhook        = "default/pod-policy"
	chaosWebhookTimeout = 5
)

func (ch *soak) installWebhook(ctx context.Context) error {
	ch.c.ServeWebhook(chaosWebhook, webhooks.RequireLabel("app"))
	namespace, name, _ := strings.Cut(chaosWebhook, "/")
	_, err := ch.c.Kubectl.Create(ctx, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: name},
		Webhooks: []api.Webhook{{Name: "pod-policy.example.com",
			ClientConfig: api.WebhookClientConfig{Service: &api.ServiceReference{Namespace: namespace, Name: name}},
			Rules: []api.RuleWithOperations{{Operations: []api.OperationType{api.OperationCreate},
				APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}}},
			FailurePolicy: api.Ptr(api.FailurePolicyFail), TimeoutSeconds: api.Ptr(int32(chaosWebhookTimeout)),
			SideEffects: api.Ptr(api.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"}}}})
	return err
}

// conflictingWrites has two clients read the same Deployment and both write it back: the second
// write carries a stale resourceVersion and must be refused with 409 Conflict.
func (ch *soak) conflictingWrites(ctx context.Context) error {
	name := ch.deployments[ch.rnd.Intn(len(ch.deployments))]
	first := client.For[api.Deployment](ch.c.Client("kubernetes-admin", "kubectl", apiserver.GroupMasters))
	second := client.For[api.Deployment](ch.c.Client("chaos-writer", "chaos-writer", apiserver.GroupMasters))
	a, err := first.Get(ctx, "default", name)
	if err != nil {
		return err
	}
	b, err := second.Get(ctx, "default", name)
	if err != nil {
		return err
	}
	for i, d := range []*api.Deployment{a, b} {
		if d.Annotations == nil {
			d.Annotations = map[string]string{}
		}
		// A value never written before: an update that changes nothing is a no-op that keeps the
		// resourceVersion, and the second write would rightly succeed.
		d.Annotations["chaos.kubesim.io/write"] = fmt.Sprintf("%d-%d", ch.report.Injected, i+1)
	}
	ch.note("conflicting-writes", "two clients write deployment %s from the same resourceVersion %s", name, a.ResourceVersion)
	if _, err := first.Update(ctx, a); err != nil {
		return err
	}
	_, err = second.Update(ctx, b)
	switch {
	case apierrors.IsConflict(err):
		ch.report.Conflicts++
		return nil
	case err == nil:
		ch.inv.violate("deployment %s: a write from a stale resourceVersion %s was accepted", name, b.ResourceVersion)
		return nil
	}
	return err
}

// healAll ends every fault still in force: kubelets start, partitions heal, the scheduler runs,
// etcd is fast, the webhook answers.
func (ch *soak) healAll(ctx context.Context) error {
	c := ch.c
	for _, name := range ch.stopped {
		if err := c.Start(name); err != nil {
			return err
		}
	}
	for _, name := range ch.frozen {
		if err := c.Start(name); err != nil {
			return err
		}
	}
	for _, agent := range ch.partitioned {
		c.Heal(agent)
	}
	ch.stopped, ch.frozen, ch.partitioned = nil, nil, nil
	c.SlowEtcd(0)
	if ch.hung {
		ch.hung = false
		c.WebhookFault(chaosWebhook, webhooks.Healthy)
	}
	return c.CatchUp(ctx)
}
