// zones.go: zones, their states, and the rate at which each may have nodes tainted NoExecute.
//
//	computeZoneState      Normal, PartialDisruption or FullDisruption, from Ready conditions
//	handleDisruption      per pass: new states, new rates, master disruption mode
//	zoneTainter           a zone's queue of nodes waiting for a NoExecute taint (RateLimitedTimedQueue)
//	tokenBucket           its rate limiter: qps tokens a second, burst 1 (flowcontrol's token bucket)
//
// Why rate limits: a dead node's pods must move, but if many nodes seem dead at once the likelier
// story is a network or zone problem, and evicting everything would make it worse. So a zone with
// many unready nodes evicts slowly (or not at all, in small clusters), and if every node everywhere
// looks dead the controller stops evicting entirely: "master disruption mode".
package nodelifecycle

import (
	"context"
	"math"
	"time"

	"kubesim/api"
)

// zoneState is a zone's health, named as in Kubernetes.
type zoneState string

const (
	stateInitial           zoneState = "Initial"
	stateNormal            zoneState = "Normal"
	stateFullDisruption    zoneState = "FullDisruption"
	statePartialDisruption zoneState = "PartialDisruption"
)

// zoneOf is the zone a node is in: its topology.kubernetes.io/zone label ("" when it has none).
func zoneOf(n *api.Node) string { return n.Labels[api.LabelTopologyZone] }

// computeZoneState counts Ready nodes: none Ready is FullDisruption; more than two not Ready and at
// least UnhealthyZoneThreshold of them is PartialDisruption; anything else is Normal.
func (nc *Controller) computeZoneState(conditions []*api.NodeCondition) (notReady int, state zoneState) {
	ready := 0
	for _, c := range conditions {
		if c != nil && c.Status == api.ConditionTrue {
			ready++
		} else {
			notReady++
		}
	}
	switch {
	case ready == 0 && notReady > 0:
		return notReady, stateFullDisruption
	case notReady > 2 && float64(notReady)/float64(notReady+ready) >= nc.opts.UnhealthyZoneThreshold:
		return notReady, statePartialDisruption
	}
	return notReady, stateNormal
}

// handleDisruption updates each zone's state and tainting rate, entering or leaving master
// disruption mode when every zone is (or stops being) fully disrupted. It reports whether anything
// worth telling changed.
func (nc *Controller) handleDisruption(ctx context.Context, zoneConditions map[string][]*api.NodeCondition, nodes []*api.Node) bool {
	now := nc.clock.Now()
	newStates := map[string]zoneState{}
	notReady := map[string]int{}
	allAreFull := len(zoneConditions) > 0
	for zone, conds := range zoneConditions {
		notReady[zone], newStates[zone] = nc.computeZoneState(conds)
		if newStates[zone] != stateFullDisruption {
			allAreFull = false
		}
	}

	nc.mu.Lock()
	allWasFull := len(nc.zoneStates) > 0
	for _, zone := range sortedKeys(nc.zoneStates) {
		if _, ok := newStates[zone]; !ok {
			delete(nc.zoneStates, zone) // no nodes left in it
		} else if nc.zoneStates[zone] != stateFullDisruption {
			allWasFull = false
		}
	}
	for zone := range newStates {
		if _, ok := nc.zoneStates[zone]; !ok {
			nc.zoneStates[zone] = stateInitial
			allWasFull = false
		}
	}
	nc.mu.Unlock()

	switch {
	case allAreFull && allWasFull:
		return false
	case allAreFull:
		nc.tracer.Record("disruption", "", "",
			"Controller detected that all Nodes are not-Ready. Entering master disruption mode: no NoExecute taints, no evictions")
		nc.mu.Lock()
		for _, zone := range sortedKeys(newStates) {
			nc.tainterLocked(zone).limiter.swap(0, now)
			nc.zoneStates[zone] = newStates[zone]
		}
		nc.mu.Unlock()
		for _, n := range nodes {
			nc.markNodeAsReachable(ctx, n)
		}
		return true
	case allWasFull:
		nc.tracer.Record("disruption", "", "",
			"Controller detected that some Nodes are Ready. Exiting master disruption mode")
		nc.mu.Lock()
		// Nodes could not be heard while the control plane was cut off: give them a full grace
		// period from now.
		for _, h := range nc.health {
			h.probeTimestamp = now
		}
		for _, zone := range sortedKeys(newStates) {
			nc.setLimiterLocked(zone, len(zoneConditions[zone]), newStates[zone], now)
			nc.zoneStates[zone] = newStates[zone]
		}
		nc.mu.Unlock()
		return true
	}
	told := false
	for _, zone := range sortedKeys(newStates) {
		nc.mu.Lock()
		old := nc.zoneStates[zone]
		if old == newStates[zone] {
			nc.mu.Unlock()
			continue
		}
		rate := nc.setLimiterLocked(zone, len(zoneConditions[zone]), newStates[zone], now)
		nc.zoneStates[zone] = newStates[zone]
		nc.mu.Unlock()
		routine := old == stateInitial && newStates[zone] == stateNormal
		tell := nc.tracer.Record
		if routine {
			tell = nc.tracer.Detail
		}
		tell("zone", "", "", "zone %q: %s -> %s (%d of %d nodes not Ready): NoExecute taints at %g nodes/s",
			zone, old, newStates[zone], notReady[zone], len(zoneConditions[zone]), rate)
		told = told || !routine
	}
	return told
}

// setLimiterLocked sets a zone's tainting rate for its state (setLimiterInZone) and returns it.
func (nc *Controller) setLimiterLocked(zone string, size int, state zoneState, now time.Time) float64 {
	rate := nc.opts.NodeEvictionRate
	if state == statePartialDisruption {
		rate = 0
		if size > nc.opts.LargeClusterSizeThreshold {
			rate = nc.opts.SecondaryNodeEvictionRate
		}
	}
	nc.tainterLocked(zone).limiter.swap(rate, now)
	return rate
}

// tainterLocked returns zone's queue, creating it at the normal rate.
func (nc *Controller) tainterLocked(zone string) *zoneTainter {
	tq, ok := nc.tainters[zone]
	if !ok {
		tq = &zoneTainter{queued: map[string]bool{}, limiter: newTokenBucket(nc.opts.NodeEvictionRate, nc.clock.Now())}
		nc.tainters[zone] = tq
	}
	return tq
}

// armTokenTimerLocked makes sure the clock has a timer due within secs seconds, when a token will be
// available: in step mode the driver jumps the clock to it and the next Step runs the pass (in real
// time the pass runs every NodeEvictionPeriod anyway).
func (nc *Controller) armTokenTimerLocked(now time.Time, secs float64) {
	at := now.Add(time.Duration(math.Ceil(secs*1000)) * time.Millisecond)
	if nc.tokenTimer != nil && !nc.tokenTimerAt.After(at) {
		return
	}
	if nc.tokenTimer != nil {
		nc.tokenTimer.Stop()
	}
	nc.tokenTimerAt = at
	nc.tokenTimer = nc.clock.AfterFunc(at.Sub(now), func() {
		nc.mu.Lock()
		nc.tokenTimer = nil
		nc.mu.Unlock()
	})
}

// zoneTainter is a FIFO of node names without duplicates, drained at its limiter's rate.
type zoneTainter struct {
	queue   []string
	queued  map[string]bool
	limiter *tokenBucket
}

func (z *zoneTainter) add(name string) bool {
	if z.queued[name] {
		return false
	}
	z.queued[name] = true
	z.queue = append(z.queue, name)
	return true
}

func (z *zoneTainter) pop() string {
	name := z.queue[0]
	z.queue = z.queue[1:]
	delete(z.queued, name)
	return name
}

func (z *zoneTainter) remove(name string) {
	if !z.queued[name] {
		return
	}
	delete(z.queued, name)
	for i, n := range z.queue {
		if n == name {
			z.queue = append(z.queue[:i], z.queue[i+1:]...)
			return
		}
	}
}

// tokenBucket allows qps events a second with a burst of one, on the cluster's clock. A rate of 0
// allows nothing (flowcontrol's "never" limiter).
type tokenBucket struct {
	qps    float64
	tokens float64
	last   time.Time
}

// newTokenBucket starts full: the first node is tainted at once.
func newTokenBucket(qps float64, now time.Time) *tokenBucket {
	return &tokenBucket{qps: qps, tokens: 1, last: now}
}

func (b *tokenBucket) refill(now time.Time) {
	if b.qps > 0 {
		b.tokens = math.Min(1, b.tokens+now.Sub(b.last).Seconds()*b.qps)
	}
	b.last = now
}

// tryAccept takes a token if one is available.
func (b *tokenBucket) tryAccept(now time.Time) bool {
	b.refill(now)
	if b.qps <= 0 || b.tokens < 1-1e-9 {
		return false
	}
	b.tokens--
	return true
}

// untilToken is how long until the next token, false if none will ever come.
func (b *tokenBucket) untilToken(now time.Time) (time.Duration, bool) {
	b.refill(now)
	if b.qps <= 0 {
		return 0, false
	}
	return time.Duration((1 - b.tokens) / b.qps * float64(time.Second)), true
}

// swap changes the rate (SwapLimiter). As in Kubernetes, the new bucket starts full unless the old
// one was empty, so a rate change neither grants nor loses a burst.
func (b *tokenBucket) swap(qps float64, now time.Time) {
	if b.qps == qps {
		return
	}
	b.refill(now)
	empty := b.tokens < 1-1e-9
	b.qps, b.tokens, b.last = qps, 1, now
	if empty {
		b.tokens = 0
	}
}
