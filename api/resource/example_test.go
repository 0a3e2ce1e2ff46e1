package resource_test

import (
	"fmt"

	"kubesim/api/resource"
)

// A pod asks for half a core and 1.5 GiB; the scheduler works in millicores
// and bytes, and prints quantities the way kubectl does.
func Example() {
	cpu := resource.MustParse("0.5")
	mem := resource.MustParse("1Gi")
	mem.Add(resource.MustParse("512Mi"))
	fmt.Println(cpu, cpu.MilliValue())
	fmt.Println(mem, mem.Value())

	allocatable := resource.MustParse("2")
	fmt.Println("fits:", cpu.Cmp(allocatable) <= 0)

	_, err := resource.ParseQuantity("2 cores")
	fmt.Println(err)
	// Output:
	// 500m 500
	// 1536Mi 1610612736
	// fits: true
	// quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
}
