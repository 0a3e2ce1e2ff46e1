// apply.go: server-side apply, `kubectl apply --server-side` (a PATCH with Content-Type
// application/apply-patch+yaml and ?fieldManager=NAME). The body is the configuration the manager
// wants, not a diff; kube-apiserver (k8s.io/apiserver/pkg/endpoints/handlers/patch.go, the
// structured-merge-diff library behind it) creates the object if it is absent, and otherwise merges
// that configuration into the live object, keeping in metadata.managedFields which manager set
// which field:
//
//   - each field the configuration sets becomes the manager's (an Apply entry, its fields as a
//     FieldsV1 set); a field it set last time and no longer does is removed from the object, unless
//     another manager also set it;
//   - a field that another manager set, and that this configuration would change to a different
//     value, is a conflict: 409 `Apply failed with 1 conflict: conflict with "alice" using apps/v1:
//     .spec.replicas`, and nothing is written; with ?force=true (kubectl --force-conflicts) the
//     field changes and passes to this manager;
//   - setting a field to the value it already has is shared ownership, never a conflict.
//
// The merged object goes through Do as a patch, like the other patch types (patch.go), so it passes
// the same admission and validation; a create goes through Do as a create.
//
// What kubesim simplifies: there are no structured-merge-diff schemas. Maps and structs merge field by
// field; a list merges item by item when k8s.io/api's types give it a strategic merge key (containers
// and env by name, container ports by containerPort, ...) and is otherwise atomic (replaced whole and
// owned whole), where Kubernetes' schemas also know sets (finalizers) and lists keyed by two fields
// (a port by port and protocol). Only Apply records managed fields: other writes keep the entries
// they read but neither record an Update entry nor take fields over, so an apply never conflicts with
// `kubectl scale` or a controller, as it can in Kubernetes. Apply is served on objects, not on their
// subresources.
package httpfront

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/field"
	"kubesim/wire"

	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"
)

// Managed fields' operations and their one fields type.
const (
	operationApply = "Apply"
	fieldsTypeV1   = "FieldsV1"
)

// serveApply answers a server-side apply of body to the object rt names.
func (h *Handler) serveApply(ctx context.Context, w http.ResponseWriter, r *http.Request, req *wire.Request, rt route, body []byte) {
	q := r.URL.Query()
	manager := q.Get("fieldManager")
	if manager == "" {
		writeError(w, apierrors.NewInvalid("PatchOptions.meta.k8s.io", "", field.ErrorList{
			field.Required(field.NewPath("fieldManager"), "is required for apply patch")}))
		return
	}
	if rt.subresource != "" {
		writeError(w, apierrors.NewMethodNotSupported(rt.res.GroupResource()+"/"+rt.subresource, "apply"))
		return
	}
	applied, err := appliedConfig(body, rt)
	if err != nil {
		writeError(w, err)
		return
	}
	// The configuration must decode as the kind, under the request's field validation.
	typed, err := json.Marshal(applied)
	if err == nil {
		var warnings []string
		if warnings, err = decodeBody(typed, bodyObject(rt), q.Get("fieldValidation")); err == nil {
			warn(w, warnings)
		}
	}
	if err != nil {
		writeError(w, err)
		return
	}
	a := applier{manager: manager, apiVersion: rt.res.APIVersion(), force: isTrue(q.Get("force")), schema: schemaOf(rt.res),
		now: api.NewTime(h.clock.Now())}
	obj, err := h.readModifyWrite(ctx, req, func(cur api.Object) (api.Object, error) { return a.apply(cur, applied, rt) })
	if apierrors.ReasonForError(err) == apierrors.ReasonNotFound {
		h.applyCreate(ctx, w, req, rt, a, applied)
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, obj)
}

// applyCreate creates the object from the configuration alone, owned by the manager.
func (h *Handler) applyCreate(ctx context.Context, w http.ResponseWriter, req *wire.Request, rt route, a applier, applied map[string]any) {
	set := a.fieldsOf(applied)
	entry, err := a.entry(set)
	if err != nil {
		writeError(w, err)
		return
	}
	obj, err := typedObject(applied, rt, []api.ManagedFieldsEntry{entry})
	if err != nil {
		writeError(w, err)
		return
	}
	create := *req
	create.Verb, create.Body, create.Name = wire.VerbCreate, obj, ""
	resp, err := h.srv.Do(ctx, &create)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, resp.Object)
}

// appliedConfig parses the YAML configuration and keeps what a manager may own: not the identity
// (apiVersion, kind, name, namespace), not what the apiserver sets (uid, resourceVersion, ...), and
// not status, which an apply to the object itself does not touch.
func appliedConfig(body []byte, rt route) (map[string]any, error) {
	data, err := yaml.YAMLToJSON(body)
	var cfg map[string]any
	if err == nil {
		err = json.Unmarshal(data, &cfg)
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	if cfg == nil {
		cfg = map[string]any{}
	}
	if v, _ := cfg["apiVersion"].(string); v != rt.res.APIVersion() {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", v, rt.res.APIVersion()))
	}
	if k, _ := cfg["kind"].(string); k != rt.res.Kind {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)", k, rt.res.Kind))
	}
	meta, _ := cfg["metadata"].(map[string]any)
	if name, _ := meta["name"].(string); name != rt.name {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", name, rt.name))
	}
	for _, k := range []string{"name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
		"deletionTimestamp", "deletionGracePeriodSeconds", "managedFields"} {
		delete(meta, k)
	}
	if len(meta) == 0 {
		delete(cfg, "metadata")
	}
	for _, k := range []string{"apiVersion", "kind", "status"} {
		delete(cfg, k)
	}
	return cfg, nil
}

// typedObject turns merged JSON back into the kind's object, with its identity and managed fields.
func typedObject(merged map[string]any, rt route, managed []api.ManagedFieldsEntry) (api.Object, error) {
	data, err := json.Marshal(merged)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	obj := bodyObject(rt)
	tm := *obj.GetTypeMeta()
	if err := json.Unmarshal(data, obj); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", tm.Kind, versionOf(tm.APIVersion), tm.Kind, err))
	}
	*obj.GetTypeMeta() = tm
	m := obj.GetObjectMeta()
	m.Name, m.ManagedFields = rt.name, managed
	if rt.res.Namespaced {
		m.Namespace = rt.namespace
	}
	return obj, nil
}

// applier is one apply request's manager and options.
type applier struct {
	manager    string
	apiVersion string
	force      bool
	schema     strategicpatch.LookupPatchMeta // nil: every list is atomic
	now        api.Time
}

// apply merges the configuration into cur and returns the object to write, or the 409 of the
// conflicts.
func (a applier) apply(cur api.Object, applied map[string]any, rt route) (api.Object, error) {
	raw, err := json.Marshal(cur)
	var live map[string]any
	if err == nil {
		err = json.Unmarshal(raw, &live)
	}
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	set := a.fieldsOf(applied)
	var (
		mine   fieldSet
		others []ownedFields
	)
	for _, e := range cur.GetObjectMeta().ManagedFields {
		var fs fieldSet
		if len(e.FieldsV1) > 0 {
			if err := json.Unmarshal(e.FieldsV1, &fs); err != nil {
				return nil, apierrors.NewInternalError(fmt.Errorf("managedFields of %s: %w", e.Manager, err))
			}
		}
		if e.Manager == a.manager && e.Operation == operationApply && e.Subresource == "" {
			mine = fs
			continue
		}
		others = append(others, ownedFields{entry: e, set: fs})
	}

	// Conflicts: a field another manager set, which this configuration changes.
	var conflicts []conflict
	set.leaves(nil, func(p []string) {
		if p[len(p)-1] == "." {
			return // the item itself: its key is the same on both sides
		}
		want, _ := valueAt(applied, p)
		if have, ok := valueAt(live, p); ok && reflect.DeepEqual(want, have) {
			return
		}
		for i := range others {
			if others[i].set.owns(p) {
				conflicts = append(conflicts, conflict{owner: others[i].entry, path: p})
				if a.force {
					others[i].set.drop(p)
				}
			}
		}
	})
	if len(conflicts) > 0 && !a.force {
		return nil, conflictError(conflicts)
	}

	// A field this manager applied before and no longer does goes, unless someone else holds it.
	if mine != nil {
		var gone [][]string
		mine.leaves(nil, func(p []string) {
			if set.owns(p) {
				return
			}
			for _, o := range others {
				if o.set.owns(p) {
					return
				}
			}
			gone = append(gone, p)
		})
		for i := len(gone) - 1; i >= 0; i-- { // deepest first, items after their fields
			removeAt(live, gone[i])
		}
	}

	merged := mergeMaps(live, applied, a.schema)
	entry, err := a.entry(set)
	if err != nil {
		return nil, err
	}
	managed := []api.ManagedFieldsEntry{}
	placed := false
	for _, e := range cur.GetObjectMeta().ManagedFields {
		switch {
		case e.Manager == a.manager && e.Operation == operationApply && e.Subresource == "":
			managed, placed = append(managed, entry), true
		default:
			for _, o := range others {
				if o.entry.Manager == e.Manager && o.entry.Operation == e.Operation && o.entry.Subresource == e.Subresource && len(o.set) > 0 {
					o.entry.FieldsV1, _ = json.Marshal(o.set)
					managed = append(managed, o.entry)
				}
			}
		}
	}
	if !placed {
		managed = append(managed, entry)
	}
	obj, err := typedObject(merged, rt, managed)
	if err != nil {
		return nil, err
	}
	obj.GetObjectMeta().ResourceVersion = cur.GetObjectMeta().ResourceVersion // the compare-and-swap
	return obj, nil
}

// entry is the manager's Apply entry for set.
func (a applier) entry(set fieldSet) (api.ManagedFieldsEntry, error) {
	raw, err := json.Marshal(set)
	if err != nil {
		return api.ManagedFieldsEntry{}, apierrors.NewInternalError(err)
	}
	now := a.now
	return api.ManagedFieldsEntry{Manager: a.manager, Operation: operationApply, APIVersion: a.apiVersion, Time: &now,
		FieldsType: fieldsTypeV1, FieldsV1: raw}, nil
}

// ownedFields is another manager's entry and the fields it holds.
type ownedFields struct {
	entry api.ManagedFieldsEntry
	set   fieldSet
}

// conflict is a field another manager holds, which an apply would change.
type conflict struct {
	owner api.ManagedFieldsEntry
	path  []string
}

// conflictError is the 409 in kube-apiserver's words (k8s.io/apimachinery's managedfields
// NewConflictError), one cause per field.
func conflictError(cs []conflict) error {
	byOwner := map[string][]string{}
	var causes []apierrors.StatusCause
	for _, c := range cs {
		who := printManager(c.owner)
		byOwner[who] = append(byOwner[who], pathString(c.path))
		causes = append(causes, apierrors.StatusCause{Type: "FieldManagerConflict", Message: "conflict with " + who, Field: pathString(c.path)})
	}
	msg := fmt.Sprintf("Apply failed with 1 conflict: conflict with %s: %s", printManager(cs[0].owner), pathString(cs[0].path))
	if len(cs) > 1 {
		owners := make([]string, 0, len(byOwner))
		for o := range byOwner {
			owners = append(owners, o)
		}
		sort.Strings(owners)
		var lines []string
		for _, o := range owners {
			lines = append(lines, "conflicts with "+o+":")
			for _, p := range byOwner[o] {
				lines = append(lines, "- "+p)
			}
		}
		msg = fmt.Sprintf("Apply failed with %d conflicts: %s", len(cs), strings.Join(lines, "\n"))
	}
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusConflict, Reason: apierrors.ReasonConflict, Message: msg, Details: &apierrors.StatusDetails{Causes: causes}}}
}

// printManager names a manager as the conflict message does: `"alice" using apps/v1`, with the
// time for an Update.
func printManager(e api.ManagedFieldsEntry) string {
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s += fmt.Sprintf(" with subresource %q", e.Subresource)
	}
	if e.Operation != operationApply && e.Time != nil {
		return fmt.Sprintf("%s using %s at %s", s, e.APIVersion, e.Time.UTC().Format("2006-01-02T15:04:05Z07:00"))
	}
	return s + " using " + e.APIVersion
}

// schemaOf is the strategic merge metadata of a kind (its list merge keys), or nil.
func schemaOf(res *api.Resource) strategicpatch.LookupPatchMeta {
	schema, ok := patchSchemas[res.APIVersion()+"/"+res.Kind]
	if !ok {
		return nil
	}
	meta, err := strategicpatch.NewPatchMetaFromStruct(schema)
	if err != nil {
		return nil
	}
	return meta
}

// fieldMeta returns the metadata of a struct or map field, or nil.
func fieldMeta(meta strategicpatch.LookupPatchMeta, key string) strategicpatch.LookupPatchMeta {
	if meta == nil {
		return nil
	}
	sub, _, err := meta.LookupPatchMetadataForStruct(key)
	if err != nil {
		return nil
	}
	return sub
}

// listMeta returns a list field's merge key ("" for an atomic list) and its items' metadata.
func listMeta(meta strategicpatch.LookupPatchMeta, key string) (string, strategicpatch.LookupPatchMeta) {
	if meta == nil {
		return "", nil
	}
	items, pm, err := meta.LookupPatchMetadataForSlice(key)
	if err != nil {
		return "", nil
	}
	return pm.GetPatchMergeKey(), items
}
