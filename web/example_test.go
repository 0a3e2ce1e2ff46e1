package web_test

import (
	"fmt"
	"strings"

	"kubesim/web"
)

// The story arrives as the terminal's text; the page gets it line by line, each with its kind and,
// for an event, who acted.
func ExampleStory() {
	story := web.Story(func(l web.Line) {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%-7s %-14s %s", l.Kind, l.Component, l.Message)))
	})
	fmt.Fprint(story, `▸ the scheduler (it watches pods that have no spec.nodeName)
    #  time     component                what happened
  415  0s       kube-scheduler           bind default/web-1 -> node-3 → etcd revision 74
                                         … and the same for 2 more
`)
	// Output:
	// step
	// header
	// event   kube-scheduler bind default/web-1 -> node-3 → etcd revision 74
	// note    kube-scheduler … and the same for 2 more
}
