package webhooks

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"kubesim/api"
)

// review is an AdmissionReview of a pod create, labelled as given.
func review(t *testing.T, labels map[string]string) *api.AdmissionReview {
	t.Helper()
	pod := api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: labels},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}}}
	raw, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	return &api.AdmissionReview{Request: &api.AdmissionRequest{UID: "u-1", Kind: api.GroupVersionKind{Version: "v1", Kind: "Pod"}, Object: raw}}
}

// Each fault changes what the apiserver's call sees, and healing takes it away.
func TestServersFaults(t *testing.T) {
	var s Servers
	ctx := context.Background()
	if _, _, err := s.Admit(ctx, "default/policy", "", review(t, nil)); err == nil || err.Error() != `service "policy" not found` {
		t.Fatalf("nothing served: %v", err)
	}
	s.Serve("default/policy", RequireLabel("team"))
	for _, tc := range []struct {
		fault   Fault
		took    time.Duration
		err     string
		allowed bool
	}{
		{Healthy, latency, "", false},
		{Slow(3 * time.Second), latency + 3*time.Second, "", false},
		{Hang, forever, "", false},
		{Refuse, 0, "dial tcp policy.default.svc:443: connect: connection refused", false},
	} {
		s.SetFault("default/policy", tc.fault)
		out, took, err := s.Admit(ctx, "default/policy", "", review(t, nil))
		if took != tc.took || (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("%v: took %v, error %v; want %v, %q", tc.fault, took, err, tc.took, tc.err)
		}
		if tc.fault == Healthy || tc.fault.Slow > 0 {
			if out == nil || out.Response.Allowed || out.Response.UID != "u-1" || out.Response.Result.Code != 403 ||
				out.Response.Result.Message != `missing required label "team"` {
				t.Errorf("%v: answer %+v", tc.fault, out)
			}
		}
	}
	s.SetFault("default/policy", Healthy)
	if out, took, err := s.Admit(ctx, "default/policy", "", review(t, map[string]string{"team": "a"})); err != nil || took != latency || !out.Response.Allowed {
		t.Errorf("healed, labelled: %+v %v %v", out, took, err)
	}
}

// The injector adds its container once, as a JSONPatch.
func TestSidecarInjector(t *testing.T) {
	resp := SidecarInjector()(review(t, nil).Request)
	want := `[{"op":"add","path":"/spec/containers/-","value":{"name":"sidecar","image":"example.com/sidecar:1.0","resources":{}}}]`
	if !resp.Allowed || string(resp.Patch) != want || resp.PatchType == nil || *resp.PatchType != api.PatchTypeJSONPatch {
		t.Fatalf("patch %s, %+v", resp.Patch, resp)
	}
	var pod api.Pod
	req := review(t, nil).Request
	json.Unmarshal(req.Object, &pod)
	pod.Spec.Containers = append(pod.Spec.Containers, SidecarContainer)
	req.Object, _ = json.Marshal(pod)
	if resp := SidecarInjector()(req); !resp.Allowed || resp.Patch != nil {
		t.Errorf("a pod with the sidecar already: %+v", resp)
	}
}
