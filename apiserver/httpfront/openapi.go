// openapi.go: the OpenAPI v3 documents (k8s.io/kube-openapi's /openapi/v3 handler). kubectl reads
// them twice: before `kubectl apply` or `create -f` sends an object, it looks up the object's
// group-version document and checks that the PATCH operation of its kind takes the fieldValidation
// parameter; when it does, kubectl sends fieldValidation=Strict and leaves validation to the server
// (KEP-2885), and without any document it refuses with `failed to download openapi`. And `kubectl
// explain` renders a kind's schema, found in components.schemas by its
// x-kubernetes-group-version-kind (openapi_schema.go builds them).
//
//	GET /openapi/v3                          the index: one serverRelativeURL per group-version
//	GET /openapi/v3/apis/apps/v1?hash=...    that group-version's paths and schemas
//
// What it simplifies: each path lists only its PATCH operation with the group-version-kind extension
// and the fieldValidation parameter; the documents are built once, when first asked for.
package httpfront

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

type openAPIIndex struct {
	Paths map[string]openAPIIndexEntry `json:"paths"`
}

type openAPIIndexEntry struct {
	ServerRelativeURL string `json:"serverRelativeURL"`
}

type openAPIDoc struct {
	OpenAPI    string                          `json:"openapi"`
	Info       map[string]string               `json:"info"`
	Paths      map[string]map[string]openAPIOp `json:"paths"`
	Components map[string]any                  `json:"components"`
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
	var kinds []schema.GroupVersionKind
	for _, res := range resourcesOf(group, version) {
		kinds = append(kinds, schema.GroupVersionKind{Group: res.Group, Version: res.Version, Kind: res.Kind})
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
	doc.Components = map[string]any{"schemas": buildSchemas(kinds)}
	return doc
}

// openAPIDocuments are the documents by group-version path ("api/v1"), encoded, built at the first
// request: the kinds are fixed when the program starts.
var openAPIDocuments = sync.OnceValue(func() map[string][]byte {
	docs := map[string][]byte{}
	for _, g := range groups() {
		for _, v := range versionsOf(g) {
			b, err := json.Marshal(openAPIGroupVersion(g, v))
			if err != nil {
				panic(err) // maps of strings and schemas always encode
			}
			docs[gvPath(g, v)] = b
		}
	}
	return docs
})

// serveOpenAPI answers /openapi/v3 and /openapi/v3/<group-version>; anything else under /openapi is
// the 404 Status (kubesim has no OpenAPI v2 document).
func (h *Handler) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimSuffix(r.URL.Path, "/")
	docs := openAPIDocuments()
	if p == "/openapi/v3" {
		idx := openAPIIndex{Paths: map[string]openAPIIndexEntry{}}
		for gv, doc := range docs {
			sum := sha256.Sum256(doc)
			idx.Paths[gv] = openAPIIndexEntry{ServerRelativeURL: "/openapi/v3/" + gv + "?hash=" + strings.ToUpper(hex.EncodeToString(sum[:]))}
		}
		writeJSON(w, http.StatusOK, idx)
		return
	}
	if gv, ok := strings.CutPrefix(p, "/openapi/v3/"); ok {
		if doc, ok := docs[gv]; ok {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-cache, private")
			w.WriteHeader(http.StatusOK)
			w.Write(doc)
			return
		}
	}
	writeError(w, notFoundPath())
}
