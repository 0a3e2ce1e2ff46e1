// admission.go: gates 3 and 5, admission control. After a request is authorised and before it is
// stored, admission plugins may change the object (mutating: fill in defaults, inject a service
// account or tolerations) or refuse it (validating: quota, namespace lifecycle). Kubernetes runs the
// mutating plugins first, then schema validation, then the validating plugins; so does kubesim.
//
// Plugins here, in order: defaulting (Kubernetes applies these defaults while decoding the request;
// kubesim shows them as an admission step so the trace names each one), NamespaceLifecycle,
// ServiceAccount, DefaultTolerationSeconds, Priority, then the mutating admission webhooks
// (webhook.go). Validating: NodeRestriction (noderestriction.go), ResourceQuota (quota.go), then the
// validating admission webhooks.
package apiserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// admissionAttributes is what a plugin sees of a write: who, what, the object and, for updates, the
// object as it was.
type admissionAttributes struct {
	req  *wire.Request
	res  *api.Resource
	user User
	obj  api.Object
	old  api.Object // nil on create
	// traced says that the trace will show what the plugins changed: only then do they describe
	// their changes (the words cost allocations on every write).
	traced bool
}

func (a *admissionAttributes) creating() bool { return a.old == nil }

// mutatingPlugin may change the object; it returns one line per change for the trace, when the
// attributes say it is traced.
type mutatingPlugin interface {
	Name() string
	Admit(ctx context.Context, a *admissionAttributes) ([]string, error)
}

// validatingPlugin may only refuse.
type validatingPlugin interface {
	Name() string
	Validate(ctx context.Context, a *admissionAttributes) error
}

// defaulting fills in what the user left out, as Kubernetes' SetDefaults_* functions do.
type defaulting struct{}

func (defaulting) Name() string { return "defaulting" }

func (defaulting) Admit(_ context.Context, a *admissionAttributes) ([]string, error) {
	if !a.traced {
		api.ApplyDefaults(a.obj)
		return nil, nil
	}
	return api.SetDefaults(a.obj), nil
}

// namespaceLifecycle refuses new objects in a namespace that does not exist or is being deleted.
type namespaceLifecycle struct{ s *Server }

func (namespaceLifecycle) Name() string { return "NamespaceLifecycle" }

func (p namespaceLifecycle) Admit(ctx context.Context, a *admissionAttributes) ([]string, error) {
	if !a.creating() || !a.res.Namespaced {
		return nil, nil
	}
	if err := p.s.fresh(ctx, "namespaces"); err != nil {
		return nil, deadlineError(err)
	}
	nsRes, _ := api.ResourceFor("namespaces")
	ns, _ := p.s.cache.get(nsRes, a.req.Namespace).(*api.Namespace)
	if ns == nil {
		return nil, apierrors.NewNotFound("namespaces", a.req.Namespace)
	}
	if ns.Status.Phase == api.NamespaceTerminating && a.res.Name != "events" {
		return nil, apierrors.NewForbidden(a.res.GroupResource(), a.obj.GetObjectMeta().Name,
			fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", a.req.Namespace))
	}
	return nil, nil
}

// serviceAccountAdmission gives every pod a service account ("default" unless named) and refuses pods
// whose service account does not exist yet, as Kubernetes' ServiceAccount plugin does (the
// serviceaccount controller creates "default" in every namespace).
type serviceAccountAdmission struct{ s *Server }

func (serviceAccountAdmission) Name() string { return "ServiceAccount" }

func (p serviceAccountAdmission) Admit(ctx context.Context, a *admissionAttributes) ([]string, error) {
	pod, ok := a.obj.(*api.Pod)
	if !ok || !a.creating() {
		return nil, nil
	}
	// A mirror pod's spec is the kubelet's static pod's: changing it would make the kubelet replace
	// it. It gets no service account, and may not name one.
	if _, mirror := pod.Annotations[mirrorPodAnnotation]; mirror {
		if pod.Spec.ServiceAccountName != "" {
			return nil, apierrors.NewForbidden("pods", pod.Name, "a mirror pod may not reference service accounts")
		}
		return nil, nil
	}
	var changes []string
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = "default"
		if a.traced {
			changes = append(changes, "serviceAccountName: default")
		}
	}
	if err := p.s.fresh(ctx, "serviceaccounts"); err != nil {
		return nil, deadlineError(err)
	}
	saRes, _ := api.ResourceFor("serviceaccounts")
	sa, _ := p.s.cache.get(saRes, pod.Namespace+"/"+pod.Spec.ServiceAccountName).(*api.ServiceAccount)
	if sa == nil {
		return nil, apierrors.NewForbidden("pods", pod.Name, fmt.Sprintf(
			"error looking up service account %s/%s: serviceaccount %q not found",
			pod.Namespace, pod.Spec.ServiceAccountName, pod.Spec.ServiceAccountName))
	}
	if automount(sa, pod) {
		if name := p.mountToken(pod); name != "" && a.traced {
			changes = append(changes, fmt.Sprintf("volume %s (token, ca.crt, namespace) mounted at %s", name, ServiceAccountTokenMountPath))
		}
	}
	if len(pod.Spec.ImagePullSecrets) == 0 && len(sa.ImagePullSecrets) > 0 {
		pod.Spec.ImagePullSecrets = slices.Clone(sa.ImagePullSecrets)
		if a.traced {
			changes = append(changes, "imagePullSecrets from service account "+sa.Name)
		}
	}
	return changes, nil
}

// The kube-api-access volume: what a pod's containers find at ServiceAccountTokenMountPath.
const (
	ServiceAccountTokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	serviceAccountVolumePrefix   = "kube-api-access-"
	// tokenExpirationSeconds is what the plugin asks for (serviceaccount.WarnOnlyBoundTokenExpirationSeconds):
	// an hour and 7 seconds, a length the token authenticator recognises as the default's.
	tokenExpirationSeconds = 3607
)

// automount is shouldAutomount: the pod's automountServiceAccountToken, else its service account's,
// else true.
func automount(sa *api.ServiceAccount, pod *api.Pod) bool {
	switch {
	case pod.Spec.AutomountServiceAccountToken != nil:
		return *pod.Spec.AutomountServiceAccountToken
	case sa.AutomountServiceAccountToken != nil:
		return *sa.AutomountServiceAccountToken
	}
	return true
}

// mountToken is mountServiceAccountToken: every container (init containers first) that mounts
// nothing at ServiceAccountTokenMountPath gets the kube-api-access-xxxxx volume there, read-only,
// and the pod gets the volume if a container needs it and it has none yet. It returns the name of
// the volume it added ("" if none).
func (p serviceAccountAdmission) mountToken(pod *api.Pod) string {
	name := ""
	for _, v := range pod.Spec.Volumes {
		if strings.HasPrefix(v.Name, serviceAccountVolumePrefix) {
			name = v.Name
			break
		}
	}
	had := name != ""
	if !had {
		name = p.s.tokenVolumeName()
	}
	needed := false
	mount := func(containers []api.Container) {
		for i := range containers {
			c := &containers[i]
			if !slices.ContainsFunc(c.VolumeMounts, func(m api.VolumeMount) bool { return m.MountPath == ServiceAccountTokenMountPath }) {
				c.VolumeMounts = append(c.VolumeMounts, api.VolumeMount{Name: name, ReadOnly: true, MountPath: ServiceAccountTokenMountPath})
				needed = true
			}
		}
	}
	mount(pod.Spec.InitContainers)
	mount(pod.Spec.Containers)
	if had || !needed {
		return ""
	}
	pod.Spec.Volumes = append(pod.Spec.Volumes, api.Volume{Name: name, VolumeSource: api.VolumeSource{Projected: tokenVolumeSource()}})
	return name
}

// tokenVolumeSource is TokenVolumeSource: the pod's token, the cluster's CA and its namespace.
func tokenVolumeSource() *api.ProjectedVolumeSource {
	return &api.ProjectedVolumeSource{
		DefaultMode: api.Ptr[int32](0o644),
		Sources: []api.VolumeProjection{
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: api.Ptr[int64](tokenExpirationSeconds)}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: api.RootCAConfigMap},
				Items: []api.KeyToPath{{Key: api.RootCAKey, Path: "ca.crt"}}}},
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "namespace",
				FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}
}

// defaultTolerationSeconds lets every pod tolerate a not-ready or unreachable node for 300 seconds:
// this is why pods on a dead node are evicted five minutes after its taint appears.
type defaultTolerationSeconds struct{}

// DefaultTolerationSeconds is the admission default (--default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds).
const DefaultTolerationSeconds int64 = 300

func (defaultTolerationSeconds) Name() string { return "DefaultTolerationSeconds" }

func (defaultTolerationSeconds) Admit(_ context.Context, a *admissionAttributes) ([]string, error) {
	pod, ok := a.obj.(*api.Pod)
	if !ok || !a.creating() {
		return nil, nil
	}
	var missing []string
	for _, key := range []string{api.TaintNodeNotReady, api.TaintNodeUnreachable} {
		if !toleratesNoExecute(pod.Spec.Tolerations, key) {
			missing = append(missing, key)
		}
	}
	pod.Spec.Tolerations = slices.Grow(pod.Spec.Tolerations, len(missing)) // one allocation for both
	var changes []string
	for _, key := range missing {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, api.Toleration{
			Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute,
			TolerationSeconds: api.Ptr(DefaultTolerationSeconds),
		})
		if a.traced {
			changes = append(changes, fmt.Sprintf("toleration %s:NoExecute for %ds", key, DefaultTolerationSeconds))
		}
	}
	return changes, nil
}

func toleratesNoExecute(ts []api.Toleration, key string) bool {
	for _, t := range ts {
		if (t.Key == key || t.Key == "" && t.Operator == api.TolerationOpExists) &&
			(t.Effect == api.TaintEffectNoExecute || t.Effect == "") {
			return true
		}
	}
	return false
}

// priorityAdmission resolves a pod's priorityClassName into spec.priority (the scheduler's queue and
// preemption read the number), using the globalDefault class when none is named.
type priorityAdmission struct{ s *Server }

func (priorityAdmission) Name() string { return "Priority" }

func (p priorityAdmission) Admit(ctx context.Context, a *admissionAttributes) ([]string, error) {
	pod, ok := a.obj.(*api.Pod)
	if !ok || !a.creating() {
		return nil, nil
	}
	if err := p.s.fresh(ctx, "priorityclasses"); err != nil {
		return nil, deadlineError(err)
	}
	pcRes, _ := api.ResourceFor("priorityclasses")
	if pod.Spec.PriorityClassName == "" {
		objs, _ := p.s.cache.list(pcRes, selection{labels: everythingLabels(), fields: everythingFields()})
		for _, o := range objs {
			if pc := o.(*api.PriorityClass); pc.GlobalDefault {
				pod.Spec.PriorityClassName, pod.Spec.Priority = pc.Name, api.Ptr(pc.Value)
				if !a.traced {
					return nil, nil
				}
				return []string{fmt.Sprintf("priority %d from the global default PriorityClass %s", pc.Value, pc.Name)}, nil
			}
		}
		if pod.Spec.Priority == nil {
			pod.Spec.Priority = api.Ptr(int32(0))
		}
		return nil, nil
	}
	pc, _ := p.s.cache.get(pcRes, pod.Spec.PriorityClassName).(*api.PriorityClass)
	if pc == nil {
		return nil, apierrors.NewForbidden("pods", pod.Name, fmt.Sprintf("no PriorityClass with name %s was found", pod.Spec.PriorityClassName))
	}
	pod.Spec.Priority = api.Ptr(pc.Value)
	if !a.traced {
		return nil, nil
	}
	return []string{fmt.Sprintf("priority %d from PriorityClass %s", pc.Value, pc.Name)}, nil
}
