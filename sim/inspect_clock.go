// inspect_clock.go: a node's clock, at a paused run's prompt and in serve's terminal. Article 1 (7.5)
// says to check a node's time sync before anything else about its kubelet: a clock that NTP no
// longer keeps right fails certificate checks and heartbeats, and the NotReady looks mysterious.
//
//	date [-u] [--node NODE]          the node's time, as GNU date prints it in the C locale
//	timedatectl [status] [--node NODE]   systemd's view: local and universal time, time zone, whether
//	                                 the clock is synchronized and NTP is active
//
// A node's clock is the cluster's, off by SkewClock's skew (faults.go); a skewed node is one whose
// NTP service is not running, so timedatectl says "System clock synchronized: no" there and "yes"
// elsewhere. Every node's time zone is UTC, as on most cloud images.
package sim

import (
	"fmt"
	"io"
	"time"
)

// nodeClock is node's time now and whether its clock is synchronized (not skewed).
func (c *Cluster) nodeClock(tool, node string) (now time.Time, synced bool, err error) {
	nd, err := c.nodeFor(tool, node)
	if err != nil {
		return time.Time{}, false, err
	}
	c.credMu.Lock()
	defer c.credMu.Unlock()
	return c.nodeNowLocked(nd.Name).UTC(), c.nodeSkewLocked(nd.Name) == 0, nil
}

// inspectDate is date on a node: `Thu Dec  3 08:43:37 UTC 2026` (-u changes nothing, the node's
// zone being UTC).
func (c *Cluster) inspectDate(w io.Writer, args []string) error {
	node, rest := takeNodeFlag(args)
	for _, a := range rest {
		if a != "-u" && a != "--utc" {
			return fmt.Errorf("date: kubesim's nodes know date [-u], not %q", a)
		}
	}
	now, _, err := c.nodeClock("date", node)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, now.Format("Mon Jan _2 15:04:05 MST 2006"))
	return nil
}

// inspectTimedatectl is timedatectl (status) on a node, in systemd's layout.
func (c *Cluster) inspectTimedatectl(w io.Writer, args []string) error {
	node, rest := takeNodeFlag(args)
	if len(rest) > 1 || len(rest) == 1 && rest[0] != "status" {
		return fmt.Errorf("timedatectl: kubesim's nodes know timedatectl [status], not %q", rest)
	}
	now, synced, err := c.nodeClock("timedatectl", node)
	if err != nil {
		return err
	}
	yesNo := map[bool]string{true: "yes", false: "no"}
	ntp := map[bool]string{true: "active", false: "inactive"}
	fmt.Fprintf(w, "               Local time: %s\n", now.Format("Mon 2006-01-02 15:04:05 MST"))
	fmt.Fprintf(w, "           Universal time: %s\n", now.Format("Mon 2006-01-02 15:04:05 MST"))
	fmt.Fprintf(w, "                 RTC time: %s\n", now.Format("Mon 2006-01-02 15:04:05"))
	fmt.Fprintf(w, "                Time zone: Etc/UTC (UTC, +0000)\n")
	fmt.Fprintf(w, "System clock synchronized: %s\n", yesNo[synced])
	fmt.Fprintf(w, "              NTP service: %s\n", ntp[synced])
	fmt.Fprintf(w, "          RTC in local TZ: no\n")
	return nil
}
