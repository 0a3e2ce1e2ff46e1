// durability_test.go: a cluster with a data dir killed with SIGKILL in the middle of its work, then
// restarted, over and over: every write it acknowledged is there, and the controllers converge with no
// pod lost or duplicated from its ReplicaSet's count. The cluster runs in a child process (this test
// binary again, TestDurabilityChild) so that the kill is a real one; the point of each kill is
// seeded: after the k-th acknowledged write, k drawn from the seed.
package sim_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/chaos"
	"kubesim/sim"
	"kubesim/store"
)

// durabilityChildEnv, set to a data dir, makes TestDurabilityChild the cluster that gets killed.
const durabilityChildEnv = "KUBESIM_DURABILITY_CHILD"

// durabilityMaxDeployments bounds the Deployments the child creates (of at most 4 pods each).
const durabilityMaxDeployments = 12

// durabilityKillsEnv sets how many kills TestDurabilityUnderSIGKILL makes (default 4).
const durabilityKillsEnv = "KUBESIM_DURABILITY_KILLS"

// durabilityConfig is the cluster the child runs and the test restarts: the same on every boot but
// for the seed, which must differ from one boot to the next, as kubesim serve's does (it takes the
// time): the seed makes the UIDs and generated names, and a cluster restarted with its old seed on
// its old data hands out the UIDs of objects that still exist (a new pod with an old pod's UID is
// never scheduled).
func durabilityConfig(dir string, boot int) sim.Config {
	cfg := sim.FullCluster(2)
	cfg.Mode, cfg.Speed, cfg.Seed, cfg.DataDir = sim.RealTime, 20, int64(boot), dir
	return cfg
}

// acked is what the killed processes acknowledged, read from their output.
type acked struct {
	roles       []string
	deployments map[string]bool
	// replicas is each Deployment's acknowledged replicas; pending, a scale sent and not acknowledged
	// when the process died, which may or may not have landed.
	replicas map[string]int32
	pending  map[string]int32
	writes   int
}

// read consumes one child's output until it has acknowledged kill writes, and reports whether it
// got that far; other lines (a failing child's test output) go to other.
func (a *acked) read(sc *bufio.Scanner, kill int, other *[]string) bool {
	n := 0
	for n < kill && sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || f[0] != "durability:" {
			*other = append(*other, sc.Text())
			continue
		}
		switch f[1] {
		case "role":
			a.roles = append(a.roles, f[2])
		case "deployment":
			a.deployments[f[2]] = true
			a.replicas[f[2]] = 2
		case "send-scale", "scale":
			r, _ := strconv.Atoi(f[3])
			if f[1] == "send-scale" {
				a.pending = map[string]int32{f[2]: int32(r)}
				continue
			}
			a.replicas[f[2]] = int32(r)
		}
		a.pending = map[string]int32{}
		a.writes++
		n++
	}
	return n == kill
}

func TestDurabilityUnderSIGKILL(t *testing.T) {
	t.Parallel() // it mostly waits for its children's fsyncs and boots, beside the others that wait
	if testing.Short() {
		t.Skip("boots a cluster once per kill")
	}
	kills := 4
	if s := os.Getenv(durabilityKillsEnv); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err, durabilityKillsEnv)
		kills = n
	}
	const seed = 1
	rnd := rand.New(rand.NewSource(seed))
	dir := t.TempDir()
	a := &acked{deployments: map[string]bool{}, replicas: map[string]int32{}, pending: map[string]int32{}}
	for i := 1; i <= kills; i++ {
		kill := 5 + rnd.Intn(25)
		cmd := exec.Command(os.Args[0], "-test.run=^TestDurabilityChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), durabilityChildEnv+"="+dir, "KUBESIM_DURABILITY_ROUND="+strconv.Itoa(i))
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		cmd.Stderr = os.Stderr
		require.NoError(t, cmd.Start())
		sc := bufio.NewScanner(out)
		var other []string
		reached := a.read(sc, kill, &other)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		require.True(t, reached, "kill %d: the child ended before its %d-th acknowledged write:\n%s", i, kill, strings.Join(other, "\n"))
		t.Logf("kill %d: SIGKILL after %d acknowledged writes (%d in all)", i, kill, a.writes)
		verifyAfterKill(t, dir, a, i)
	}
}

// verifyAfterKill restarts the cluster on dir and checks every acknowledged write and the
// controllers' convergence.
func verifyAfterKill(t *testing.T, dir string, a *acked, round int) {
	ctx := context.Background()
	c, err := sim.New(ctx, durabilityConfig(dir, 2*round+1))
	require.NoError(t, err, "restart after kill %d", round)
	defer c.Close()
	for _, name := range a.roles {
		_, err := sim.Get[api.Role](ctx, c, "default", name)
		assert.NoError(t, err, "kill %d: acknowledged role %s", round, name)
	}
	inv := chaos.NewInvariants(c)
	for name := range a.deployments {
		inv.ExpectDeployment("default", name)
	}
	converged := sim.Check("every deployment at its acknowledged replicas, with that many pods", func() (bool, error) {
		if err := inv.Check(ctx); err != nil {
			return false, err
		}
		for name := range a.deployments {
			d, err := sim.Get[api.Deployment](ctx, c, "default", name)
			if err != nil {
				return false, err
			}
			want := *d.Spec.Replicas
			if want != a.replicas[name] && want != a.pending[name] {
				return false, fmt.Errorf("deployment %s has replicas %d, acknowledged %d", name, want, a.replicas[name])
			}
			pods, err := sim.List[api.Pod](ctx, c, "default", "app="+name, "")
			if err != nil {
				return false, err
			}
			active := int32(0)
			for _, p := range pods {
				if p.DeletionTimestamp == nil {
					active++
				}
			}
			if active != want {
				return false, nil
			}
			a.replicas[name] = want // what landed of a pending scale is the truth from now on
		}
		return chaos.DeploymentsAvailable().Met(ctx, c)
	})
	ok, err := c.Wait(ctx, converged, 10*time.Minute, 0)
	require.NoError(t, err, "kill %d", round)
	if !assert.True(t, ok, "kill %d: the controllers converge", round) {
		deployments, _ := sim.List[api.Deployment](ctx, c, "default", "", "")
		for _, d := range deployments {
			t.Logf("deployment %s: replicas %d, status %+v", d.Name, *d.Spec.Replicas, d.Status)
		}
		pods, _ := sim.List[api.Pod](ctx, c, "default", "", "")
		for _, p := range pods {
			t.Logf("pod %s: node %s, phase %s, deleting %v", p.Name, p.Spec.NodeName, p.Status.Phase, p.DeletionTimestamp != nil)
		}
	}
	assert.Empty(t, inv.Violations, "kill %d", round)
	a.pending = map[string]int32{}
}

// TestDurabilityChild is the cluster TestDurabilityUnderSIGKILL kills: it writes without end and
// prints each write once acknowledged (a write that fails, a scale that meets a 409 Conflict, is
// not acknowledged) ("durability: role NAME", "durability: deployment NAME
// R", "durability: scale NAME R"; "durability: send-scale NAME R" before a scale is sent).
func TestDurabilityChild(t *testing.T) {
	dir := os.Getenv(durabilityChildEnv)
	if dir == "" {
		t.Skip("runs only as TestDurabilityUnderSIGKILL's child")
	}
	round := os.Getenv("KUBESIM_DURABILITY_ROUND")
	boot, err := strconv.Atoi(round)
	require.NoError(t, err)
	ctx := context.Background()
	releaseLeaderLeases(t, dir)
	c, err := sim.New(ctx, durabilityConfig(dir, 2*boot))
	require.NoError(t, err)
	defer c.Close()
	rnd := rand.New(rand.NewSource(int64(boot)))
	for n := 1; n < 10000; n++ {
		kind := n % 5
		if kind == 0 {
			// Two nodes hold 220 pods: past a few Deployments, write a Role instead.
			deployments, err := sim.List[api.Deployment](ctx, c, "default", "", "")
			if err != nil || len(deployments) >= durabilityMaxDeployments {
				kind = 1
			}
		}
		switch kind {
		case 0:
			name := fmt.Sprintf("web-%s-%d", round, n)
			_, err := c.Kubectl.Apply(ctx, []byte(chaos.DeploymentManifest(name, 2)))
			if err == nil {
				fmt.Printf("durability: deployment %s 2\n", name)
			}
		case 2:
			deployments, err := sim.List[api.Deployment](ctx, c, "default", "", "")
			if err != nil || len(deployments) == 0 {
				continue
			}
			d := deployments[rnd.Intn(len(deployments))]
			r := int32(1 + rnd.Intn(4))
			fmt.Printf("durability: send-scale %s %d\n", d.Name, r)
			if err := c.Kubectl.Scale(ctx, "deployments", "default", d.Name, r); err == nil {
				fmt.Printf("durability: scale %s %d\n", d.Name, r)
			}
		default:
			name := fmt.Sprintf("reader-%s-%d", round, n)
			_, err := c.Kubectl.Apply(ctx, []byte(fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: %s
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get]
`, name)))
			if err == nil {
				fmt.Printf("durability: role %s\n", name)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// releaseLeaderLeases deletes the leader Leases of kube-controller-manager and kube-scheduler from
// the data in dir. Before a child, the data is the cluster verifyAfterKill closed, gracefully: as
// leaders with client-go's ReleaseOnCancel would, it lets go of its leases, so that the child leads
// at once instead of waiting out two leaseDurations (15 s of cluster time each, 1.5 s at speed 20,
// every round). The restart after each SIGKILL still waits out the killed child's leases, as a
// cluster restarted after a crash does.
func releaseLeaderLeases(t *testing.T, dir string) {
	ctx := context.Background()
	s, err := store.Open(ctx, store.Config{DataDir: dir})
	require.NoError(t, err)
	defer s.Close()
	for _, name := range []string{"kube-controller-manager", "kube-scheduler"} {
		if _, _, err := s.Delete(ctx, "/registry/leases/kube-system/"+name, 0); err != nil && !store.IsNotFound(err) {
			require.NoError(t, err, "releasing the lease of %s", name)
		}
	}
}
