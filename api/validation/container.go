// container.go: one container's fields (k8s.io/kubernetes pkg/apis/core/validation validateContainers
// and its helpers): name, image, ports, env, imagePullPolicy, resources and probes, plus the checks
// across a pod's containers (unique names, no two containers claiming one host port).
package validation

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
	"kubesim/api/resource"
)

var (
	supportedPullPolicies = []api.PullPolicy{api.PullAlways, api.PullIfNotPresent, api.PullNever}
	supportedHTTPSchemes  = []api.URIScheme{api.URISchemeHTTP, api.URISchemeHTTPS}
)

// validateContainers checks a pod's containers, of which there must be at least one.
func validateContainers(containers []api.Container, path *field.Path) field.ErrorList {
	if len(containers) == 0 {
		return field.ErrorList{field.Required(path, "")}
	}
	var errs field.ErrorList
	names := map[string]bool{}
	hostPorts := map[string]bool{}
	for i := range containers {
		c := &containers[i]
		idx := path.Index(i)
		errs = append(errs, validateContainer(c, idx)...)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(idx.Child("name"), c.Name))
		}
		names[c.Name] = true
		// Two containers of one pod cannot both bind the same port on the node.
		for j, port := range c.Ports {
			if port.HostPort == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", port.HostIP, port.Protocol, port.HostPort)
			if hostPorts[key] {
				errs = append(errs, field.Duplicate(idx.Child("ports").Index(j).Child("hostPort"), key))
			}
			hostPorts[key] = true
		}
	}
	return errs
}

func validateContainer(c *api.Container, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), ""))
	} else {
		errs = append(errs, validateName(IsDNS1123Label, c.Name, path.Child("name"))...)
	}
	if c.Image == "" {
		errs = append(errs, field.Required(path.Child("image"), ""))
	}
	errs = append(errs, validateContainerPorts(c.Ports, path.Child("ports"))...)
	errs = append(errs, validateEnv(c.Env, path.Child("env"))...)
	errs = append(errs, validateEnvSources(c, path)...)
	errs = append(errs, validateEnum(c.ImagePullPolicy, supportedPullPolicies, path.Child("imagePullPolicy"))...)
	errs = append(errs, validateResourceRequirements(&c.Resources, path.Child("resources"))...)
	errs = append(errs, validateProbe(c.LivenessProbe, path.Child("livenessProbe"))...)
	errs = append(errs, validateProbe(c.ReadinessProbe, path.Child("readinessProbe"))...)
	errs = append(errs, validateProbe(c.StartupProbe, path.Child("startupProbe"))...)
	// A liveness or startup probe that needed several successes would only delay a restart decision.
	if c.LivenessProbe != nil && c.LivenessProbe.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(path.Child("livenessProbe").Child("successThreshold"), c.LivenessProbe.SuccessThreshold, "must be 1"))
	}
	if c.StartupProbe != nil && c.StartupProbe.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(path.Child("startupProbe").Child("successThreshold"), c.StartupProbe.SuccessThreshold, "must be 1"))
	}
	return errs
}

func validateContainerPorts(ports []api.ContainerPort, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		idx := path.Index(i)
		if port.Name != "" {
			if msgs := isValidPortName(port.Name); len(msgs) > 0 {
				for _, msg := range msgs {
					errs = append(errs, field.Invalid(idx.Child("name"), port.Name, msg))
				}
			} else if names[port.Name] {
				errs = append(errs, field.Duplicate(idx.Child("name"), port.Name))
			}
			names[port.Name] = true
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(idx.Child("containerPort"), ""))
		} else {
			for _, msg := range isValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(idx.Child("containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range isValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(idx.Child("hostPort"), port.HostPort, msg))
			}
		}
		errs = append(errs, validateEnum(port.Protocol, supportedPortProtocols, idx.Child("protocol"))...)
	}
	return errs
}

// validateEnv applies Kubernetes' relaxed environment variable rule (the default since 1.32): any
// printable ASCII except '='.
func validateEnv(env []api.EnvVar, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range env {
		namePath := path.Index(i).Child("name")
		if ev.Name == "" {
			errs = append(errs, field.Required(namePath, ""))
			continue
		}
		if !isEnvVarName(ev.Name) {
			errs = append(errs, field.Invalid(namePath, ev.Name, envVarNameMsg))
		}
	}
	return errs
}

const envVarNameMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='"

// isEnvVarName is the relaxed rule for an environment variable's name (or an envFrom prefix).
func isEnvVarName(name string) bool {
	for _, r := range name {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) || r == '=' {
			return false
		}
	}
	return true
}

// validateResourceRequirements checks requests and limits: known resource names, no negative
// quantities, and no request above its limit (the scheduler reserves requests, the kubelet enforces
// limits, so a request above the limit could never be used). Extended resources ("example.com/gpu")
// cannot be overcommitted: they are whole units and a request must equal its limit.
func validateResourceRequirements(req *api.ResourceRequirements, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := path.Child("limits"), path.Child("requests")
	for _, name := range sortedKeys(req.Limits) {
		errs = append(errs, validateContainerResource(name, req.Limits[name], limPath.Key(string(name)))...)
	}
	for _, name := range sortedKeys(req.Requests) {
		q := req.Requests[name]
		errs = append(errs, validateContainerResource(name, q, reqPath.Key(string(name)))...)
		limit, hasLimit := req.Limits[name]
		switch {
		case hasLimit && !overcommitAllowed(name) && q.Cmp(limit) != 0:
			errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, limit.String())))
		case hasLimit && q.Cmp(limit) > 0:
			errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
		case !hasLimit && !overcommitAllowed(name):
			errs = append(errs, field.Required(limPath, "Limit must be set for non overcommitable resources"))
		}
	}
	return errs
}

func validateContainerResource(name resource.ResourceName, q resource.Quantity, path *field.Path) field.ErrorList {
	errs := validateName(labels.IsQualifiedName, string(name), path)
	if len(errs) == 0 && !strings.Contains(string(name), "/") && !isStandardContainerResource(name) {
		errs = append(errs, field.Invalid(path, name, "must be a standard resource for containers"))
	}
	errs = append(errs, validateNonnegativeQuantity(q, path)...)
	if !isNativeResource(name) && q.MilliValue()%1000 != 0 {
		errs = append(errs, field.Invalid(path, q.String(), isNotIntegerErrorMsg))
	}
	return errs
}

func validateNonnegativeQuantity(q resource.Quantity, path *field.Path) field.ErrorList {
	if q.Sign() < 0 {
		return field.ErrorList{field.Invalid(path, q.String(), isNegativeErrorMsg)}
	}
	return nil
}

func isStandardContainerResource(name resource.ResourceName) bool {
	switch name {
	case resource.ResourceCPU, resource.ResourceMemory, resource.ResourceEphemeralStorage:
		return true
	}
	return strings.HasPrefix(string(name), "hugepages-")
}

// isNativeResource: Kubernetes' own resources have no domain or a kubernetes.io one; anything else
// is an extended resource advertised by a device plugin.
func isNativeResource(name resource.ResourceName) bool {
	return !strings.Contains(string(name), "/") || strings.Contains(string(name), "kubernetes.io/")
}

func overcommitAllowed(name resource.ResourceName) bool {
	return isNativeResource(name) && !strings.HasPrefix(string(name), "hugepages-")
}

// validateProbe checks a probe's handler (exactly one of exec, httpGet, tcpSocket) and its timings.
// Defaulting sets the timings to Kubernetes' defaults (period 10s, timeout 1s, thresholds 1 and 3);
// validation only rejects negatives.
func validateProbe(probe *api.Probe, path *field.Path) field.ErrorList {
	if probe == nil {
		return nil
	}
	errs := validateProbeHandler(&probe.ProbeHandler, path)
	errs = append(errs, ValidateNonnegativeField(int64(probe.InitialDelaySeconds), path.Child("initialDelaySeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.TimeoutSeconds), path.Child("timeoutSeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.PeriodSeconds), path.Child("periodSeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.SuccessThreshold), path.Child("successThreshold"))...)
	errs = append(errs, ValidateNonnegativeField(int64(probe.FailureThreshold), path.Child("failureThreshold"))...)
	return errs
}

func validateProbeHandler(h *api.ProbeHandler, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	handlers := 0
	oneHandler := func(name string) bool {
		handlers++
		if handlers > 1 {
			errs = append(errs, field.Forbidden(path.Child(name), "may not specify more than 1 handler type"))
			return false
		}
		return true
	}
	if h.Exec != nil && oneHandler("exec") && len(h.Exec.Command) == 0 {
		errs = append(errs, field.Required(path.Child("exec").Child("command"), ""))
	}
	if h.HTTPGet != nil && oneHandler("httpGet") {
		get := path.Child("httpGet")
		if h.HTTPGet.Path == "" {
			errs = append(errs, field.Required(get.Child("path"), ""))
		}
		errs = append(errs, ValidatePortNumOrName(h.HTTPGet.Port, get.Child("port"))...)
		if !slices.Contains(supportedHTTPSchemes, h.HTTPGet.Scheme) {
			errs = append(errs, field.NotSupported(get.Child("scheme"), h.HTTPGet.Scheme, supportedHTTPSchemes))
		}
	}
	if h.TCPSocket != nil && oneHandler("tcpSocket") {
		errs = append(errs, ValidatePortNumOrName(h.TCPSocket.Port, path.Child("tcpSocket").Child("port"))...)
	}
	if handlers == 0 {
		errs = append(errs, field.Required(path, "must specify a handler type"))
	}
	return errs
}

// validateInitContainers checks init containers as containers, with names unique across init and app
// containers, and no probes: an init container runs to completion, so nothing would act on one.
// (A restartable init container, a sidecar with restartPolicy Always, may have them; kubesim does not
// model sidecars, and drops that field with a warning.)
func validateInitContainers(spec *api.PodSpec, volumes map[string]bool, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for _, c := range spec.Containers {
		names[c.Name] = true
	}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		idx := path.Index(i)
		errs = append(errs, validateContainer(c, idx)...)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(idx.Child("name"), c.Name))
		}
		names[c.Name] = true
		for _, p := range []struct {
			name  string
			probe *api.Probe
		}{{"livenessProbe", c.LivenessProbe}, {"readinessProbe", c.ReadinessProbe}, {"startupProbe", c.StartupProbe}} {
			if p.probe != nil {
				errs = append(errs, field.Forbidden(idx.Child(p.name), "may not be set for init containers without restartPolicy=Always"))
			}
		}
		errs = append(errs, validateVolumeMounts(c.VolumeMounts, volumes, idx.Child("volumeMounts"))...)
	}
	return errs
}
