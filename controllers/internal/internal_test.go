package internal_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/clock"
	"kubesim/controllers/internal"
)

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// After asking for 3 creates, a controller waits until its informer has shown all 3 (ControllerExpectations).
func ExampleExpectations() {
	clk := clock.NewVirtual(epoch)
	e := internal.NewExpectations(clk)
	e.ExpectCreations("default/web", 3)
	for range 3 {
		fmt.Println(e.SatisfiedExpectations("default/web"))
		e.CreationObserved("default/web") // the informer saw one of the new pods
	}
	fmt.Println(e.SatisfiedExpectations("default/web"))
	// Output:
	// false
	// false
	// false
	// true
}

func TestDeletionsAreTrackedByPodKeyAndCountedOnce(t *testing.T) {
	e := internal.NewExpectations(clock.NewVirtual(epoch))
	e.ExpectDeletions("default/web", []string{"default/a", "default/b"})
	e.DeletionObserved("default/web", "default/a")
	e.DeletionObserved("default/web", "default/a") // deletionTimestamp first, then the removal
	e.DeletionObserved("default/web", "default/z") // not one of ours
	assert.False(t, e.SatisfiedExpectations("default/web"))
	adds, dels := e.Pending("default/web")
	assert.Equal(t, 0, adds)
	assert.Equal(t, 1, dels)
	e.DeletionObserved("default/web", "default/b")
	assert.True(t, e.SatisfiedExpectations("default/web"))
}

func TestExpectationsExpireAfterTimeout(t *testing.T) {
	clk := clock.NewVirtual(epoch)
	e := internal.NewExpectations(clk)
	e.ExpectCreations("default/web", 1)
	clk.Advance(internal.ExpectationsTimeout)
	assert.False(t, e.SatisfiedExpectations("default/web"), "not yet: the timeout must be exceeded")
	clk.Advance(time.Second)
	assert.True(t, e.SatisfiedExpectations("default/web"))
}

func TestUnknownKeyIsSatisfiedAndDeleteForgets(t *testing.T) {
	e := internal.NewExpectations(clock.NewVirtual(epoch))
	assert.True(t, e.SatisfiedExpectations("default/new"))
	e.ExpectCreations("default/web", 2)
	e.DeleteExpectations("default/web")
	assert.True(t, e.SatisfiedExpectations("default/web"))
}

func pod(name string, lbls map[string]string, owner string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: lbls}}
	if owner != "" {
		p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: owner + "-uid", Controller: api.Ptr(true)}}
	}
	return p
}

// Claim: keep owned matches, adopt matching orphans, release owned mismatches, leave the rest alone.
func TestClaimAdoptsReleasesAndIgnores(t *testing.T) {
	owner := &api.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"}
	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	candidates := []*api.Pod{
		pod("owned", map[string]string{"app": "web"}, "web"),
		pod("orphan", map[string]string{"app": "web"}, ""),
		pod("relabelled", map[string]string{"app": "debug"}, "web"),
		pod("other", map[string]string{"app": "web"}, "api"),
		pod("stranger", map[string]string{"app": "db"}, ""),
		pod("vanished", map[string]string{"app": "web"}, ""),
	}
	var adopted, released []string
	adopt := func(_ context.Context, p *api.Pod) error {
		if p.Name == "vanished" {
			return apierrors.NewNotFound("pods", p.Name)
		}
		adopted = append(adopted, p.Name)
		return nil
	}
	release := func(_ context.Context, p *api.Pod) error {
		released = append(released, p.Name)
		return nil
	}
	claimed, err := internal.Claim(context.Background(), owner, sel, candidates, adopt, release)
	require.NoError(t, err)
	var names []string
	for _, p := range claimed {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"owned", "orphan"}, names)
	assert.Equal(t, []string{"orphan"}, adopted)
	assert.Equal(t, []string{"relabelled"}, released)

	// An owner being deleted adopts and releases nothing.
	owner.DeletionTimestamp = &api.Time{Time: epoch}
	adopted, released = nil, nil
	claimed, err = internal.Claim(context.Background(), owner, sel, candidates, adopt, release)
	require.NoError(t, err)
	assert.Len(t, claimed, 1)
	assert.Empty(t, adopted)
	assert.Empty(t, released)
}

func TestClaimReturnsAdoptionErrors(t *testing.T) {
	owner := &api.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"}
	boom := errors.New("conflict")
	_, err := internal.Claim(context.Background(), owner, labels.SelectorFromSet(labels.Set{"app": "web"}),
		[]*api.Pod{pod("orphan", map[string]string{"app": "web"}, "")},
		func(context.Context, *api.Pod) error { return boom }, nil)
	assert.ErrorIs(t, err, boom)
}

func TestPodAvailableOnlyAfterMinReadySeconds(t *testing.T) {
	p := &api.Pod{Status: api.PodStatus{Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue,
		LastTransitionTime: api.NewTime(epoch)}}}}
	assert.True(t, api.IsPodReady(p))
	assert.True(t, internal.IsPodAvailable(p, 0, epoch))
	assert.False(t, internal.IsPodAvailable(p, 10, epoch.Add(10*time.Second)), "exactly minReadySeconds is not enough")
	assert.True(t, internal.IsPodAvailable(p, 10, epoch.Add(11*time.Second)))
	p.DeletionTimestamp = &api.Time{Time: epoch}
	assert.False(t, internal.IsPodActive(p))
}

// A status write that would store the same status is skipped; any field that differs is a change.
func TestSameStatusComparesWhatWouldBeWritten(t *testing.T) {
	a := api.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2, ObservedGeneration: 1}
	b := a
	assert.True(t, internal.SameStatus(a, b))
	b.ReadyReplicas = 3
	assert.False(t, internal.SameStatus(a, b))
	assert.True(t, internal.SameStatus(api.DeploymentStatus{}, api.DeploymentStatus{Conditions: []api.DeploymentCondition{}}),
		"an empty list and none are written alike (omitempty)")
}

// A list with nothing in it is stored as no list, so nil and empty are the same; any element that
// differs is a change.
func TestSameListTreatsNilAndEmptyAlike(t *testing.T) {
	assert.True(t, internal.SameList([]api.EndpointSubset(nil), []api.EndpointSubset{}))
	a := []api.EndpointPort{{Name: "http", Port: 80}}
	assert.True(t, internal.SameList(a, []api.EndpointPort{{Name: "http", Port: 80}}))
	assert.False(t, internal.SameList(a, []api.EndpointPort{{Name: "http", Port: 8080}}))
	assert.False(t, internal.SameList(a, nil))
}
