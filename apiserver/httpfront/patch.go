// patch.go: PATCH, the verb behind `kubectl apply` on an existing object (a strategic merge patch
// computed from the last-applied annotation), `kubectl scale` (a merge patch on /scale), `kubectl set
// image` and `kubectl cordon` (strategic merge patches). kube-apiserver's patch handler
// (k8s.io/apiserver/pkg/endpoints/handlers/patch.go) reads the current object, applies the patch,
// and writes the result as an update guarded by the resourceVersion it read, retrying when another
// writer got there first. kubesim does exactly that through Do, so the patched object passes the
// same admission and validation as any update.
//
// Four patch types:
//
//	application/json-patch+json            RFC 6902 operations (add, remove, replace, test, ...)
//	application/merge-patch+json           RFC 7386: the patch is a partial object; null deletes
//	application/strategic-merge-patch+json Kubernetes' merge: lists of containers, ports, env, ...
//	                                       merge by their key (name, containerPort) instead of being
//	                                       replaced, per the patchStrategy tags of k8s.io/api's types
//	application/apply-patch+yaml           server-side apply: a manager's whole configuration,
//	                                       merged with managed fields and conflicts (apply.go)
package httpfront

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// maxPatchAttempts is how often a patch is re-applied to a fresh read after a conflict.
const maxPatchAttempts = 5

// Patch content types.
const (
	jsonPatchType      = "application/json-patch+json"
	mergePatchType     = "application/merge-patch+json"
	strategicPatchType = "application/strategic-merge-patch+json"
	applyPatchType     = "application/apply-patch+yaml"
)

// patchSchemas are the k8s.io/api types whose struct tags (patchStrategy, patchMergeKey) tell a
// strategic merge patch how to merge each list. kubesim's types use the same JSON field names, so the
// schema applies to kubesim's JSON unchanged.
var patchSchemas = map[string]any{
	"v1/Pod": corev1.Pod{}, "v1/Node": corev1.Node{}, "v1/Namespace": corev1.Namespace{},
	"v1/Service": corev1.Service{}, "v1/Endpoints": corev1.Endpoints{}, "v1/Event": corev1.Event{},
	"v1/ServiceAccount": corev1.ServiceAccount{}, "v1/ResourceQuota": corev1.ResourceQuota{},
	"v1/ConfigMap": corev1.ConfigMap{}, "v1/Secret": corev1.Secret{},
	"v1/PersistentVolume": corev1.PersistentVolume{}, "v1/PersistentVolumeClaim": corev1.PersistentVolumeClaim{},
	"apps/v1/Deployment": appsv1.Deployment{}, "apps/v1/ReplicaSet": appsv1.ReplicaSet{}, "apps/v1/DaemonSet": appsv1.DaemonSet{},
	"rbac.authorization.k8s.io/v1/Role": rbacv1.Role{}, "rbac.authorization.k8s.io/v1/ClusterRole": rbacv1.ClusterRole{},
	"rbac.authorization.k8s.io/v1/RoleBinding":                       rbacv1.RoleBinding{},
	"rbac.authorization.k8s.io/v1/ClusterRoleBinding":                rbacv1.ClusterRoleBinding{},
	"coordination.k8s.io/v1/Lease":                                   coordinationv1.Lease{},
	"scheduling.k8s.io/v1/PriorityClass":                             schedulingv1.PriorityClass{},
	"storage.k8s.io/v1/StorageClass":                                 storagev1.StorageClass{},
	"autoscaling/v1/Scale":                                           autoscalingv1.Scale{},
	"admissionregistration.k8s.io/v1/MutatingWebhookConfiguration":   admissionregistrationv1.MutatingWebhookConfiguration{},
	"admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration": admissionregistrationv1.ValidatingWebhookConfiguration{},
}

func (h *Handler) servePatch(ctx context.Context, w http.ResponseWriter, r *http.Request, req *wire.Request, rt route) {
	patch, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, bodyReadError(err))
		return
	}
	pt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch pt {
	case jsonPatchType, mergePatchType, strategicPatchType:
	case applyPatchType:
		h.serveApply(ctx, w, r, req, rt, patch)
		return
	default:
		writeError(w, unsupported(fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s, %s, %s, %s", jsonPatchType, mergePatchType, strategicPatchType, applyPatchType)))
		return
	}
	switch rt.subresource {
	case "", "status", "scale":
	default:
		writeError(w, apierrors.NewMethodNotSupported(rt.res.GroupResource()+"/"+rt.subresource, wire.VerbPatch))
		return
	}
	var warnings []string
	obj, err := h.readModifyWrite(ctx, req, func(cur api.Object) (api.Object, error) {
		obj, warned, err := applyPatch(pt, cur, patch, bodyObject(rt), r.URL.Query().Get("fieldValidation"))
		warnings = warned
		return obj, err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	warn(w, warnings)
	writeJSON(w, http.StatusOK, obj)
}

// readModifyWrite reads the object req names, lets change compute what to write from it, and writes
// that under the verb patch, as a compare-and-swap on the resourceVersion read. A conflict on that
// resourceVersion means someone wrote in between: read and change again. A resourceVersion the change
// itself set (a patch's precondition) is the caller's: no retry. The error is the one to answer.
func (h *Handler) readModifyWrite(ctx context.Context, req *wire.Request, change func(cur api.Object) (api.Object, error)) (api.Object, error) {
	for attempt := 1; ; attempt++ {
		get := *req
		get.Verb = wire.VerbGet
		cur, err := h.srv.Do(ctx, &get)
		if err != nil {
			return nil, h.patchRefusal(ctx, req, err)
		}
		obj, err := change(cur.Object)
		if err != nil {
			return nil, err
		}
		upd := *req
		upd.Verb, upd.Body = wire.VerbPatch, obj
		resp, err := h.srv.Do(ctx, &upd)
		sameRV := obj.GetObjectMeta().ResourceVersion == cur.Object.GetObjectMeta().ResourceVersion
		if err != nil && apierrors.ReasonForError(err) == apierrors.ReasonConflict && sameRV && attempt < maxPatchAttempts {
			continue
		}
		if err != nil {
			return nil, err
		}
		return resp.Object, nil
	}
}

// patchRefusal is the error to answer when the read before a patch failed. Kubernetes authorizes a
// patch as the verb patch, never get: when the read was forbidden, the apiserver is asked about the
// verb patch (a request without a body, which stops at the authorize gate if refused and writes
// nothing if allowed), so that the 403 names the verb the user asked for: `User "alice" cannot patch
// resource "deployments/scale"`.
func (h *Handler) patchRefusal(ctx context.Context, req *wire.Request, readErr error) error {
	if apierrors.ReasonForError(readErr) != apierrors.ReasonForbidden {
		return readErr
	}
	probe := *req
	probe.Verb, probe.Body = wire.VerbPatch, nil
	if _, err := h.srv.Do(ctx, &probe); apierrors.ReasonForError(err) == apierrors.ReasonForbidden {
		return err
	}
	return readErr
}

// applyPatch applies patch to cur and decodes the result into into (an empty object of the body's
// kind) under the fieldValidation directive.
func applyPatch(pt string, cur api.Object, patch []byte, into api.Object, directive string) (api.Object, []string, error) {
	original, err := json.Marshal(cur)
	if err != nil {
		return nil, nil, apierrors.NewInternalError(err)
	}
	var patched []byte
	switch pt {
	case jsonPatchType:
		ops, err := jsonpatch.DecodePatch(patch)
		if err == nil {
			patched, err = ops.Apply(original)
		}
		if err != nil {
			return nil, nil, apierrors.NewBadRequest(err.Error())
		}
	case mergePatchType:
		if patched, err = jsonpatch.MergePatch(original, patch); err != nil {
			return nil, nil, apierrors.NewBadRequest(err.Error())
		}
	case strategicPatchType:
		tm := into.GetTypeMeta()
		schema, ok := patchSchemas[tm.APIVersion+"/"+tm.Kind]
		if !ok {
			return nil, nil, unsupported(fmt.Sprintf("strategic merge patch is not supported for %s; use a merge patch", tm.Kind))
		}
		if patched, err = strategicpatch.StrategicMergePatch(original, patch, schema); err != nil {
			return nil, nil, apierrors.NewBadRequest(err.Error())
		}
	}
	warnings, err := decodeBody(patched, into, directive)
	if err != nil {
		return nil, nil, err
	}
	return into, warnings, nil
}
