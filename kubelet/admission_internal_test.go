package kubelet

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/resource"
)

// admissionFailureBefore is admissionFailure's resource check as it was: every admitted pod's
// requests summed as quantities for each pod admitted.
func admissionFailureBefore(k *Kubelet, w *podWorker) (string, string) {
	alloc := k.cfg.Allocatable()
	used := resource.ResourceList{}
	count := int64(0)
	for _, uid := range sortedKeys(k.workers) {
		o := k.workers[uid]
		if o.uid == w.uid || !o.admitted || o.terminated {
			continue
		}
		used.Add(api.PodRequests(o.pod))
		count++
	}
	want := api.PodRequests(w.pod)
	if capacity := alloc.Pods().Value(); count+1 > capacity {
		return "OutOfpods", insufficient("pods", 1, count, capacity)
	}
	for _, name := range []resource.ResourceName{resource.ResourceCPU, resource.ResourceMemory, resource.ResourceEphemeralStorage} {
		req, ok := want[name]
		if !ok || req.Sign() == 0 {
			continue
		}
		value := func(q resource.Quantity) int64 {
			if name == resource.ResourceCPU {
				return q.MilliValue()
			}
			return q.Value()
		}
		capacity, inUse, asked := value(alloc[name]), value(used[name]), value(req)
		if inUse+asked > capacity {
			return "OutOf" + string(name), insufficient(string(name), asked, inUse, capacity)
		}
	}
	return "", ""
}

// Admission sums whole millicores and bytes where it can; its verdicts and messages are those of
// the sum of quantities, fractions of a millicore or a byte included.
func TestAdmissionSumsAsQuantitiesDo(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cpus := []string{"", "100m", "250m", "1", "0.0005", "1500u", "333m"}
	memories := []string{"", "64Mi", "1Gi", "0.5", "100M", "1.5Gi", "7"}
	storages := []string{"", "1Gi", "10Gi", "0.3"}
	pick := func(list []string) string { return list[rng.Intn(len(list))] }
	newPod := func(i int) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("p", i), Namespace: "default", UID: fmt.Sprint("uid-", i)}}
		for c := range 1 + rng.Intn(2) {
			req := resource.ResourceList{}
			for name, list := range map[resource.ResourceName][]string{resource.ResourceCPU: cpus, resource.ResourceMemory: memories, resource.ResourceEphemeralStorage: storages} {
				if v := pick(list); v != "" {
					req[name] = resource.MustParse(v)
				}
			}
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: fmt.Sprint("c", c), Resources: api.ResourceRequirements{Requests: req}})
		}
		return p
	}
	verdicts := map[string]int{}
	for round := range 300 {
		k := &Kubelet{nodeName: "node-1", cfg: DefaultNodeConfig().withDefaults()}
		k.podSide = newPodSide(nil, nil)
		for i := range rng.Intn(120) {
			p := newPod(i)
			w := k.worker(p.Key(), p)
			w.admitted = rng.Intn(8) != 0
			w.terminated = rng.Intn(8) == 0
		}
		p := newPod(1000 + round)
		w := k.worker(p.Key(), p)
		reason, message := k.admissionFailure(w)
		wantReason, wantMessage := admissionFailureBefore(k, w)
		assert.Equal(t, wantReason, reason, "round %d", round)
		assert.Equal(t, wantMessage, message, "round %d", round)
		verdicts[reason]++
	}
	assert.Greater(t, verdicts[""], 10, "admitted some: %v", verdicts)
	assert.Greater(t, verdicts["OutOfcpu"]+verdicts["OutOfmemory"]+verdicts["OutOfpods"], 10, "rejected some: %v", verdicts)
}
