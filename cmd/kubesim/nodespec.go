// nodespec.go: `kubesim serve --node-spec FILE`, the nodes of the served cluster written as YAML, one
// entry a node, so a learner can build the cluster an exercise needs (a GPU node with a taint, an
// arm64 node, nodes in two zones, a small node that fills up):
//
//   - name: gpu-1
//     cpu: "8"
//     memory: 32Gi
//     pods: 110
//     zone: zone-a
//     arch: amd64
//     labels: {accelerator: nvidia}
//     taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
//
// Omitted fields take a default node's values (4 CPUs, 8Gi, 110 pods, zones a, b, c in turn, amd64).
package main

import (
	"cmp"
	"fmt"
	"os"
	"slices"

	"sigs.k8s.io/yaml"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/api/validation"
	"kubesim/sim"
)

// nodeSpecEntry is one node of a --node-spec file.
type nodeSpecEntry struct {
	Name   string            `json:"name"`
	CPU    string            `json:"cpu"`
	Memory string            `json:"memory"`
	Pods   int               `json:"pods"`
	Zone   string            `json:"zone"`
	Arch   string            `json:"arch"`
	Labels map[string]string `json:"labels"`
	Taints []api.Taint       `json:"taints"`
}

// readNodeSpecs reads and checks a --node-spec file. Each error names the entry and the field, and
// says what would be right.
func readNodeSpecs(path string) ([]sim.NodeSpec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--node-spec: %w", err)
	}
	var entries []nodeSpecEntry
	if err := yaml.UnmarshalStrict(data, &entries); err != nil {
		return nil, fmt.Errorf("--node-spec %s: %w (the file is a YAML list of nodes: - name: node-1, cpu: \"4\", memory: 8Gi, pods, zone, arch, labels, taints)", path, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("--node-spec %s: no nodes: write at least one entry (- name: node-1)", path)
	}
	defaults := sim.DefaultNodes(len(entries))
	specs := make([]sim.NodeSpec, len(entries))
	seen := map[string]bool{}
	for i, e := range entries {
		at := fmt.Sprintf("--node-spec %s: nodes[%d]", path, i)
		d := defaults[i]
		spec := sim.NodeSpec{Name: cmp.Or(e.Name, d.Name), CPU: cmp.Or(e.CPU, d.CPU), Memory: cmp.Or(e.Memory, d.Memory),
			Pods: d.Pods, Zone: cmp.Or(e.Zone, d.Zone), Arch: cmp.Or(e.Arch, "amd64"), Labels: e.Labels, Taints: e.Taints}
		if e.Pods != 0 {
			spec.Pods = e.Pods
		}
		if msgs := validation.IsDNS1123Subdomain(spec.Name); len(msgs) > 0 {
			return nil, fmt.Errorf("%s.name: %q: %s", at, spec.Name, msgs[0])
		}
		if spec.Name == sim.ControlPlaneNodeName {
			return nil, fmt.Errorf("%s.name: %q is the control-plane node's, which serve adds itself: give this worker another name", at, spec.Name)
		}
		if seen[spec.Name] {
			return nil, fmt.Errorf("%s.name: %q is there twice: give each node its own name", at, spec.Name)
		}
		seen[spec.Name] = true
		for field, q := range map[string]string{"cpu": spec.CPU, "memory": spec.Memory} {
			if v, err := resource.ParseQuantity(q); err != nil || v.Sign() <= 0 {
				return nil, fmt.Errorf("%s.%s: %q is not a positive quantity (write e.g. cpu: \"4\" or \"500m\", memory: 8Gi)", at, field, q)
			}
		}
		if spec.Pods < 0 {
			return nil, fmt.Errorf("%s.pods: %d: the pod limit (--max-pods) must be positive", at, spec.Pods)
		}
		if !slices.Contains([]string{"amd64", "arm64"}, spec.Arch) {
			return nil, fmt.Errorf("%s.arch: %q: kubesim's nodes are amd64 or arm64", at, spec.Arch)
		}
		for j, t := range spec.Taints {
			effects := []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}
			if t.Key == "" || !slices.Contains(effects, t.Effect) {
				return nil, fmt.Errorf("%s.taints[%d]: a taint needs a key and an effect (NoSchedule, PreferNoSchedule or NoExecute), got key %q effect %q", at, j, t.Key, t.Effect)
			}
		}
		specs[i] = spec
	}
	return specs, nil
}
