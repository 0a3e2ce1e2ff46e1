package nodeipam_test

import (
	"fmt"
	"net/netip"

	"kubesim/controllers/nodeipam"
)

// The i-th node range of a cluster CIDR.
func ExampleSubnetAt() {
	cluster := netip.MustParsePrefix("10.244.0.0/16")
	for _, i := range []int{0, 1, 255} {
		fmt.Println(nodeipam.SubnetAt(cluster, 24, i))
	}
	fmt.Println(nodeipam.SubnetAt(netip.MustParsePrefix("10.0.0.0/8"), 24, 256))
	// Output:
	// 10.244.0.0/24
	// 10.244.1.0/24
	// 10.244.255.0/24
	// 10.1.0.0/24
}
