// olddata.go: booting on etcd data that a previous run left behind (--data-dir, --etcd-endpoints).
//
//	resumeOldData(ctx)   on a store that already has data: move the virtual clock past the last instant the
//	              data records, and draw names and UIDs from a source the previous run did not use
//
// A fresh store is at revision 1 and changes nothing here, so a fresh step-mode run stays
// reproducible. On old data, a step-mode clock that restarted at the epoch would make every object
// younger than zero and every lease renewed in the future; and an apiserver seeded as the previous
// run was would hand out the same generated names and UIDs again (nginx-7c5ddbdf54-x2k8p twice).
// The last instant is the latest renewTime of the Leases: nodes renew theirs every 10 seconds and
// the control plane's leaders every 2, so it is within seconds of when the previous run stopped.
package sim

import (
	"context"
	"encoding/json"
	"time"

	"kubesim/api"
)

func (c *Cluster) resumeOldData(ctx context.Context) error {
	rev, err := c.Store.CurrentRevision(ctx)
	if err != nil || rev <= 1 {
		return err
	}
	c.seedOffset = rev // a different source for every revision the data can be left at
	if c.virtual == nil {
		return nil // real time: the wall clock is already later than anything recorded
	}
	kvs, _, err := c.Store.List(ctx, "/registry/leases/", 0)
	if err != nil {
		return err
	}
	var last time.Time
	for _, kv := range kvs {
		var l api.Lease
		if json.Unmarshal(kv.Value, &l) == nil && l.Spec.RenewTime != nil && l.Spec.RenewTime.After(last) {
			last = l.Spec.RenewTime.Time
		}
	}
	if now := c.virtual.Now(); last.After(now) {
		c.virtual.Advance(last.Sub(now).Truncate(time.Second) + time.Second)
	}
	return nil
}
