package apiserver

import (
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
