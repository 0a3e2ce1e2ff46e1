package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Ages as kubectl prints them (apimachinery's duration.HumanDuration).
func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second:                   "0s",
		45 * time.Second:               "45s",
		119 * time.Second:              "119s",
		3*time.Minute + 12*time.Second: "3m12s",
		5 * time.Minute:                "5m",
		90 * time.Minute:               "90m",
		4*time.Hour + 30*time.Minute:   "4h30m",
		20 * time.Hour:                 "20h",
		50 * time.Hour:                 "2d2h",
		30 * 24 * time.Hour:            "30d",
	} {
		assert.Equal(t, want, humanDuration(d), "%s", d)
	}
}
