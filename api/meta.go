// meta.go: the metadata every object carries (metav1.TypeMeta, ObjectMeta, ListMeta, OwnerReference,
// LabelSelector, Time) and the Object interface that lets the apiserver treat all kinds alike.
package api

import (
	"encoding/json"
	"time"

	"kubesim/api/labels"
)

// TypeMeta names an object's kind and API version ("apps/v1", "Deployment"). It is inlined into every
// object, so its fields sit at the top level of the JSON as in Kubernetes.
type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// GetTypeMeta lets every kind that embeds TypeMeta satisfy Object.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }

// ObjectMeta is the metadata every persisted object has. The apiserver owns uid, resourceVersion,
// generation, creationTimestamp and deletionTimestamp; clients set the rest.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
	// ManagedFields records which field manager set which fields (server-side apply).
	ManagedFields []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// ManagedFieldsEntry is one field manager's share of an object: the fields it set, by an Apply or an
// Update, as a FieldsV1 set ({"f:spec":{"f:replicas":{}}}: a key per field, "k:{...}" per list item
// by its merge key, "." for the item itself, {} for a leaf).
type ManagedFieldsEntry struct {
	Manager     string          `json:"manager,omitempty"`
	Operation   string          `json:"operation,omitempty"`
	APIVersion  string          `json:"apiVersion,omitempty"`
	Time        *Time           `json:"time,omitempty"`
	FieldsType  string          `json:"fieldsType,omitempty"`
	FieldsV1    json.RawMessage `json:"fieldsV1,omitempty"`
	Subresource string          `json:"subresource,omitempty"`
}

// GetObjectMeta lets every kind that embeds ObjectMeta satisfy Object.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// Key is "namespace/name", or "name" for cluster-scoped objects: the key informers and work queues use
// (client-go's MetaNamespaceKeyFunc).
func (m *ObjectMeta) Key() string {
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// ControllerRef returns the owner reference with controller=true, if any.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// HasFinalizer reports whether the named finalizer is present.
func (m *ObjectMeta) HasFinalizer(name string) bool {
	for _, f := range m.Finalizers {
		if f == name {
			return true
		}
	}
	return false
}

// SetAnnotation sets one annotation, making the map if there is none.
func (m *ObjectMeta) SetAnnotation(key, value string) {
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[key] = value
}

// Object is what every kind satisfies by embedding TypeMeta and ObjectMeta.
type Object interface {
	GetTypeMeta() *TypeMeta
	GetObjectMeta() *ObjectMeta
}

// ListMeta is the metadata of a list: the etcd revision the list is consistent at.
type ListMeta struct {
	ResourceVersion string `json:"resourceVersion,omitempty"`
	Continue        string `json:"continue,omitempty"`
}

// List is the body of a list call (PodList, NodeList, ...): the items and the resourceVersion from
// which a watch continues without a gap.
type List[T any] struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`
	Items    []T `json:"items"`
}

// OwnerReference points from a dependent to its owner; the garbage collector follows it.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// LabelSelector is metav1.LabelSelector: matchLabels and matchExpressions are ANDed.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one set-based clause: key In/NotIn values, key Exists/DoesNotExist.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Label selector operators.
const (
	LabelSelectorOpIn           = "In"
	LabelSelectorOpNotIn        = "NotIn"
	LabelSelectorOpExists       = "Exists"
	LabelSelectorOpDoesNotExist = "DoesNotExist"
)

// Time is metav1.Time: a timestamp serialised as RFC 3339 in UTC with second precision, the way
// Kubernetes writes creationTimestamp. The zero Time serialises as null.
type Time struct {
	time.Time
}

// NewTime wraps t, truncated to seconds as the apiserver stores it.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Second)} }

// MicroTime is metav1.MicroTime, used by Lease renewTime and Event eventTime: microsecond precision.
type MicroTime struct {
	time.Time
}

// NewMicroTime wraps t, truncated to microseconds.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{t.UTC().Truncate(time.Microsecond)} }

// MarshalJSON writes RFC 3339 seconds, or null for the zero time (appendJSONTime, encode.go).
func (t Time) MarshalJSON() ([]byte, error) { return appendJSONTime(nil, t), nil }

// UnmarshalJSON reads RFC 3339 or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	return unmarshalTime(b, time.RFC3339, &t.Time)
}

// MarshalJSON writes RFC 3339 with microseconds, or null for the zero time (appendJSONMicroTime).
func (t MicroTime) MarshalJSON() ([]byte, error) { return appendJSONMicroTime(nil, t), nil }

// UnmarshalJSON reads RFC 3339 with exactly six fractional digits, as Kubernetes does, or null.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	return unmarshalTime(b, rfc3339Micro, &t.Time)
}

// rfc3339Micro is metav1.RFC3339Micro, the one layout of a MicroTime.
const rfc3339Micro = "2006-01-02T15:04:05.000000Z07:00"

func unmarshalTime(b []byte, layout string, into *time.Time) error {
	if string(b) == "null" {
		*into = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, err := time.Parse(layout, s)
	if err != nil {
		return err
	}
	*into = parsed.UTC()
	return nil
}

// Ptr returns a pointer to v: handy for the optional fields (*int32, *bool, *int64) Kubernetes uses.
func Ptr[T any](v T) *T { return &v }

// Deref returns *p, or def when p is nil (k8s.io/utils/ptr.Deref): reading an optional field with
// its default, as spec.replicas with 1 before admission has defaulted it.
func Deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// AsSelector converts a LabelSelector into a labels.Selector (metav1.LabelSelectorAsSelector). As in
// Kubernetes, a nil selector selects nothing and an empty one selects everything.
func (s *LabelSelector) AsSelector() (labels.Selector, error) {
	if s == nil {
		return labels.Nothing(), nil
	}
	exprs := make([]labels.Expression, 0, len(s.MatchExpressions))
	for _, e := range s.MatchExpressions {
		exprs = append(exprs, labels.Expression{Key: e.Key, Operator: e.Operator, Values: e.Values})
	}
	return labels.SelectorFromLabelSelector(s.MatchLabels, exprs)
}

// String renders the selector in kubectl's syntax ("app=nginx,tier in (web)"), or "<invalid>".
func (s *LabelSelector) String() string {
	sel, err := s.AsSelector()
	if err != nil {
		return "<invalid>"
	}
	return sel.String()
}
