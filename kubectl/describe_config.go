// describe_config.go: what kubectl describe prints about configuration and storage: a ConfigMap
// (ConfigMapDescriber), a Secret (sizes only, never the values: describeSecret), and a pod's
// environment sources, mounts and volumes (describeContainerEnvVars, describeContainerEnvFrom,
// describeContainerVolumes and describeVolumes in k8s.io/kubectl/pkg/describe).
package kubectl

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"text/tabwriter"

	"kubesim/api"
)

// describeConfigMap prints every key and its value, then the sizes of the binary keys.
func describeConfigMap(w *tabwriter.Writer, cm *api.ConfigMap) {
	describeHeader(w, &cm.ObjectMeta)
	fmt.Fprintf(w, "\nData\n====\n")
	for _, key := range slices.Sorted(maps.Keys(cm.Data)) {
		fmt.Fprintf(w, "%s:\n----\n%s\n\n", key, cm.Data[key])
	}
	fmt.Fprintf(w, "\nBinaryData\n====\n")
	for _, key := range slices.Sorted(maps.Keys(cm.BinaryData)) {
		fmt.Fprintf(w, "%s: %d bytes\n", key, len(cm.BinaryData[key]))
	}
	fmt.Fprintf(w, "\n")
}

// describeSecret prints the type and the size of each key: describe never shows a Secret's values.
func describeSecret(w *tabwriter.Writer, s *api.Secret) {
	describeHeader(w, &s.ObjectMeta)
	fmt.Fprintf(w, "\nType:\t%s\n", s.Type)
	fmt.Fprintf(w, "\nData\n====\n")
	for _, key := range slices.Sorted(maps.Keys(s.Data)) {
		fmt.Fprintf(w, "%s:\t%d bytes\n", key, len(s.Data[key]))
	}
}

// describeHeader is the shorter head the ConfigMap and Secret describers print (no creation time).
func describeHeader(w *tabwriter.Writer, m *api.ObjectMeta) {
	fmt.Fprintf(w, "Name:\t%s\n", m.Name)
	fmt.Fprintf(w, "Namespace:\t%s\n", m.Namespace)
	describeMap(w, "Labels", m.Labels, "=")
	describeMap(w, "Annotations", m.Annotations, ": ")
}

// describeContainerConfig prints a container's Environment Variables from (only when it has some, as
// kubectl does), Environment, and Mounts.
// A fieldRef shows what it resolves to when describe can tell from the pod's metadata, and a
// resourceFieldRef the container's own figure ("node allocatable" for an unset cpu or memory limit).
func describeContainerConfig(w *tabwriter.Writer, p *api.Pod, c *api.Container) {
	if len(c.EnvFrom) > 0 { // kubectl leaves the section out when there is nothing in it
		fmt.Fprintf(w, "    Environment Variables from:\n")
	}
	for _, e := range c.EnvFrom {
		from, name, optional := "Secret", "", (*bool)(nil)
		switch {
		case e.ConfigMapRef != nil:
			from, name, optional = "ConfigMap", e.ConfigMapRef.Name, e.ConfigMapRef.Optional
		case e.SecretRef != nil:
			name, optional = e.SecretRef.Name, e.SecretRef.Optional
		}
		if e.Prefix != "" {
			from += fmt.Sprintf(" with prefix '%s'", e.Prefix)
		}
		fmt.Fprintf(w, "      %s\t%s\tOptional: %t\n", name, from, isTrue(optional))
	}
	section(w, "    Environment", len(c.Env))
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			fmt.Fprintf(w, "      %s:\t%s\n", e.Name, e.Value)
		case e.ValueFrom.FieldRef != nil:
			ref := e.ValueFrom.FieldRef
			value, _ := api.PodMetadataField(p, ref.FieldPath) // spec and status paths print empty, as in kubectl
			fmt.Fprintf(w, "      %s:\t%s (%s:%s)\n", e.Name, value, ref.APIVersion, ref.FieldPath)
		case e.ValueFrom.ResourceFieldRef != nil:
			ref := e.ValueFrom.ResourceFieldRef
			value, _ := api.ContainerResourceValue(ref, c)
			if value == "0" && (ref.Resource == "limits.cpu" || ref.Resource == "limits.memory") {
				value = "node allocatable"
			}
			fmt.Fprintf(w, "      %s:\t%s (%s)\n", e.Name, value, ref.Resource)
		case e.ValueFrom.SecretKeyRef != nil:
			ref := e.ValueFrom.SecretKeyRef
			fmt.Fprintf(w, "      %s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, ref.Key, ref.Name, isTrue(ref.Optional))
		case e.ValueFrom.ConfigMapKeyRef != nil:
			ref := e.ValueFrom.ConfigMapKeyRef
			fmt.Fprintf(w, "      %s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, ref.Key, ref.Name, isTrue(ref.Optional))
		}
	}
	if !section(w, "    Mounts", len(c.VolumeMounts)) {
		return
	}
	mounts := slices.Clone(c.VolumeMounts)
	slices.SortStableFunc(mounts, func(a, b api.VolumeMount) int { return cmp.Compare(a.MountPath, b.MountPath) })
	for _, m := range mounts {
		flags := "rw"
		if m.ReadOnly {
			flags = "ro"
		}
		if m.SubPath != "" {
			flags += fmt.Sprintf(",path=%q", m.SubPath)
		}
		fmt.Fprintf(w, "      %s from %s (%s)\n", m.MountPath, m.Name, flags)
	}
}

// describeVolumes prints a pod's volumes, each with its source.
func describeVolumes(w *tabwriter.Writer, volumes []api.Volume) {
	if !section(w, "Volumes", len(volumes)) {
		return
	}
	for _, v := range volumes {
		fmt.Fprintf(w, "  %s:\n", v.Name)
		switch {
		case v.EmptyDir != nil:
			limit := "<unset>"
			if v.EmptyDir.SizeLimit != nil && v.EmptyDir.SizeLimit.Sign() > 0 {
				limit = v.EmptyDir.SizeLimit.String()
			}
			fmt.Fprintf(w, "    Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%s\n    SizeLimit:\t%s\n", v.EmptyDir.Medium, limit)
		case v.ConfigMap != nil:
			fmt.Fprintf(w, "    Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%s\n    Optional:\t%t\n", v.ConfigMap.Name, isTrue(v.ConfigMap.Optional))
		case v.Secret != nil:
			fmt.Fprintf(w, "    Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%s\n    Optional:\t%t\n", v.Secret.SecretName, isTrue(v.Secret.Optional))
		case v.Projected != nil:
			fmt.Fprintf(w, "    Type:\tProjected (a volume that contains injected data from multiple sources)\n")
			for _, src := range v.Projected.Sources {
				switch {
				case src.Secret != nil:
					fmt.Fprintf(w, "    SecretName:\t%s\n    Optional:\t%t\n", src.Secret.Name, isTrue(src.Secret.Optional))
				case src.DownwardAPI != nil:
					fmt.Fprintf(w, "    DownwardAPI:\ttrue\n")
				case src.ConfigMap != nil:
					fmt.Fprintf(w, "    ConfigMapName:\t%s\n    Optional:\t%t\n", src.ConfigMap.Name, isTrue(src.ConfigMap.Optional))
				case src.ServiceAccountToken != nil && src.ServiceAccountToken.ExpirationSeconds != nil:
					fmt.Fprintf(w, "    TokenExpirationSeconds:\t%d\n", *src.ServiceAccountToken.ExpirationSeconds)
				}
			}
		case v.PersistentVolumeClaim != nil:
			fmt.Fprintf(w, "    Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%s\n    ReadOnly:\t%t\n",
				v.PersistentVolumeClaim.ClaimName, v.PersistentVolumeClaim.ReadOnly)
		default:
			fmt.Fprintf(w, "    <unknown>\n")
		}
	}
}

func isTrue(b *bool) bool { return b != nil && *b }
