package apiserver

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

// Kubernetes keeps at most 58 characters of a generateName and appends 5 random ones, so a generated
// name is never longer than 63 characters and fits even a DNS-label kind such as a Service.
func TestGenerateNameCutsTheBaseTo58Characters(t *testing.T) {
	ts := newTestServer(t)
	p := nginxPod("")
	p.GenerateName = strings.Repeat("a", 69) + "-"
	pod := ts.create(t, p).(*api.Pod)
	assert.Len(t, pod.Name, 63)
	assert.Equal(t, strings.Repeat("a", 58), pod.Name[:58])

	svc := &api.Service{ObjectMeta: api.ObjectMeta{GenerateName: strings.Repeat("s", 58) + "-", Namespace: "default"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "nginx"}, Ports: []api.ServicePort{{Port: 80}}}}
	created := ts.create(t, svc).(*api.Service)
	assert.Len(t, created.Name, 63)
}

// A UID is a version 4 UUID in the canonical form (8-4-4-4-12 lowercase hex digits), drawn from the
// seeded source, so that step mode shows the same UIDs every run.
func TestNewUIDIsAVersion4UUIDDrawnFromTheSeed(t *testing.T) {
	s := New(Config{Seed: 7})
	r := rand.New(rand.NewSource(7))
	for range 3 {
		var b [16]byte
		for i := range b {
			b[i] = byte(r.Intn(256))
		}
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		assert.Equal(t, fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]), s.newUID())
	}
}
