package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// crictl's ages and sizes (docker's go-units, as cri-tools prints them).
func TestCrictlAgesAndSizes(t *testing.T) {
	for d, want := range map[time.Duration]string{
		500 * time.Millisecond: "Less than a second", time.Second: "1 second", 59 * time.Second: "59 seconds",
		90 * time.Second: "About a minute", 59 * time.Minute: "59 minutes", 80 * time.Minute: "About an hour",
		47 * time.Hour: "47 hours", 72 * time.Hour: "3 days", 20 * 24 * time.Hour: "2 weeks", 90 * 24 * time.Hour: "3 months",
		800 * 24 * time.Hour: "2 years",
	} {
		assert.Equal(t, want, humanDuration(d), "%s", d)
	}
	for b, want := range map[uint64]string{999: "999B", 320_000: "320kB", 72_080_558: "72.1MB", 1_500_000_000: "1.5GB"} {
		assert.Equal(t, want, humanSize(b), "%d", b)
	}
}
