package narrate_test

import (
	"os"
	"time"

	"kubesim/clock"
	"kubesim/narrate"
	"kubesim/trace"
)

// The same events told as JSON lines, the public format tools read.
func ExampleNew_json() {
	clk := clock.NewVirtual(time.Unix(0, 0))
	rec := trace.NewRecorder(clk, false)
	n, _ := narrate.New(os.Stdout, narrate.Options{Format: "json"})
	rec.Subscribe(n.Event)
	rec.Record(trace.Event{Component: "etcd", Actor: "kubernetes-admin", Action: "put", Object: "deployments/default/nginx",
		ResourceVersion: "412"}.Msgf("put %s -> revision %d", "/registry/deployments/default/nginx", 412))
	_ = n.Close()
	// Output:
	// {"seq":1,"time":"0s","component":"etcd","actor":"kubernetes-admin","action":"put","object":"deployments/default/nginx","resourceVersion":"412","message":"put /registry/deployments/default/nginx -\u003e revision 412"}
}

// The text story numbers each event under a header.
func ExampleNew_text() {
	clk := clock.NewVirtual(time.Unix(0, 0))
	rec := trace.NewRecorder(clk, false)
	n, _ := narrate.New(os.Stdout, narrate.Options{})
	rec.Subscribe(n.Event)
	rec.Record(trace.Event{Component: "kube-scheduler", Action: "bind"}.Msgf("default/nginx-x2k9p -> node-2"))
	// Output:
	//     #  time     component                what happened
	//     1  0s       kube-scheduler           bind: default/nginx-x2k9p -> node-2
}

// In Chinese, a line is told from the catalogue's translation of its format (each component keeps
// its own; sim.Catalog merges them), and wraps to the given width between Chinese characters.
func ExampleNew_chinese() {
	clk := clock.NewVirtual(time.Unix(0, 0))
	rec := trace.NewRecorder(clk, false)
	zh := trace.Catalog{"bind %s -> %s": "绑定 %s -> %s（调度器选中了这个节点）"}
	n, _ := narrate.New(os.Stdout, narrate.Options{Lang: "zh", Catalog: zh, Width: 72})
	rec.Subscribe(n.Event)
	rec.Record(trace.Event{Component: "kube-scheduler", Action: "bind"}.Msgf("bind %s -> %s", "default/nginx-x2k9p", "node-2"))
	// Output:
	//     #  时间     组件                     发生了什么
	//     1  0s       kube-scheduler           绑定 default/nginx-x2k9p ->
	//                                          node-2（调度器选中了这个节点）
}
