// validate.go: the entry points the apiserver calls at its validation gate (the strategies'
// Validate and ValidateUpdate in k8s.io/kubernetes pkg/registry/*). Interface: ValidateObject,
// ValidateObjectUpdate.
package validation

import (
	"fmt"
	"reflect"

	"kubesim/api"
	"kubesim/api/field"
)

// ValidateObject checks an object about to be created and returns everything wrong with it; an empty
// list means valid. The apiserver has already set the namespace, generated the name and applied
// defaults. A kind without rules of its own gets the metadata checks of its scope.
func ValidateObject(obj api.Object) field.ErrorList {
	if isNil(obj) {
		return field.ErrorList{field.Required(field.NewPath("metadata"), "object is nil")}
	}
	switch o := obj.(type) {
	case *api.Pod:
		return ValidatePod(o)
	case *api.Deployment:
		return ValidateDeployment(o)
	case *api.ReplicaSet:
		return ValidateReplicaSet(o)
	case *api.DaemonSet:
		return ValidateDaemonSet(o)
	case *api.Node:
		return ValidateNode(o)
	case *api.Namespace:
		return ValidateNamespace(o)
	case *api.Service:
		return ValidateService(o)
	case *api.Endpoints:
		return ValidateEndpoints(o)
	case *api.EndpointSlice:
		return ValidateEndpointSlice(o)
	case *api.Event:
		return ValidateEvent(o)
	case *api.ServiceAccount:
		return ValidateServiceAccount(o)
	case *api.ResourceQuota:
		return ValidateResourceQuota(o)
	case *api.PodDisruptionBudget:
		return ValidatePodDisruptionBudget(o)
	case *api.ConfigMap:
		return ValidateConfigMap(o)
	case *api.Secret:
		return ValidateSecret(o)
	case *api.Lease:
		return ValidateLease(o)
	case *api.PriorityClass:
		return ValidatePriorityClass(o)
	case *api.PersistentVolume:
		return ValidatePersistentVolume(o)
	case *api.PersistentVolumeClaim:
		return ValidatePersistentVolumeClaim(o)
	case *api.StorageClass:
		return ValidateStorageClass(o)
	case *api.Role:
		return ValidateRole(o)
	case *api.ClusterRole:
		return ValidateClusterRole(o)
	case *api.RoleBinding:
		return ValidateRoleBinding(o)
	case *api.ClusterRoleBinding:
		return ValidateClusterRoleBinding(o)
	case *api.MutatingWebhookConfiguration, *api.ValidatingWebhookConfiguration:
		return ValidateWebhookConfiguration(o)
	}
	r, ok := api.ResourceOf(obj)
	if !ok {
		return field.ErrorList{field.Invalid(field.NewPath("kind"), fmt.Sprintf("%T", obj), "not a kind kubesim serves")}
	}
	return ValidateObjectMeta(obj.GetObjectMeta(), r.Namespaced, NameIsDNSSubdomain, field.NewPath("metadata"))
}

// ValidateObjectUpdate checks an update of the main resource (not of its status): the new object
// must be valid, and fields that are fixed after creation must not have changed. Immutable metadata
// (name, namespace, uid, creationTimestamp) is the apiserver's own check, not repeated here.
func ValidateObjectUpdate(newObj, oldObj api.Object) field.ErrorList {
	if isNil(newObj) || isNil(oldObj) {
		return field.ErrorList{field.Required(field.NewPath("metadata"), "object is nil")}
	}
	if reflect.TypeOf(newObj) != reflect.TypeOf(oldObj) {
		return field.ErrorList{field.Invalid(field.NewPath("kind"), newObj.GetTypeMeta().Kind,
			fmt.Sprintf("an update may not change the kind from %T to %T", oldObj, newObj))}
	}
	switch n := newObj.(type) {
	case *api.Pod:
		return ValidatePodUpdate(n, oldObj.(*api.Pod))
	case *api.Deployment:
		return ValidateDeploymentUpdate(n, oldObj.(*api.Deployment))
	case *api.ReplicaSet:
		return ValidateReplicaSetUpdate(n, oldObj.(*api.ReplicaSet))
	case *api.DaemonSet:
		return ValidateDaemonSetUpdate(n, oldObj.(*api.DaemonSet))
	case *api.Node:
		return ValidateNodeUpdate(n, oldObj.(*api.Node))
	case *api.Service:
		return ValidateServiceUpdate(n, oldObj.(*api.Service))
	case *api.EndpointSlice:
		return ValidateEndpointSliceUpdate(n, oldObj.(*api.EndpointSlice))
	case *api.PriorityClass:
		return ValidatePriorityClassUpdate(n, oldObj.(*api.PriorityClass))
	case *api.PersistentVolumeClaim:
		return ValidatePersistentVolumeClaimUpdate(n, oldObj.(*api.PersistentVolumeClaim))
	case *api.StorageClass:
		return ValidateStorageClassUpdate(n, oldObj.(*api.StorageClass))
	case *api.ConfigMap:
		return ValidateConfigMapUpdate(n, oldObj.(*api.ConfigMap))
	case *api.Secret:
		return ValidateSecretUpdate(n, oldObj.(*api.Secret))
	case *api.RoleBinding:
		return ValidateRoleBindingUpdate(n, oldObj.(*api.RoleBinding))
	case *api.ClusterRoleBinding:
		return ValidateClusterRoleBindingUpdate(n, oldObj.(*api.ClusterRoleBinding))
	}
	return ValidateObject(newObj)
}

// isNil reports a nil interface or a typed nil pointer such as (*api.Pod)(nil).
func isNil(obj api.Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
