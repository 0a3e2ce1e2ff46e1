// config.go: ConfigMap and Secret, and how pods refer to them and to volumes (k8s.io/kubernetes
// pkg/apis/core/validation ValidateConfigMap, ValidateSecret, ValidateVolumes, ValidateVolumeMounts,
// validateEnvVarValueFrom and ValidateEnvFrom). Interface: ValidateConfigMap, ValidateConfigMapUpdate,
// ValidateSecret, ValidateSecretUpdate; validateVolumes, validateVolumeMounts, validateEnvSources for
// the pod spec.
//
// What is not checked here: that the ConfigMap or Secret a pod names exists. A pod may be created
// first; the kubelet finds out when it starts the container (CreateContainerConfigError).
package validation

import (
	"regexp"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
)

const (
	configKeyFmt    = "[-._a-zA-Z0-9]+"
	configKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
	maxConfigKeyLen = 253
	maxSecretSize   = 1 * 1024 * 1024 // bytes of data in one ConfigMap or Secret
	immutableMsg    = "field is immutable when `immutable` is set"
	oneSourceMsg    = "may not have more than one field specified at a time"
)

var configKeyRegexp = regexp.MustCompile("^" + configKeyFmt + "$")

// IsConfigMapKey checks a key of a ConfigMap or Secret, which becomes a file name in a volume: so
// no "/", and not "." or "..".
func IsConfigMapKey(value string) []string {
	var errs []string
	if len(value) > maxConfigKeyLen {
		errs = append(errs, field.MaxLenError(maxConfigKeyLen))
	}
	if !configKeyRegexp.MatchString(value) {
		errs = append(errs, field.RegexError(configKeyErrMsg, configKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case value == ".":
		errs = append(errs, "must not be '.'")
	case value == "..":
		errs = append(errs, "must not be '..'")
	case strings.HasPrefix(value, ".."):
		errs = append(errs, "must not start with '..'")
	}
	return errs
}

func validateConfigKey(key string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range IsConfigMapKey(key) {
		errs = append(errs, field.Invalid(path, key, msg))
	}
	return errs
}

// ValidateConfigMap checks keys (valid, and not in both data and binaryData) and the 1 MiB limit.
func ValidateConfigMap(cm *api.ConfigMap) field.ErrorList {
	errs := ValidateObjectMeta(&cm.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	size := 0
	for _, key := range sortedKeys(cm.Data) {
		errs = append(errs, validateConfigKey(key, field.NewPath("data").Key(key))...)
		size += len(cm.Data[key])
	}
	for _, key := range sortedKeys(cm.BinaryData) {
		errs = append(errs, validateConfigKey(key, field.NewPath("binaryData").Key(key))...)
		if _, dup := cm.Data[key]; dup {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(key), key, "duplicate of key present in data"))
		}
		size += len(cm.BinaryData[key])
	}
	if size > maxSecretSize {
		errs = append(errs, field.TooLong(field.NewPath(""), maxSecretSize))
	}
	return errs
}

// ValidateConfigMapUpdate: an immutable ConfigMap keeps its data and stays immutable.
func ValidateConfigMapUpdate(newCM, oldCM *api.ConfigMap) field.ErrorList {
	return append(ValidateConfigMap(newCM), immutableErrors(newCM.Immutable, oldCM.Immutable, map[string]bool{
		"data":       !mapsEqual(newCM.Data, oldCM.Data, func(a, b string) bool { return a == b }),
		"binaryData": !mapsEqual(newCM.BinaryData, oldCM.BinaryData, bytesEqual),
	})...)
}

// ValidateSecret checks the keys of data (stringData has been merged in by then) and the 1 MiB limit.
func ValidateSecret(s *api.Secret) field.ErrorList {
	errs := ValidateObjectMeta(&s.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	size := 0
	for _, key := range sortedKeys(s.Data) {
		errs = append(errs, validateConfigKey(key, field.NewPath("data").Key(key))...)
		size += len(s.Data[key])
	}
	if size > maxSecretSize {
		errs = append(errs, field.TooLong(field.NewPath("data"), maxSecretSize))
	}
	return errs
}

// ValidateSecretUpdate: the type never changes; an immutable Secret keeps its data.
func ValidateSecretUpdate(newS, oldS *api.Secret) field.ErrorList {
	errs := ValidateSecret(newS)
	if newS.Type != oldS.Type {
		errs = append(errs, field.Invalid(field.NewPath("type"), newS.Type, "field is immutable"))
	}
	return append(errs, immutableErrors(newS.Immutable, oldS.Immutable, map[string]bool{"data": !mapsEqual(newS.Data, oldS.Data, bytesEqual)})...)
}

// immutableErrors: an object that was immutable stays immutable and keeps its data (changed says,
// per data field, whether the update changes it).
func immutableErrors(newImmutable, oldImmutable *bool, changed map[string]bool) field.ErrorList {
	if oldImmutable == nil || !*oldImmutable {
		return nil
	}
	var errs field.ErrorList
	if newImmutable == nil || !*newImmutable {
		errs = append(errs, field.Forbidden(field.NewPath("immutable"), immutableMsg))
	}
	for _, name := range sortedKeys(changed) {
		if changed[name] {
			errs = append(errs, field.Forbidden(field.NewPath(name), immutableMsg))
		}
	}
	return errs
}

func mapsEqual[V any](a, b map[string]V, eq func(x, y V) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !eq(v, w) {
			return false
		}
	}
	return true
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

// validateVolumes checks a pod's volumes: unique DNS-label names, exactly one source, and the
// source's required fields. It returns the names, for the volumeMounts to refer to.
func validateVolumes(volumes []api.Volume, path *field.Path) (map[string]bool, field.ErrorList) {
	var errs field.ErrorList
	names := map[string]bool{}
	for i := range volumes {
		v := &volumes[i]
		idx := path.Index(i)
		switch {
		case v.Name == "":
			errs = append(errs, field.Required(idx.Child("name"), ""))
		case names[v.Name]:
			errs = append(errs, field.Duplicate(idx.Child("name"), v.Name))
		default:
			errs = append(errs, validateName(IsDNS1123Label, v.Name, idx.Child("name"))...)
		}
		names[v.Name] = true
		errs = append(errs, validateVolumeSource(&v.VolumeSource, idx)...)
	}
	return names, errs
}

func validateVolumeSource(src *api.VolumeSource, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	sources := 0
	if src.EmptyDir != nil {
		sources++
		if src.EmptyDir.SizeLimit != nil && src.EmptyDir.SizeLimit.Sign() < 0 {
			errs = append(errs, field.Forbidden(path.Child("emptyDir").Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
		}
	}
	if cm := src.ConfigMap; cm != nil {
		sources++
		p := path.Child("configMap")
		if cm.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		}
		errs = append(errs, validateFileMode(cm.DefaultMode, p.Child("defaultMode"))...)
		errs = append(errs, validateKeyToPaths(cm.Items, p.Child("items"))...)
	}
	if s := src.Secret; s != nil {
		sources++
		p := path.Child("secret")
		if s.SecretName == "" {
			errs = append(errs, field.Required(p.Child("secretName"), ""))
		}
		errs = append(errs, validateFileMode(s.DefaultMode, p.Child("defaultMode"))...)
		errs = append(errs, validateKeyToPaths(s.Items, p.Child("items"))...)
	}
	if pvc := src.PersistentVolumeClaim; pvc != nil {
		sources++
		if pvc.ClaimName == "" {
			errs = append(errs, field.Required(path.Child("persistentVolumeClaim").Child("claimName"), ""))
		}
	}
	if pr := src.Projected; pr != nil {
		sources++
		errs = append(errs, validateProjected(pr, path.Child("projected"))...)
	}
	// A volume whose only source kubesim does not model (hostPath, nfs, ...) has none here: its source
	// was dropped with a warning when it was decoded, so no source is not an error.
	if sources > 1 {
		errs = append(errs, field.Forbidden(path, "may not specify more than 1 volume type"))
	}
	return errs
}

// validateProjected checks a projected volume as validateProjectedVolumeSource does: one kind of
// source per entry, no file path twice across the entries, a token living 10 minutes to 2^32
// seconds at a local path, each downward API file naming one field.
func validateProjected(pr *api.ProjectedVolumeSource, path *field.Path) field.ErrorList {
	errs := validateFileMode(pr.DefaultMode, path.Child("defaultMode"))
	seen := map[string]bool{}
	// claim reports a file path a second time as Kubernetes does, on the volume, with the value it
	// happens to name (the object for configMap and secret items, the path for downward API files).
	claim := func(file, value string) {
		if file == "" {
			return
		}
		if seen[file] {
			errs = append(errs, field.Invalid(path, value, "conflicting duplicate paths"))
		}
		seen[file] = true
	}
	// object checks a configMap or secret source: a name, and items that are valid and claimed.
	object := func(name string, items []api.KeyToPath, at *field.Path) {
		if name == "" {
			errs = append(errs, field.Required(at.Child("name"), ""))
		}
		errs = append(errs, validateKeyToPaths(items, at.Child("items"))...)
		for _, item := range items {
			claim(item.Path, name)
		}
	}
	for i, src := range pr.Sources {
		at := path.Child("sources").Index(i)
		kinds := 0
		if s := src.Secret; s != nil {
			kinds++
			object(s.Name, s.Items, at.Child("secret"))
		}
		if cm := src.ConfigMap; cm != nil {
			kinds++
			object(cm.Name, cm.Items, at.Child("configMap"))
		}
		if d := src.DownwardAPI; d != nil {
			kinds++
			for _, file := range d.Items {
				errs = append(errs, validateDownwardAPIFile(&file, at.Child("downwardAPI"))...)
				claim(file.Path, file.Path)
			}
		}
		if t := src.ServiceAccountToken; t != nil {
			kinds++
			p := at.Child("serviceAccountToken").Child("expirationSeconds")
			switch secs := api.Deref(t.ExpirationSeconds, 0); {
			case secs < 10*60:
				errs = append(errs, field.Invalid(p, secs, "may not specify a duration less than 10 minutes"))
			case secs > 1<<32:
				errs = append(errs, field.Invalid(p, secs, "may not specify a duration larger than 2^32 seconds"))
			}
			// Kubernetes reports a token's path at the volume's, not the source's.
			if t.Path == "" {
				errs = append(errs, field.Required(path.Child("path"), ""))
			} else {
				errs = append(errs, validateLocalPath(t.Path, path.Child("path"))...)
			}
		}
		if kinds > 1 {
			errs = append(errs, field.Forbidden(at, "may not specify more than 1 volume type per source"))
		}
	}
	return errs
}

// validateDownwardAPIFile checks one file of a downward API projection: a local path and exactly
// one of a pod field (those a volume may hold) and a container resource.
func validateDownwardAPIFile(file *api.DownwardAPIVolumeFile, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if file.Path == "" {
		errs = append(errs, field.Required(path.Child("path"), ""))
	}
	errs = append(errs, validateLocalPath(file.Path, path.Child("path"))...)
	switch {
	case file.FieldRef != nil:
		errs = append(errs, validateFieldRef(file.FieldRef, volumeFieldPaths, path.Child("fieldRef"))...)
		if file.ResourceFieldRef != nil {
			errs = append(errs, field.Invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case file.ResourceFieldRef != nil:
		errs = append(errs, validateResourceFieldRef(file.ResourceFieldRef, path.Child("resourceFieldRef"))...)
	default:
		errs = append(errs, field.Required(path, "one of fieldRef and resourceFieldRef is required"))
	}
	return append(errs, validateFileMode(file.Mode, path.Child("mode"))...)
}

// validateLocalPath is ValidateLocalNonReservedPath: relative, no ".." element, not starting "..".
func validateLocalPath(p string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.HasPrefix(p, "/") {
		errs = append(errs, field.Invalid(path, p, "must be a relative path"))
	}
	if hasDotDotElement(p) {
		errs = append(errs, field.Invalid(path, p, "must not contain '..'"))
	} else if strings.HasPrefix(p, "..") {
		errs = append(errs, field.Invalid(path, p, "must not start with '..'"))
	}
	return errs
}

func validateFileMode(mode *int32, path *field.Path) field.ErrorList {
	if mode != nil && (*mode < 0 || *mode > 0o777) {
		return field.ErrorList{field.Invalid(path, *mode, "must be a number between 0 and 0777 (octal), both inclusive")}
	}
	return nil
}

func validateKeyToPaths(items []api.KeyToPath, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, item := range items {
		idx := path.Index(i)
		if item.Key == "" {
			errs = append(errs, field.Required(idx.Child("key"), ""))
		}
		switch {
		case item.Path == "":
			errs = append(errs, field.Required(idx.Child("path"), ""))
		case strings.HasPrefix(item.Path, "/"):
			errs = append(errs, field.Invalid(idx.Child("path"), item.Path, "must be a relative path"))
		case strings.Contains("/"+item.Path+"/", "/../"):
			errs = append(errs, field.Invalid(idx.Child("path"), item.Path, "must not contain '..'"))
		}
		errs = append(errs, validateFileMode(item.Mode, idx.Child("mode"))...)
	}
	return errs
}

// validateVolumeMounts checks that each mount names a volume of the pod and has a unique mountPath.
func validateVolumeMounts(mounts []api.VolumeMount, volumes map[string]bool, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	paths := map[string]bool{}
	for i, m := range mounts {
		idx := path.Index(i)
		switch {
		case m.Name == "":
			errs = append(errs, field.Required(idx.Child("name"), ""))
		case !volumes[m.Name]:
			errs = append(errs, field.NotFound(idx.Child("name"), m.Name))
		}
		switch {
		case m.MountPath == "":
			errs = append(errs, field.Required(idx.Child("mountPath"), ""))
		case paths[m.MountPath]:
			errs = append(errs, field.Invalid(idx.Child("mountPath"), m.MountPath, "must be unique"))
		}
		paths[m.MountPath] = true
	}
	return errs
}

// validateEnvSources checks env[*].valueFrom and envFrom: one source each, named, with valid keys.
func validateEnvSources(c *api.Container, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range c.Env {
		if ev.ValueFrom == nil {
			continue
		}
		p := path.Child("env").Index(i).Child("valueFrom")
		from := ev.ValueFrom
		sources := 0
		if from.FieldRef != nil {
			sources++
			errs = append(errs, validateFieldRef(from.FieldRef, envFieldPaths, p.Child("fieldRef"))...)
		}
		if from.ResourceFieldRef != nil {
			sources++
			errs = append(errs, validateResourceFieldRef(from.ResourceFieldRef, p.Child("resourceFieldRef"))...)
		}
		if from.ConfigMapKeyRef != nil {
			sources++
			errs = append(errs, validateKeyRef(from.ConfigMapKeyRef.Name, from.ConfigMapKeyRef.Key, p.Child("configMapKeyRef"))...)
		}
		if from.SecretKeyRef != nil {
			sources++
			errs = append(errs, validateKeyRef(from.SecretKeyRef.Name, from.SecretKeyRef.Key, p.Child("secretKeyRef"))...)
		}
		switch {
		case sources == 0:
			errs = append(errs, field.Invalid(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
		case ev.Value != "":
			errs = append(errs, field.Invalid(p, "", "may not be specified when `value` is not empty"))
		case sources > 1:
			errs = append(errs, field.Invalid(p, "", oneSourceMsg))
		}
	}
	for i, ef := range c.EnvFrom {
		p := path.Child("envFrom").Index(i)
		if ef.Prefix != "" && !isEnvVarName(ef.Prefix) {
			errs = append(errs, field.Invalid(p.Child("prefix"), ef.Prefix, envVarNameMsg))
		}
		// Kubernetes reports a missing or doubled source on the list (envFrom), not the entry.
		switch {
		case ef.ConfigMapRef != nil && ef.SecretRef != nil:
			errs = append(errs, field.Invalid(path.Child("envFrom"), "", oneSourceMsg))
		case ef.ConfigMapRef != nil:
			errs = append(errs, validateRefName(ef.ConfigMapRef.Name, p.Child("configMapRef").Child("name"))...)
		case ef.SecretRef != nil:
			errs = append(errs, validateRefName(ef.SecretRef.Name, p.Child("secretRef").Child("name"))...)
		default:
			errs = append(errs, field.Invalid(path.Child("envFrom"), "", "must specify one of: `configMapRef` or `secretRef`"))
		}
	}
	return errs
}

func validateKeyRef(name, key string, path *field.Path) field.ErrorList {
	errs := validateRefName(name, path.Child("name"))
	if key == "" {
		return append(errs, field.Required(path.Child("key"), ""))
	}
	return append(errs, validateConfigKey(key, path.Child("key"))...)
}

func validateRefName(name string, path *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(path, "")}
	}
	return validateName(IsDNS1123Subdomain, name, path)
}

// hasDotDotElement says whether a slash-separated path has a ".." element, without splitting it
// into a slice (every projected and downward API file's path is checked).
func hasDotDotElement(p string) bool {
	for elem := range strings.SplitSeq(p, "/") {
		if elem == ".." {
			return true
		}
	}
	return false
}
