// node_status.go: registering the Node and reporting its status (pkg/kubelet/kubelet_node_status.go
// and pkg/kubelet/nodestatus/setters.go).
//
//	nodeStep(ctx)          one unit of node-side work: register, renew the Lease, or report status
//	registerNode(ctx)      create the Node (capacity, allocatable, labels, taints, addresses, nodeInfo)
//	updateNodeStatus(ctx)  compute the status; write it if it changed or the report is 5 minutes old
//
// The status is built by setters, as in Kubernetes: capacity and allocatable from NodeConfig,
// addresses, nodeInfo, images, and four conditions. Ready says whether the kubelet can run pods: it is
// False when the runtime has not answered for 30 seconds (runtime_state.go), the PLEG has not
// relisted for 3 minutes, or the pod network is not ready (network.go). The
// pressure conditions come from the eviction manager. Each transition records an event
// (`Node node-1 status is now: NodeReady`), and lastTransitionTime moves only on a transition.
package kubelet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// nodeSide is the node side's own state; only nodeStep and what it calls touch it.
type nodeSide struct {
	registered    bool
	registerDelay time.Duration // the next registration retry delay
	uid           string        // the Node's uid, for the Lease's owner reference
	lease         *api.Lease    // the Lease as last written
	leaseErr      string        // the renewal error being reported, "" when renewals work

	conditions []api.NodeCondition // as last computed, with their transition times
	reported   *api.NodeStatus     // as last written
	// reportedOwn: reported is a status the setters built (not the apiserver's answer to the
	// registration), so only its health-derived parts can differ from a new one (sameAsOwnReport).
	reportedOwn bool
	reportedAt  time.Time
	statusErr   string // the status write error being reported
}

// runtimeHealth is what the pod side learned about the runtime and the node's resources, for the node
// status. It is guarded by Kubelet.mu.
type runtimeHealth struct {
	checked         bool      // updateRuntimeUp has run at least once
	lastRuntimeSync time.Time // when the runtime last answered Status with RuntimeReady; zero: never
	runtimeCheckErr string    // the last Status call's error, "" when it answered
	runtimeNotReady string    // "container runtime not ready: ..." when RuntimeReady is false
	networkNotReady string    // "container runtime network not ready: ..." when NetworkReady is false
	plegLastSeen    time.Time // when a relist last completed; zero: never
	runtimeVersion  string    // "containerd://2.0.2"
	images          []api.ContainerImage
	memoryPressure  bool
	diskPressure    bool
}

func (k *Kubelet) healthSnapshot() runtimeHealth {
	k.mu.Lock()
	defer k.mu.Unlock()
	// The images are shared: refreshImages replaces the slice, and no one modifies it in place.
	return k.health
}

// nodeStep does one unit of node-side work, if any is due.
func (k *Kubelet) nodeStep(ctx context.Context) bool {
	if !k.node.registered {
		// Register once the pod side has looked at the runtime, so the Node is born with its real
		// conditions and images rather than NotReady for its first ten seconds.
		if !k.healthSnapshot().checked || !k.takeDue(taskRegister) {
			return false
		}
		k.registerNode(ctx)
		return true
	}
	if k.takeDue(taskLease) {
		k.renewLease(ctx)
		k.after(taskLease, leaseRenewInterval)
		return true
	}
	if k.takeDue(taskNodeStatus) {
		wrote := k.updateNodeStatus(ctx)
		k.after(taskNodeStatus, k.nextStatusCheck())
		return wrote
	}
	return false
}

// registerNode creates the Node object, or adopts it if it already exists (a kubelet restarting on a
// known node). On failure it retries with a backoff doubling up to 7 seconds.
func (k *Kubelet) registerNode(ctx context.Context) {
	node := k.initialNode()
	object := "nodes/" + k.nodeName
	created, err := client.For[api.Node](k.client).Create(ctx, node)
	if apierrors.IsAlreadyExists(err) {
		created, err = client.For[api.Node](k.client).Get(ctx, "", k.nodeName)
	}
	if err != nil {
		k.node.registerDelay = min(max(2*k.node.registerDelay, registrationBackoffStart), registrationBackoffMax)
		k.record("register", object, "", "Unable to register node with API server: %v (retrying in %s)", err, k.node.registerDelay)
		k.after(taskRegister, k.node.registerDelay)
		return
	}
	k.node.registered = true
	k.node.uid = created.UID
	k.node.reported, k.node.reportedOwn = &created.Status, false
	k.node.conditions = created.Status.Conditions
	k.node.reportedAt = k.clock.Now()
	podCIDR := created.Spec.PodCIDR
	if podCIDR == "" {
		podCIDR = "none yet (the node IPAM controller assigns one)"
	}
	k.record("register", object, created.ResourceVersion,
		"registered node %s: capacity cpu %s, memory %s, pods %s; allocatable cpu %s, memory %s; podCIDR %s",
		k.nodeName, qty(created.Status.Capacity, "cpu"), qty(created.Status.Capacity, "memory"), qty(created.Status.Capacity, "pods"),
		qty(created.Status.Allocatable, "cpu"), qty(created.Status.Allocatable, "memory"), podCIDR)
	k.recorder.Event(ctx, k.nodeRef(), api.EventTypeNormal, "Starting", "Starting kubelet.")
	k.recorder.Event(ctx, k.nodeRef(), api.EventTypeNormal, "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods")
	for _, c := range created.Status.Conditions {
		k.recordConditionEvent(ctx, c)
	}
	k.after(taskNodeStatus, k.nextStatusCheck())
}

// initialNode is the Node a kubelet registers (Kubelet.initialNode).
func (k *Kubelet) initialNode() *api.Node {
	node := &api.Node{
		ObjectMeta: api.ObjectMeta{Name: k.nodeName, Labels: k.cfg.nodeLabels(k.nodeName)},
		Spec:       api.NodeSpec{PodCIDR: k.cfg.PodCIDR, Taints: slices.Clone(k.cfg.Taints)},
	}
	if k.cfg.PodCIDR != "" {
		node.Spec.PodCIDRs = []string{k.cfg.PodCIDR}
	}
	h := k.healthSnapshot()
	now := k.clock.Now()
	node.Status = k.nodeStatus(h, k.nodeConditions(h, now))
	return node
}

// nodeRef is the object node events are about; Kubernetes uses the node name as its uid here.
func (k *Kubelet) nodeRef() *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: k.nodeName, UID: k.nodeName}}
}

// nodeStatus runs the setters, with the conditions nodeConditions computed.
func (k *Kubelet) nodeStatus(h runtimeHealth, conditions []api.NodeCondition) api.NodeStatus {
	st := api.NodeStatus{
		Capacity:    k.cfg.Capacity.DeepCopy(),
		Allocatable: k.cfg.Allocatable(),
		NodeInfo: api.NodeSystemInfo{
			MachineID: k.nodeName, SystemUUID: k.nodeName, BootID: k.nodeName,
			KernelVersion: "6.8.0-kubesim", OSImage: "kubesim node image", ContainerRuntimeVersion: h.runtimeVersion,
			KubeletVersion: k.cfg.KubeletVersion, KubeProxyVersion: k.cfg.KubeletVersion,
			OperatingSystem: "linux", Architecture: k.cfg.Arch,
		},
		Images: h.images,
	}
	if k.cfg.InternalIP != "" {
		st.Addresses = append(st.Addresses, api.NodeAddress{Type: api.NodeInternalIP, Address: k.cfg.InternalIP})
	}
	st.Addresses = append(st.Addresses, api.NodeAddress{Type: api.NodeHostName, Address: k.nodeName})
	st.Conditions = conditions
	return st
}

// nodeConditions is the conditions' setters: each one's heartbeat is now, and its transition time
// the previous one's if its status is the same.
func (k *Kubelet) nodeConditions(h runtimeHealth, now time.Time) []api.NodeCondition {
	want := []api.NodeCondition{
		pressureCondition(api.NodeMemoryPressure, h.memoryPressure, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available",
			"KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		pressureCondition(api.NodeDiskPressure, h.diskPressure, "KubeletHasDiskPressure", "kubelet has disk pressure",
			"KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		pressureCondition(api.NodePIDPressure, false, "KubeletHasInsufficientPID", "kubelet has insufficient PID available",
			"KubeletHasSufficientPID", "kubelet has sufficient PID available"),
		k.readyCondition(h, now),
	}
	previous := &api.NodeStatus{Conditions: k.node.conditions}
	for i := range want {
		want[i].LastHeartbeatTime = api.NewTime(now)
		want[i].LastTransitionTime = api.NewTime(now)
		if old := api.GetNodeCondition(previous, want[i].Type); old != nil && old.Status == want[i].Status {
			want[i].LastTransitionTime = old.LastTransitionTime
		}
	}
	return want
}

func pressureCondition(t api.NodeConditionType, pressure bool, yesReason, yesMsg, noReason, noMsg string) api.NodeCondition {
	if pressure {
		return api.NodeCondition{Type: t, Status: api.ConditionTrue, Reason: yesReason, Message: yesMsg}
	}
	return api.NodeCondition{Type: t, Status: api.ConditionFalse, Reason: noReason, Message: noMsg}
}

// readyCondition is the Ready setter: the kubelet is ready when neither runtimeErrors nor the pod
// network's readiness finds anything.
func (k *Kubelet) readyCondition(h runtimeHealth, now time.Time) api.NodeCondition {
	errs := runtimeErrors(h, now)
	if h.networkNotReady != "" {
		errs = append(errs, h.networkNotReady)
	}
	if len(errs) == 0 {
		return api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady",
			Message: "kubelet is posting ready status"}
	}
	msg := errs[0]
	if len(errs) > 1 {
		msg = "[" + strings.Join(errs, ", ") + "]" // utilerrors.NewAggregate's format
	}
	return api.NodeCondition{Type: api.NodeReady, Status: api.ConditionFalse, Reason: "KubeletNotReady", Message: msg}
}

// updateNodeStatus computes the node status and writes it when it changed, or when the last report
// is nodeStatusReportFrequency old. It reports whether it wrote.
func (k *Kubelet) updateNodeStatus(ctx context.Context) bool {
	h := k.healthSnapshot()
	now := k.clock.Now()
	conditions := k.nodeConditions(h, now)
	var st api.NodeStatus
	changed := true
	switch {
	case k.node.reported == nil:
		st = k.nodeStatus(h, conditions)
	case k.node.reportedOwn && sameAsOwnReport(k.node.reported, h, conditions):
		// What the setters would build from the same configuration and health is what was last
		// written: nothing changed, and nothing needs to be built (most checks, every 10 seconds).
		changed = false
	default:
		st = k.nodeStatus(h, conditions)
		changed = !sameNodeStatus(*k.node.reported, st)
		if !changed && !k.node.reportedOwn {
			// The same status, semantically, as the registration's: keep the setters' own from now
			// on, which the next checks compare with at once.
			k.node.reported, k.node.reportedOwn = &st, true
		}
	}
	if cached, ok := k.nodes.Get(k.nodeName); ok && !changed && !sameConditionStatuses(cached.Status.Conditions, conditions) {
		// The node lifecycle controller has marked the node Unknown (it heard nothing for a while):
		// the kubelet, posting again, sets the record straight at once.
		changed = true
	}
	if !changed && now.Sub(k.node.reportedAt) < nodeStatusReportFrequency {
		k.node.conditions = conditions
		return false
	}
	if st.Conditions == nil {
		st = k.nodeStatus(h, conditions)
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: k.nodeName}, Status: st}
	if cached, ok := k.nodes.Get(k.nodeName); ok {
		node = api.DeepCopy(cached)
		node.ResourceVersion = "" // a status report overwrites, as the kubelet's patch does
		node.Status = st
	}
	object := "nodes/" + k.nodeName
	written, err := client.For[api.Node](k.client).UpdateStatus(ctx, node)
	if err != nil {
		if k.node.statusErr != err.Error() {
			k.node.statusErr = err.Error()
			k.record("status", object, "", "Error updating node status, will retry: %v", err)
		}
		if apierrors.IsNotFound(err) {
			k.node.registered = false // someone deleted the Node: register again
			k.after(taskRegister, 0)
		}
		return true
	}
	k.node.statusErr = ""
	previous := k.node.conditions
	why := "heartbeat: nothing changed for " + nodeStatusReportFrequency.String()
	if changed {
		why = k.describeStatusChange(previous, st)
	}
	k.node.conditions, k.node.reported, k.node.reportedAt, k.node.reportedOwn = st.Conditions, &st, now, true
	k.record("status", object, written.ResourceVersion, "node status: Ready=%s (%s) -> %s", conditionStatus(st.Conditions, api.NodeReady),
		conditionReason(st.Conditions, api.NodeReady), why)
	for _, c := range st.Conditions {
		if conditionStatus(previous, c.Type) != c.Status {
			k.recordConditionEvent(ctx, c)
		}
	}
	return true
}

// describeStatusChange says what moved since the last report.
func (k *Kubelet) describeStatusChange(previous []api.NodeCondition, st api.NodeStatus) string {
	var what []string
	for _, c := range st.Conditions {
		if old := conditionStatus(previous, c.Type); old != c.Status {
			what = append(what, fmt.Sprintf("%s %s->%s", c.Type, orUnset(string(old)), c.Status))
		}
	}
	if k.node.reported != nil && len(k.node.reported.Images) != len(st.Images) {
		what = append(what, fmt.Sprintf("images %d->%d", len(k.node.reported.Images), len(st.Images)))
	}
	if len(what) == 0 {
		return "status changed"
	}
	return "changed: " + strings.Join(what, ", ")
}

// recordConditionEvent posts Kubernetes' "Node node-1 status is now: NodeReady" events.
func (k *Kubelet) recordConditionEvent(ctx context.Context, c api.NodeCondition) {
	var reason string
	switch c.Type {
	case api.NodeReady:
		reason = map[bool]string{true: "NodeReady", false: "NodeNotReady"}[c.Status == api.ConditionTrue]
	case api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure:
		reason = "Node" + strings.TrimPrefix(c.Reason, "Kubelet")
	default:
		return
	}
	k.recorder.Eventf(ctx, k.nodeRef(), api.EventTypeNormal, reason, "Node %s status is now: %s", k.nodeName, reason)
}

// sameNodeStatus compares two statuses, ignoring heartbeat times.
func sameNodeStatus(a, b api.NodeStatus) bool {
	strip := func(s api.NodeStatus) api.NodeStatus {
		s.Conditions = slices.Clone(s.Conditions)
		for i := range s.Conditions {
			s.Conditions[i].LastHeartbeatTime = api.Time{}
		}
		return s
	}
	return semanticEqual(strip(a), strip(b))
}

func conditionStatus(cs []api.NodeCondition, t api.NodeConditionType) api.ConditionStatus {
	if c := api.GetNodeCondition(&api.NodeStatus{Conditions: cs}, t); c != nil {
		return c.Status
	}
	return ""
}

func conditionReason(cs []api.NodeCondition, t api.NodeConditionType) string {
	c := api.GetNodeCondition(&api.NodeStatus{Conditions: cs}, t)
	switch {
	case c == nil:
		return ""
	case c.Status != api.ConditionTrue && c.Message != "":
		return c.Message
	}
	return c.Reason
}

func orUnset(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

// errPLEGNotYet is the PLEG's answer before its first relist.
var errPLEGNotYet = errors.New("pleg has yet to be successful")

// sameConditionStatuses reports whether every condition type has the same status in a and b.
func sameConditionStatuses(a, b []api.NodeCondition) bool {
	if len(a) != len(b) {
		return false
	}
	for _, c := range b {
		if conditionStatus(a, c.Type) != c.Status {
			return false
		}
	}
	return true
}

// sameAsOwnReport reports whether the status the setters would build from h, with conditions, is
// certainly the one they built for the last report: the parts that come from the node's
// configuration are the same by construction, so only the runtime version, the images and the
// conditions (heartbeat times aside) are compared, field by field. Exact equality implies
// sameNodeStatus's semantic one; false means "not known", and sameNodeStatus decides.
func sameAsOwnReport(reported *api.NodeStatus, h runtimeHealth, conditions []api.NodeCondition) bool {
	if reported.NodeInfo.ContainerRuntimeVersion != h.runtimeVersion || !sameImages(reported.Images, h.images) ||
		len(reported.Conditions) != len(conditions) {
		return false
	}
	for i := range conditions {
		a, b := &reported.Conditions[i], &conditions[i]
		if a.Type != b.Type || a.Status != b.Status || a.Reason != b.Reason || a.Message != b.Message ||
			!a.LastTransitionTime.Equal(b.LastTransitionTime.Time) {
			return false
		}
	}
	return true
}

// sameImages reports whether two image lists are equal: at once when they are the same slice (the
// list refreshImages keeps while the runtime's images do not change).
func sameImages(a, b []api.ContainerImage) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return slices.EqualFunc(a, b, func(x, y api.ContainerImage) bool {
		return x.SizeBytes == y.SizeBytes && slices.Equal(x.Names, y.Names)
	})
}
