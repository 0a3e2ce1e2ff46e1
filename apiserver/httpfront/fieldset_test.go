package httpfront

import (
	"encoding/json"
	"testing"

	"kubesim/api"
)

// A field set is FieldsV1: fieldsOf names every leaf a configuration sets, list items by their merge
// key with "."; owns sees a path, what is below it and an atomic field above it; dropping the last
// field under a parent removes the parent too, so it never turns into a leaf that would own
// everything below.
func TestFieldSetsAreFieldsV1(t *testing.T) {
	var cfg map[string]any
	json.Unmarshal([]byte(`{"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx"}],
		"tolerations":[{"key":"a"}]}}}}`), &cfg)
	deployments, _ := api.ResourceFor("deployments")
	set := fieldsOf(cfg, schemaOf(deployments))
	got, _ := json.Marshal(set)
	want := `{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:tolerations":{}}}}}`
	if string(got) != want {
		t.Fatalf("fieldsOf:\n got %s\nwant %s", got, want)
	}
	image := []string{"f:spec", "f:template", "f:spec", "f:containers", `k:{"name":"web"}`, "f:image"}
	for _, c := range []struct {
		path []string
		owns bool
	}{
		{image, true},
		{[]string{"f:spec", "f:template"}, true}, // something below it
		{[]string{"f:spec", "f:template", "f:spec", "f:tolerations", `k:{"key":"a"}`}, true}, // atomic above it
		{[]string{"f:spec", "f:paused"}, false},
	} {
		if set.owns(c.path) != c.owns {
			t.Errorf("owns(%v) = %v", c.path, !c.owns)
		}
	}
	if s := pathString(image); s != `.spec.template.spec.containers[name="web"].image` {
		t.Errorf("pathString: %s", s)
	}

	set.drop([]string{"f:spec", "f:replicas"})
	set.drop([]string{"f:spec", "f:template"})
	if got, _ := json.Marshal(set); string(got) != `{}` {
		t.Errorf("after dropping everything: %s, want {} (no emptied parent left as a leaf)", got)
	}
}
