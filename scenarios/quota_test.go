package scenarios_test

import (
	"testing"
)

func TestQuotaScenarioHoldsTheReplicaSetAtTheQuotaAndReleasesItWhenRaised(t *testing.T) {
	expectSigns(t, "quota",
		`is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3`,
		`Error creating: pods "web-`,
		`kubectl get deployment web -n team: READY 3/5`,
		`pods "extra" is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3`,
		`pods "bare" is forbidden: failed quota: compute-resources: must specify limits.cpu for: bare; limits.memory for: bare; requests.cpu for: bare; requests.memory for: bare`,
		`admission plugin ResourceQuota rejected`,
		`kubectl get pods -n team: 5 pods`,
	)
}
