// process.go: what the kubesim process itself costs while a benchmark runs: its peak resident
// memory and its CPU time. Both are read from the kernel (Linux's /proc and getrusage), so they count
// everything, etcd and the Go runtime included.
package bench

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// resetPeakRSS starts a new peak: writing 5 to /proc/self/clear_refs resets VmHWM (Linux only;
// elsewhere the peak is the process's since it started).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is the most resident memory the process has had since resetPeakRSS, in bytes: VmHWM on
// Linux, getrusage's maxrss elsewhere (0 if neither answers).
func peakRSS() int64 {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		s := bufio.NewScanner(f)
		for s.Scan() {
			if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				return kb << 10
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return int64(ru.Maxrss) << 10 // KiB on Linux
}

// cpuTime is the CPU time the process has used so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
