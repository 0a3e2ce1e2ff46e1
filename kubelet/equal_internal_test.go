package kubelet

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

// statusesDiffer may only say "different" where semanticEqual would: checked on every pair of a
// set of statuses that differ from one another in one field each, and on copies that differ in
// nothing semantic (nil and empty, the same time).
func TestStatusesDifferOnlyWhereSemanticEqualSaysSo(t *testing.T) {
	at := api.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	base := func() *api.PodStatus {
		return &api.PodStatus{
			Phase: api.PodRunning, PodIP: "10.244.1.2", PodIPs: []api.PodIP{{IP: "10.244.1.2"}}, StartTime: &at,
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: at}},
			ContainerStatuses: []api.ContainerStatus{{Name: "web", Ready: true, RestartCount: 1, ContainerID: "containerd://1",
				Started: api.Ptr(true), State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at}}}},
		}
	}
	variants := []func(*api.PodStatus){
		func(*api.PodStatus) {},
		func(s *api.PodStatus) { s.Phase = api.PodPending },
		func(s *api.PodStatus) { s.PodIP = "" },
		func(s *api.PodStatus) { s.PodIPs = nil },
		func(s *api.PodStatus) { s.StartTime = nil },
		func(s *api.PodStatus) { s.Conditions = nil },
		func(s *api.PodStatus) { s.Conditions[0].Status = api.ConditionFalse },
		func(s *api.PodStatus) { s.Conditions[0].Reason = "ContainersNotReady" },
		func(s *api.PodStatus) { s.Conditions[0].Message = "containers with unready status: [web]" },
		func(s *api.PodStatus) { s.Conditions[0].LastTransitionTime = api.NewTime(at.Add(time.Second)) },
		func(s *api.PodStatus) { s.ContainerStatuses[0].Ready = false },
		func(s *api.PodStatus) { s.ContainerStatuses[0].RestartCount = 2 },
		func(s *api.PodStatus) { s.ContainerStatuses[0].ContainerID = "containerd://2" },
		func(s *api.PodStatus) { s.ContainerStatuses[0].Started = nil },
		func(s *api.PodStatus) { s.ContainerStatuses[0].Started = api.Ptr(false) },
		func(s *api.PodStatus) {
			s.ContainerStatuses[0].State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
		},
		func(s *api.PodStatus) {
			s.ContainerStatuses[0].State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1}}
		},
		func(s *api.PodStatus) {
			s.ContainerStatuses[0].State.Running.StartedAt = api.NewTime(at.Add(time.Second))
		},
		func(s *api.PodStatus) { s.InitContainerStatuses = []api.ContainerStatus{{Name: "init"}} },
		func(s *api.PodStatus) {
			s.ContainerStatuses = append(s.ContainerStatuses, api.ContainerStatus{Name: "side"})
		},
	}
	said := 0
	for i, vi := range variants {
		for j, vj := range variants {
			a, b := base(), base()
			vi(a)
			vj(b)
			if statusesDiffer(a, b) {
				said++
				assert.False(t, semanticEqual(*a, *b), "variants %d and %d", i, j)
			}
			if i == j {
				assert.False(t, statusesDiffer(a, b), "variant %d with itself", i)
			}
		}
	}
	assert.Greater(t, said, len(variants)*len(variants)/2, "it sees most differences")
	empty := base()
	empty.InitContainerStatuses = []api.ContainerStatus{}
	assert.False(t, statusesDiffer(base(), empty), "nil and empty alike")
}

// fullPodStatus is a pod status with every field set, every pointer non-nil and every slice of one
// element, so that a walk over it reaches every field there is.
func fullPodStatus() *api.PodStatus {
	at := api.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	terminated := func() *api.ContainerStateTerminated {
		return &api.ContainerStateTerminated{ExitCode: 1, Signal: 9, Reason: "Error", Message: "m", StartedAt: at,
			FinishedAt: at, ContainerID: "containerd://0"}
	}
	cs := func() api.ContainerStatus {
		return api.ContainerStatus{Name: "web", Ready: true, RestartCount: 1, Image: "nginx", ImageID: "sha", ContainerID: "containerd://1",
			Started: api.Ptr(true),
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "r", Message: "m"},
				Running: &api.ContainerStateRunning{StartedAt: at}, Terminated: terminated()},
			LastTerminationState: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "r", Message: "m"},
				Running: &api.ContainerStateRunning{StartedAt: at}, Terminated: terminated()}}
	}
	start := at
	return &api.PodStatus{Phase: api.PodRunning, Message: "m", Reason: "r", NominatedNodeName: "n", HostIP: "h",
		PodIP: "10.244.1.2", PodIPs: []api.PodIP{{IP: "10.244.1.2"}}, StartTime: &start, QOSClass: api.PodQOSBestEffort,
		Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastProbeTime: at, LastTransitionTime: at,
			Reason: "r", Message: "m"}},
		InitContainerStatuses: []api.ContainerStatus{cs()}, ContainerStatuses: []api.ContainerStatus{cs()}}
}

// samePodStatus agrees with semanticEqual on every change to every field of a pod status (a new
// field in api.PodStatus or below is reached too, and fails here until samePodStatus compares it),
// and on the changes that are not semantic: nil and empty slices, the same instant elsewhere.
func TestSamePodStatusIsSemanticEqual(t *testing.T) {
	timeType := reflect.TypeOf(api.Time{})
	// walk calls change with a function that makes one change at each place under v's type,
	// reached from the root by get.
	var walk func(get func(reflect.Value) reflect.Value, typ reflect.Type, name string, change func(string, func(reflect.Value)))
	walk = func(get func(reflect.Value) reflect.Value, typ reflect.Type, name string, change func(string, func(reflect.Value))) {
		switch {
		case typ == timeType:
			change(name+"+1s", func(r reflect.Value) {
				v := get(r)
				v.Set(reflect.ValueOf(api.Time{Time: v.Interface().(api.Time).Add(time.Second)}))
			})
			change(name+" elsewhere", func(r reflect.Value) { // the same instant: equal
				v := get(r)
				v.Set(reflect.ValueOf(api.Time{Time: v.Interface().(api.Time).In(time.FixedZone("x", 3600))}))
			})
			return
		}
		switch typ.Kind() {
		case reflect.String:
			change(name, func(r reflect.Value) { v := get(r); v.SetString(v.String() + "x") })
		case reflect.Int32, reflect.Int64:
			change(name, func(r reflect.Value) { v := get(r); v.SetInt(v.Int() + 1) })
		case reflect.Bool:
			change(name, func(r reflect.Value) { v := get(r); v.SetBool(!v.Bool()) })
		case reflect.Pointer:
			change(name+"=nil", func(r reflect.Value) { v := get(r); v.Set(reflect.Zero(typ)) })
			walk(func(r reflect.Value) reflect.Value { return get(r).Elem() }, typ.Elem(), name, change)
		case reflect.Slice:
			change(name+"=nil", func(r reflect.Value) { v := get(r); v.Set(reflect.Zero(typ)) })
			change(name+"=[]", func(r reflect.Value) { v := get(r); v.Set(reflect.MakeSlice(typ, 0, 0)) })
			change(name+"+1", func(r reflect.Value) { v := get(r); v.Set(reflect.Append(v, v.Index(0))) })
			walk(func(r reflect.Value) reflect.Value { return get(r).Index(0) }, typ.Elem(), name+"[0]", change)
		case reflect.Struct:
			for i := range typ.NumField() {
				f := typ.Field(i)
				walk(func(r reflect.Value) reflect.Value { return get(r).Field(i) }, f.Type, name+"."+f.Name, change)
			}
		default:
			t.Errorf("%s: a field of kind %s that the test does not know", name, typ.Kind())
		}
	}
	changes, equal := 0, 0
	walk(func(r reflect.Value) reflect.Value { return r }, reflect.TypeOf(api.PodStatus{}), "status",
		func(name string, change func(reflect.Value)) {
			a, b := fullPodStatus(), fullPodStatus()
			change(reflect.ValueOf(b).Elem())
			want := semanticEqual(*a, *b)
			assert.Equal(t, want, samePodStatus(a, b), name)
			assert.Equal(t, want, samePodStatus(b, a), name)
			changes++
			if want {
				equal++
			}
		})
	assert.Greater(t, changes, 100)
	assert.Greater(t, equal, 10, "some changes are not semantic")
	assert.True(t, samePodStatus(fullPodStatus(), fullPodStatus()))
}
