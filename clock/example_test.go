package clock_test

import (
	"fmt"
	"time"

	"kubesim/clock"
)

// A step driver owns a Virtual clock. Components schedule wake-ups on it;
// when no work is left, the driver jumps straight to the next one.
func ExampleVirtual() {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clock.NewVirtual(start)

	// A kubelet heartbeat every 10s and a 40s node-monitor grace period.
	heartbeat := clk.NewTicker(10 * time.Second)
	clk.AfterFunc(40*time.Second, func() {
		fmt.Println(clk.Since(start), "grace period over: node would be marked NotReady")
		heartbeat.Stop()
	})

	for clk.AdvanceToNext() {
		select {
		case <-heartbeat.C():
			fmt.Println(clk.Since(start), "heartbeat")
		default:
		}
	}
	fmt.Println("pending timers:", clk.Pending())

	// Output:
	// 10s heartbeat
	// 20s heartbeat
	// 30s heartbeat
	// 40s grace period over: node would be marked NotReady
	// pending timers: 0
}
