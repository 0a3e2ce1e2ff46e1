package apiserver

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/trace"
	"kubesim/wire"
)

// kube-apiserver's /readyz?verbose on a healthy etcd, then on one that has lost its quorum: the
// etcd-readiness check fails with its reason withheld, writes and consistent reads time out at the
// request's deadline (504), and a list with resourceVersion=0 still answers from the watch cache.
// https://kubernetes.io/docs/reference/using-api/health-checks/
func TestReadyzAndRequestsWithoutAnEtcdQuorum(t *testing.T) {
	t.Parallel() // it mostly waits for etcd's elections and timeouts, beside the others that do
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	st, err := store.Open(ctx, store.Config{Clock: clk, Members: 3})
	require.NoError(t, err)
	defer st.Close()
	s := New(Config{Store: st, Clock: clk, Trace: trace.NewRecorder(clk, false), Seed: 1})
	require.NoError(t, s.Start(ctx))
	s.AddCredential(Credential{Token: adminToken, User: User{Name: "admin", Groups: []string{GroupMasters}}})
	do := func(ctx context.Context, req wire.Request) (*wire.Response, error) {
		req.Token = adminToken
		return s.Do(ctx, &req)
	}
	_, err = do(ctx, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("web")})
	require.NoError(t, err)

	ready := s.Readyz(ctx)
	require.True(t, ready.Ready())
	require.Equal(t, "[+]ping ok\n[+]etcd-readiness ok\nreadyz check passed\n", ready.String())

	c := st.Cluster()
	require.NoError(t, c.Stop("etcd-2"))
	require.NoError(t, c.Stop("etcd-1"))
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	require.NoError(t, c.WaitLeaderless(wctx))

	ready = s.Readyz(ctx)
	require.False(t, ready.Ready())
	require.Equal(t, "[+]ping ok\n[-]etcd-readiness failed: reason withheld\nreadyz check failed\n", ready.String())

	short, scancel := context.WithTimeout(ctx, time.Second)
	defer scancel()
	_, err = do(short, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("web-2")})
	require.True(t, apierrors.IsTimeout(err), "got %v", err)
	_, err = do(short, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "web"})
	require.True(t, apierrors.IsTimeout(err), "got %v", err)

	resp, err := do(ctx, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", ResourceVersion: "0"})
	require.NoError(t, err)
	require.Len(t, resp.List.Items, 1)
	require.Equal(t, "web", resp.List.Items[0].(*api.Pod).Name)
}

// Two etcd errors that k8s.io/apiserver's storage layer has no case for reach the client in etcd's
// own words (ErrorToAPIStatus makes them a 500 with no reason): a write that a leader accepted but no
// quorum committed within etcd's request timeout (`Error from server: etcdserver: request timed
// out`), and a write refused because etcd's database reached its quota (`etcdserver: mvcc: database
// space exceeded`).
func TestEtcdErrorsWithoutATranslationArePassedThrough(t *testing.T) {
	res, _ := api.ResourceFor("pods")
	for etcdErr, want := range map[error]string{
		rpctypes.ErrTimeout: "etcdserver: request timed out",
		rpctypes.ErrNoSpace: "etcdserver: mvcc: database space exceeded",
	} {
		err := storageError(fmt.Errorf("create %q: %w", "/registry/pods/default/web", etcdErr), res, "web")
		require.Equal(t, 500, apierrors.CodeForError(err))
		require.Equal(t, apierrors.Reason(""), apierrors.ReasonForError(err))
		require.Equal(t, want, err.Error())
	}
}
