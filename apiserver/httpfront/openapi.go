// openapi.go: a minimal OpenAPI v3 document (k8s.io/kube-openapi's /openapi/v3 handler), enough for
// kubectl to know that the server validates fields itself. Before `kubectl apply` or `create -f`
// sends an object, kubectl looks up the object's group-version document and checks that the PATCH
// operation of its kind takes the fieldValidation parameter; when it does, kubectl sends
// fieldValidation=Strict and leaves validation to the server (KEP-2885). Without any document,
// kubectl refuses with `failed to download openapi`.
//
//	GET /openapi/v3                          the index: one serverRelativeURL per group-version
//	GET /openapi/v3/apis/apps/v1?hash=...    that group-version's paths
//
// What it simplifies: each path lists only its PATCH operation with the group-version-kind extension
// and the fieldValidation parameter; there are no schemas (components), so `kubectl explain` has
// nothing to show, and kubectl builds strategic merge patches from its own compiled-in types (as it
// does when a document names no patch body types).
package httpfront

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
)

type openAPIIndex struct {
	Paths map[string]openAPIIndexEntry `json:"paths"`
}

type openAPIIndexEntry struct {
	ServerRelativeURL string `json:"serverRelativeURL"`
}

type openAPIDoc struct {
	OpenAPI string                          `json:"openapi"`
	Info    map[string]string               `json:"info"`
	Paths   map[string]map[string]openAPIOp `json:"paths"`
}

type openAPIOp struct {
	GVK        map[string]string  `json:"x-kubernetes-group-version-kind"`
	Parameters []openAPIParameter `json:"parameters"`
}

type openAPIParameter struct {
	Name        string            `json:"name"`
	In          string            `json:"in"`
	Description string            `json:"description"`
	Schema      map[string]string `json:"schema"`
}

// gvPath is a group-version's key in the index: "api/v1", "apis/apps/v1".
func gvPath(group, version string) string {
	if group == "" {
		return "api/" + version
	}
	return "apis/" + group + "/" + version
}

// openAPIGroupVersion builds the document of one group-version.
func openAPIGroupVersion(group, version string) openAPIDoc {
	doc := openAPIDoc{OpenAPI: "3.0.0", Info: map[string]string{"title": "Kubernetes (kubesim)", "version": ServedVersion.GitVersion},
		Paths: map[string]map[string]openAPIOp{}}
	for _, res := range resourcesOf(group, version) {
		path := "/" + gvPath(group, version) + "/"
		if res.Namespaced {
			path += "namespaces/{namespace}/"
		}
		path += res.Name + "/{name}"
		doc.Paths[path] = map[string]openAPIOp{"patch": {
			GVK: map[string]string{"group": res.Group, "version": res.Version, "kind": res.Kind},
			Parameters: []openAPIParameter{{Name: "fieldValidation", In: "query", Schema: map[string]string{"type": "string"},
				Description: "Ignore, Warn (the default) or Strict: what the server does with unknown or duplicate fields"}},
		}}
	}
	return doc
}

// serveOpenAPI answers /openapi/v3 and /openapi/v3/<group-version>; anything else under /openapi is
// the 404 Status (kubesim has no OpenAPI v2 document).
func (h *Handler) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimSuffix(r.URL.Path, "/")
	if p == "/openapi/v3" {
		idx := openAPIIndex{Paths: map[string]openAPIIndexEntry{}}
		for _, g := range groups() {
			for _, v := range versionsOf(g) {
				gv := gvPath(g, v)
				doc, _ := json.Marshal(openAPIGroupVersion(g, v))
				sum := sha256.Sum256(doc)
				idx.Paths[gv] = openAPIIndexEntry{ServerRelativeURL: "/openapi/v3/" + gv + "?hash=" + strings.ToUpper(hex.EncodeToString(sum[:]))}
			}
		}
		writeJSON(w, http.StatusOK, idx)
		return
	}
	gv, ok := strings.CutPrefix(p, "/openapi/v3/")
	if ok {
		parts := strings.Split(gv, "/")
		switch {
		case len(parts) == 2 && parts[0] == "api" && servesGroupVersion("", parts[1]):
			writeJSON(w, http.StatusOK, openAPIGroupVersion("", parts[1]))
			return
		case len(parts) == 3 && parts[0] == "apis" && servesGroupVersion(parts[1], parts[2]):
			writeJSON(w, http.StatusOK, openAPIGroupVersion(parts[1], parts[2]))
			return
		}
	}
	writeError(w, notFoundPath())
}
