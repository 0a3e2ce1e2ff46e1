package sim

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A node's clock, as date and timedatectl show it: the cluster's time on a node NTP keeps right;
// on a skewed one (SkewClock: NTP stopped) the skewed time, "System clock synchronized: no" and an
// inactive NTP service, until the skew is healed.
func TestNodeClockShowsTheSkew(t *testing.T) {
	ctx := context.Background()
	c, err := New(ctx, Config{Seed: 7, Nodes: 2})
	require.NoError(t, err)
	defer c.Close()

	now := c.Now().UTC()
	assert.Equal(t, now.Format("Mon Jan _2 15:04:05 UTC 2006")+"\n", inspect(t, c, "date --node node-1"))
	status := inspect(t, c, "timedatectl --node node-1")
	assert.Contains(t, status, "               Local time: "+now.Format("Mon 2006-01-02 15:04:05 UTC")+"\n")
	assert.Contains(t, status, "System clock synchronized: yes\n              NTP service: active\n")

	require.NoError(t, c.SkewClock("node-2", 2*365*24*time.Hour))
	ahead := now.Add(2 * 365 * 24 * time.Hour)
	assert.Equal(t, ahead.Format("Mon Jan _2 15:04:05 UTC 2006")+"\n", inspect(t, c, "date -u --node node-2"))
	status = inspect(t, c, "timedatectl status --node node-2")
	assert.Contains(t, status, "           Universal time: "+ahead.Format("Mon 2006-01-02 15:04:05 UTC")+"\n")
	assert.Contains(t, status, "System clock synchronized: no\n              NTP service: inactive\n")
	assert.Contains(t, inspect(t, c, "timedatectl --node node-1"), "System clock synchronized: yes\n")

	require.NoError(t, c.SkewClock("node-2", 0))
	assert.Contains(t, inspect(t, c, "timedatectl --node node-2"), "System clock synchronized: yes\n")
	assert.Contains(t, inspect(t, c, "date"), "date runs on a node: say which with --node NODE")
	assert.Contains(t, inspect(t, c, "date +%s --node node-1"), `kubesim's nodes know date [-u], not "+%s"`)
}
