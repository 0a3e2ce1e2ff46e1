package apiserver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/wire"
)

// BenchmarkCreate measures one pod create through every gate as `kubesim bench create-path` makes it
// (no trace, a real clock, a controller's identity that pays for RBAC), one client at a time.
func BenchmarkCreate(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, store.Config{})
	require.NoError(b, err)
	defer st.Close()
	s := New(Config{Store: st, Clock: clock.Real{}, Seed: 1})
	require.NoError(b, s.Start(ctx))
	s.AddCredential(Credential{Token: "bench", User: User{Name: "system:kube-controller-manager"}})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "bench-", Namespace: "default", Labels: map[string]string{"app": "bench"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Do(ctx, &wire.Request{Token: "bench", Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: api.DeepCopy(pod), HandOver: true}); err != nil {
			b.Fatal(err)
		}
	}
}
