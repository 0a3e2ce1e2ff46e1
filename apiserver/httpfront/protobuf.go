// protobuf.go: request bodies in Kubernetes' protobuf encoding (application/vnd.kubernetes.protobuf),
// which kubectl's typed clients send (`kubectl create deployment`, `kubectl create namespace`). The
// body is decoded into the k8s.io/api type it names, then re-encoded as JSON: kubesim's types share
// Kubernetes' JSON field names, so the JSON decodes into the kubesim object with the usual field
// validation. A field that Kubernetes has and kubesim does not is reported like an unknown JSON field.
package httpfront

import (
	"encoding/json"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
)

// protobufMediaType is the media type of Kubernetes' protobuf encoding.
const protobufMediaType = "application/vnd.kubernetes.protobuf"

// kubeScheme holds the k8s.io/api types of the kinds kubesim serves, the access reviews that `kubectl
// auth can-i` sends, and the subresources' bodies: protobuf bodies decode into them, and the OpenAPI
// schemas are read from them (openapi_schema.go).
var kubeScheme = func() *runtime.Scheme {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, authenticationv1.AddToScheme, authorizationv1.AddToScheme, autoscalingv1.AddToScheme,
		coordinationv1.AddToScheme, discoveryv1.AddToScheme, policyv1.AddToScheme, rbacv1.AddToScheme, schedulingv1.AddToScheme,
		admissionregistrationv1.AddToScheme, storagev1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err) // the k8s.io/api registrations are static
		}
	}
	return scheme
}()

// protobufSerializer decodes protobuf bodies of kubeScheme's kinds.
var protobufSerializer = protobuf.NewSerializer(kubeScheme, kubeScheme)

// protobufToJSON turns a protobuf body into the JSON of the same object.
func protobufToJSON(data []byte) ([]byte, error) {
	obj, _, err := protobufSerializer.Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decoding protobuf: %w", err)
	}
	return json.Marshal(obj)
}
