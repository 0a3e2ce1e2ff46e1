package kubelet_test

import (
	"fmt"
	"os"
	"testing"

	"kubesim/sim"
)

func dumpTrace(t *testing.T, c *sim.Cluster) {
	if os.Getenv("KTRACE") == "" {
		return
	}
	for _, e := range c.Trace.Events() {
		if e.Detail && os.Getenv("KTRACE") != "all" {
			continue
		}
		fmt.Printf("%4d %-8s %-22s %-10s %s\n", e.Seq, e.Time, e.Component, e.Action, e.Message)
	}
}
