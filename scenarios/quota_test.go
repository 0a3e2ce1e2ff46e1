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
		`✓ the resourcequota controller counts the new quota: status.used limits.cpu=0`,
		`✓ status.used right after the 3 creates (admission charged each): limits.cpu=1200m`,
		`✓ status.used right after the deletes (the resourcequota controller recounted): limits.cpu=800m`,
		`✓ kubectl describe quota compute-resources -n team, Used beside Hard: pods 2 5`,
	)
}
