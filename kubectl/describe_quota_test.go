package kubectl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
)

// kubectl describe quota: for each hard limit, what the namespace uses beside it, once the
// resourcequota controller has counted.
func TestDescribeQuotaShowsUsedBesideHard(t *testing.T) {
	c := newCluster(t)
	_, err := c.k.Create(c.ctx, &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "compute", Namespace: "default"},
		Spec: api.ResourceQuotaSpec{Hard: resource.ResourceList{
			resource.ResourcePods:    resource.MustParse("10"),
			"count/deployments.apps": resource.MustParse("2"),
		}}})
	require.NoError(t, err)
	c.applyNginx()
	c.rolledOut()

	out, err := c.k.Describe(c.ctx, "quota", "default", "compute")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Name: +compute\nNamespace: +default\nResource +Used +Hard\n-------- +---- +----\ncount/deployments.apps +1 +2\npods +3 +10$`, out)
}
