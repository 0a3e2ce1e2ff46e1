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
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
)

// protobufMediaType is the media type of Kubernetes' protobuf encoding.
const protobufMediaType = "application/vnd.kubernetes.protobuf"

// protobufSerializer decodes the k8s.io/api kinds kubesim serves, and the access reviews that
// `kubectl auth can-i` sends.
var protobufSerializer = func() *protobuf.Serializer {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, authorizationv1.AddToScheme, autoscalingv1.AddToScheme,
		coordinationv1.AddToScheme, policyv1.AddToScheme, rbacv1.AddToScheme, schedulingv1.AddToScheme,
		admissionregistrationv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err) // the k8s.io/api registrations are static
		}
	}
	return protobuf.NewSerializer(scheme, scheme)
}()

// protobufToJSON turns a protobuf body into the JSON of the same object.
func protobufToJSON(data []byte) ([]byte, error) {
	obj, _, err := protobufSerializer.Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decoding protobuf: %w", err)
	}
	return json.Marshal(obj)
}
