package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fakeruntime "kubesim/runtime"
)

// A container's writes fill the node's one filesystem, next to the images; they stay on disk after
// it exits, and go only when the container is removed.
func TestDiskGrowthFillsTheNodeFilesystemUntilTheContainerIsRemoved(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	id := n.run(t, "writer", fakeruntime.ContainerConfig{Image: "busybox:1.36", Command: []string{"sleep", "infinity"},
		Envs: []fakeruntime.KeyValue{{Key: fakeruntime.EnvDiskGrowth, Value: "2Mi/s"}}})
	images := func() uint64 {
		fs, err := n.rt.ImageFsInfo(ctx)
		require.NoError(t, err)
		return fs.UsedBytes
	}()
	n.clk.Advance(10 * time.Second)
	stats, err := n.rt.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint64(20<<20), stats.Containers[0].RootfsUsedBytes)
	assert.Equal(t, images+20<<20, stats.Fs.UsedBytes)
	assert.Equal(t, uint64(fakeruntime.DefaultImageFsCapacityBytes), stats.Fs.CapacityBytes)

	require.NoError(t, n.rt.StopContainer(ctx, id, 0))
	n.clk.Advance(time.Minute)
	stats, err = n.rt.Stats(ctx)
	require.NoError(t, err)
	assert.Empty(t, stats.Containers)
	assert.Equal(t, images+20<<20, stats.Fs.UsedBytes, "an exited container's writable layer stays")

	require.NoError(t, n.rt.RemoveContainer(ctx, id))
	stats, err = n.rt.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, images, stats.Fs.UsedBytes)
}

func TestDiskGrowthMustBeARate(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "bad", fakeruntime.ContainerConfig{Image: "busybox:1.36", Command: []string{"sleep", "infinity"},
		Envs: []fakeruntime.KeyValue{{Key: fakeruntime.EnvDiskGrowth, Value: "10Mi"}}})
	st := n.status(t, id)
	assert.Equal(t, int32(2), st.ExitCode)
	logs, err := n.rt.ContainerLogs(context.Background(), id, -1)
	require.NoError(t, err)
	require.NotEmpty(t, logs)
	assert.Equal(t, `kubesim: invalid KUBESIM_DISK_GROWTH="10Mi": want a rate such as 10Mi/s`, logs[len(logs)-1].Log)
}
