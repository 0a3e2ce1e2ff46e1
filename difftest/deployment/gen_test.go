package deployment

import (
	"fmt"
	"math/rand/v2"
)

// Quantities in the forms people write them: canonical and not, decimal, binary and exponent,
// fractions finer than a milli-unit (the apiserver rounds them up), and values beyond an int64.
var quantities = []any{"100m", "250m", "0.5", "1", "2", "1.5", "1500m", "2000m", "0.1", "1.0001", "100u", "5n",
	"128Mi", "1Gi", "512Mi", "64Mi", "100Mi", "1.5Gi", "0.5Gi", "1Ki", "129M", "1G", "1e3", "12e6", "129e6",
	"128974848", "1k", "1.500", "0", "100Ti", "1Ei", "8Ei", "1E", "10000000000000000000", "1Ti", "3Pi",
	1, 0.25, 2048}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

func maybe(r *rand.Rand) bool { return r.IntN(3) == 0 }

func genLabels(r *rand.Rand, base map[string]any) map[string]any {
	m := map[string]any{}
	for k, v := range base {
		m[k] = v
	}
	for range r.IntN(3) {
		m[pick(r, "tier", "track", "app.kubernetes.io/name", "zone", "team")] = pick(r, "frontend", "stable", "canary", "a", "")
	}
	return m
}

func genTemplate(r *rand.Rand) map[string]any {
	meta := map[string]any{"labels": genLabels(r, map[string]any{"app": "web"})}
	if maybe(r) {
		meta["annotations"] = map[string]any{pick(r, "note", "prometheus.io/scrape", "kubectl.kubernetes.io/restartedAt"): pick(r, "true", "x", "2026-12-01T19:00:00Z")}
	}
	if r.IntN(10) == 0 {
		meta["annotations"] = map[string]any{}
	}
	spec := map[string]any{}
	var containers []any
	for i := range 1 + r.IntN(3) {
		containers = append(containers, genContainer(r, fmt.Sprintf("c%d", i)))
	}
	spec["containers"] = containers
	if r.IntN(5) == 0 {
		spec["initContainers"] = []any{genContainer(r, "init")}
	}
	if maybe(r) {
		spec["restartPolicy"] = "Always"
	}
	if maybe(r) {
		spec["terminationGracePeriodSeconds"] = pick(r, 0, 10, 30, 600)
	}
	if maybe(r) {
		spec["dnsPolicy"] = pick(r, "ClusterFirst", "Default", "ClusterFirstWithHostNet", "None")
	}
	if maybe(r) {
		spec["nodeSelector"] = map[string]any{pick(r, "disktype", "kubernetes.io/arch"): pick(r, "ssd", "amd64")}
	}
	if maybe(r) {
		spec["serviceAccountName"] = pick(r, "default", "builder")
	}
	if r.IntN(8) == 0 {
		spec["nodeName"] = "node-1"
	}
	if r.IntN(8) == 0 {
		spec["hostNetwork"] = pick(r, true, false)
	}
	if r.IntN(6) == 0 {
		spec["imagePullSecrets"] = []any{map[string]any{"name": "regcred"}}
	}
	if maybe(r) {
		spec["affinity"] = genAffinity(r)
	}
	if maybe(r) {
		spec["schedulerName"] = pick(r, "default-scheduler", "my-scheduler")
	}
	if maybe(r) {
		var ts []any
		for range 1 + r.IntN(3) {
			ts = append(ts, genToleration(r))
		}
		spec["tolerations"] = ts
	}
	if r.IntN(6) == 0 {
		spec["priorityClassName"] = "high"
	}
	if r.IntN(8) == 0 {
		spec["priority"] = pick(r, 0, 1000)
	}
	if r.IntN(8) == 0 {
		spec["preemptionPolicy"] = pick(r, "Never", "PreemptLowerPriority")
	}
	if maybe(r) {
		c := map[string]any{"maxSkew": 1 + r.IntN(3), "topologyKey": pick(r, "topology.kubernetes.io/zone", "kubernetes.io/hostname"),
			"whenUnsatisfiable": pick(r, "DoNotSchedule", "ScheduleAnyway"), "labelSelector": genSelector(r)}
		if maybe(r) {
			c["minDomains"] = 2
		}
		spec["topologySpreadConstraints"] = []any{c}
	}
	if maybe(r) {
		spec["volumes"] = genVolumes(r)
	}
	if r.IntN(12) == 0 {
		spec["tolerations"] = []any{}
	}
	return map[string]any{"metadata": meta, "spec": spec}
}

func genContainer(r *rand.Rand, name string) map[string]any {
	c := map[string]any{"name": name, "image": pick(r, "nginx", "nginx:1.25", "nginx:latest", "busybox:1.36", "registry.k8s.io/pause:3.10", "redis@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")}
	if maybe(r) {
		c["command"] = []any{"sh", "-c", pick(r, "sleep 3600", "echo hi", "")}
	}
	if maybe(r) {
		c["args"] = pick(r, []any{"--port=80"}, []any{}, []any{"a b", "c:d", "[x]"})
	}
	if maybe(r) {
		var ports []any
		for range 1 + r.IntN(2) {
			p := map[string]any{"containerPort": pick(r, 80, 443, 8080, 53)}
			if maybe(r) {
				p["protocol"] = pick(r, "TCP", "UDP", "SCTP")
			}
			if maybe(r) {
				p["name"] = pick(r, "http", "dns")
			}
			if r.IntN(5) == 0 {
				p["hostPort"] = pick(r, 8080, 53)
			}
			if r.IntN(8) == 0 {
				p["hostIP"] = "127.0.0.1"
			}
			ports = append(ports, p)
		}
		c["ports"] = ports
	}
	if maybe(r) {
		c["envFrom"] = []any{pick[any](r, map[string]any{"configMapRef": map[string]any{"name": "cfg"}},
			map[string]any{"prefix": "DB_", "secretRef": map[string]any{"name": "db", "optional": true}})}
	}
	if maybe(r) {
		var env []any
		for i := range 1 + r.IntN(3) {
			e := map[string]any{"name": fmt.Sprintf("E%d", i)}
			switch r.IntN(6) {
			case 0, 1:
				e["value"] = pick(r, "x", "", "a=b", "100")
			case 2:
				f := map[string]any{"fieldPath": pick(r, "metadata.name", "status.podIP", "spec.nodeName")}
				if maybe(r) {
					f["apiVersion"] = "v1"
				}
				e["valueFrom"] = map[string]any{"fieldRef": f}
			case 3:
				f := map[string]any{"resource": pick(r, "limits.cpu", "requests.memory")}
				if maybe(r) {
					f["divisor"] = pick(r, "1m", "1Mi", "1", "0")
				}
				if maybe(r) {
					f["containerName"] = "c0"
				}
				e["valueFrom"] = map[string]any{"resourceFieldRef": f}
			case 4:
				e["valueFrom"] = map[string]any{"configMapKeyRef": map[string]any{"name": "cfg", "key": "k"}}
			case 5:
				e["valueFrom"] = map[string]any{"secretKeyRef": map[string]any{"name": "s", "key": "k", "optional": pick(r, true, false)}}
			}
			env = append(env, e)
		}
		c["env"] = env
	}
	if r.IntN(4) != 0 {
		res := map[string]any{}
		for _, kind := range []string{"requests", "limits"} {
			if r.IntN(3) == 0 {
				continue
			}
			l := map[string]any{}
			for _, name := range []string{"cpu", "memory", "ephemeral-storage", "nvidia.com/gpu"} {
				if r.IntN(2) == 0 {
					l[name] = pick(r, quantities...)
				}
			}
			res[kind] = l
		}
		c["resources"] = res
	}
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if r.IntN(4) == 0 {
			c[probe] = genProbe(r)
		}
	}
	if maybe(r) {
		c["imagePullPolicy"] = pick(r, "Always", "IfNotPresent", "Never")
	}
	if maybe(r) {
		m := map[string]any{"name": "data", "mountPath": "/data"}
		if maybe(r) {
			m["readOnly"] = true
		}
		if maybe(r) {
			m["subPath"] = "sub"
		}
		c["volumeMounts"] = []any{m}
	}
	return c
}

func genProbe(r *rand.Rand) map[string]any {
	p := map[string]any{}
	switch r.IntN(3) {
	case 0:
		p["exec"] = map[string]any{"command": []any{"cat", "/tmp/healthy"}}
	case 1:
		h := map[string]any{"port": pick[any](r, 80, "http", 8080)}
		if maybe(r) {
			h["path"] = pick(r, "/healthz", "/")
		}
		if maybe(r) {
			h["scheme"] = pick(r, "HTTP", "HTTPS")
		}
		p["httpGet"] = h
	case 2:
		p["tcpSocket"] = map[string]any{"port": pick[any](r, 6379, "redis")}
	}
	for _, f := range []string{"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"} {
		if maybe(r) {
			p[f] = 1 + r.IntN(20)
		}
	}
	return p
}

func genSelector(r *rand.Rand) map[string]any {
	s := map[string]any{}
	if r.IntN(3) != 0 {
		s["matchLabels"] = map[string]any{"app": "web"}
	}
	if maybe(r) {
		s["matchExpressions"] = []any{map[string]any{"key": "tier", "operator": pick(r, "In", "NotIn", "Exists"), "values": []any{"frontend"}}}
	}
	return s
}

func genNodeTerm(r *rand.Rand) map[string]any {
	t := map[string]any{"matchExpressions": []any{map[string]any{"key": pick(r, "disktype", "topology.kubernetes.io/zone"),
		"operator": pick(r, "In", "NotIn", "Exists", "Gt"), "values": []any{pick(r, "ssd", "zone-a", "5")}}}}
	if r.IntN(5) == 0 {
		t["matchFields"] = []any{map[string]any{"key": "metadata.name", "operator": "In", "values": []any{"node-1"}}}
	}
	return t
}

func genAffinity(r *rand.Rand) map[string]any {
	a := map[string]any{}
	if maybe(r) {
		na := map[string]any{}
		if maybe(r) {
			na["requiredDuringSchedulingIgnoredDuringExecution"] = map[string]any{"nodeSelectorTerms": []any{genNodeTerm(r)}}
		}
		if maybe(r) {
			na["preferredDuringSchedulingIgnoredDuringExecution"] = []any{map[string]any{"weight": 1 + r.IntN(100), "preference": genNodeTerm(r)}}
		}
		a["nodeAffinity"] = na
	}
	for _, kind := range []string{"podAffinity", "podAntiAffinity"} {
		if !maybe(r) {
			continue
		}
		term := func() map[string]any {
			t := map[string]any{"topologyKey": pick(r, "kubernetes.io/hostname", "topology.kubernetes.io/zone"), "labelSelector": genSelector(r)}
			if r.IntN(4) == 0 {
				t["namespaces"] = []any{"default", "other"}
			}
			return t
		}
		pa := map[string]any{}
		if maybe(r) {
			pa["requiredDuringSchedulingIgnoredDuringExecution"] = []any{term()}
		}
		if maybe(r) {
			pa["preferredDuringSchedulingIgnoredDuringExecution"] = []any{map[string]any{"weight": 1 + r.IntN(100), "podAffinityTerm": term()}}
		}
		a[kind] = pa
	}
	return a
}

func genToleration(r *rand.Rand) map[string]any {
	t := map[string]any{}
	if r.IntN(5) != 0 {
		t["key"] = pick(r, "node.kubernetes.io/not-ready", "dedicated", "node-role.kubernetes.io/control-plane")
	}
	if maybe(r) {
		t["operator"] = pick(r, "Exists", "Equal")
	}
	if maybe(r) {
		t["value"] = "gpu"
	}
	if maybe(r) {
		t["effect"] = pick(r, "NoSchedule", "PreferNoSchedule", "NoExecute")
	}
	if r.IntN(5) == 0 {
		t["tolerationSeconds"] = pick(r, 0, 300)
	}
	return t
}

func genVolumes(r *rand.Rand) []any {
	v := map[string]any{"name": "data"}
	switch r.IntN(5) {
	case 0:
		e := map[string]any{}
		if maybe(r) {
			e["medium"] = pick(r, "Memory", "")
		}
		if maybe(r) {
			e["sizeLimit"] = pick(r, quantities...)
		}
		v["emptyDir"] = e
	case 1:
		s := map[string]any{"secretName": "s"}
		if maybe(r) {
			s["defaultMode"] = pick(r, 0o400, 0o644)
		}
		if maybe(r) {
			s["items"] = []any{map[string]any{"key": "k", "path": "p", "mode": 0o600}}
		}
		v["secret"] = s
	case 2:
		c := map[string]any{"name": "cfg"}
		if maybe(r) {
			c["optional"] = true
		}
		if maybe(r) {
			c["items"] = []any{map[string]any{"key": "k", "path": "p"}}
		}
		v["configMap"] = c
	case 3:
		v["persistentVolumeClaim"] = map[string]any{"claimName": "pvc", "readOnly": pick(r, true, false)}
	case 4:
		// no source: the apiserver makes it an emptyDir
	}
	return []any{v}
}
