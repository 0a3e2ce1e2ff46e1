package httpfront_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// kubectl get secret and kubectl get pdb print Kubernetes' columns: TYPE and DATA (stringData counted
// once folded into data); MIN AVAILABLE, MAX UNAVAILABLE ("N/A" when unset) and ALLOWED DISRUPTIONS.
func TestSecretAndBudgetTablesHaveKubectlsColumns(t *testing.T) {
	_, hs := newFront(t)
	for path, body := range map[string]string{
		"/api/v1/namespaces/default/secrets": `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"stringData":{"user":"app","password":"s3cr3t"}}`,
		"/apis/policy/v1/namespaces/default/poddisruptionbudgets": `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web"},
			"spec":{"maxUnavailable":1,"selector":{"matchLabels":{"app":"web"}}}}`,
	} {
		if code, _, out := call(t, hs, "admin-token", "POST", path, "application/json", body); code != 201 {
			t.Fatalf("create %s: %d %s", path, code, out)
		}
	}
	for path, want := range map[string]string{
		"/api/v1/namespaces/default/secrets":                      "Name,Type,Data,Age | db,Opaque,2",
		"/apis/policy/v1/namespaces/default/poddisruptionbudgets": "Name,Min Available,Max Unavailable,Allowed Disruptions,Age | web,N/A,1,0",
	} {
		_, _, body := call(t, hs, "admin-token", "GET", path, "", "", "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json")
		var table struct {
			Columns []struct {
				Name string `json:"name"`
			} `json:"columnDefinitions"`
			Rows []struct {
				Cells []any `json:"cells"`
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(body), &table); err != nil || len(table.Rows) != 1 {
			t.Fatalf("%s: %v %s", path, err, body)
		}
		var cols, cells []string
		for _, c := range table.Columns {
			cols = append(cols, c.Name)
		}
		for _, c := range table.Rows[0].Cells[:len(table.Rows[0].Cells)-1] {
			b, _ := json.Marshal(c)
			cells = append(cells, strings.Trim(string(b), `"`))
		}
		if got := strings.Join(cols, ",") + " | " + strings.Join(cells, ","); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}
