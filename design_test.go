// design_test.go holds the dependency rules of DESIGN.md ("Dependency rules") by construction: each
// rule is a check over `go list`'s view of the module, so breaking one fails `go test ./...` with the
// import chain that broke it. Tests (_test.go files) may wire anything; the rules are about the code
// the components are built from.
package kubesim_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "kubesim"

// pkg is what `go list -json` says of one package of the module.
type pkg struct {
	ImportPath string
	Imports    []string // direct imports
	Deps       []string // every package it depends on, transitively
}

func listPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	touchSources(t)
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decoding go list: %v", err)
		}
		pkgs[p.ImportPath] = &p
	}
	return pkgs
}

// touchSources opens every Go file of the module. go test caches a passing result and reruns it only
// when a file the test read has changed; `go list` runs in another process, so without this a new
// import would not rerun the rules.
func touchSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod") {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			return f.Close()
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading the module's sources: %v", err)
	}
}

// under reports whether path is the package root or one below it ("kubesim/controllers/...").
func under(path, root string) bool {
	root = module + "/" + root
	return path == root || strings.HasPrefix(path, root+"/")
}

func underAny(path string, roots ...string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return under(path, r) })
}

// The component families: each mirrors one Kubernetes binary (or, for the client side, client-go and
// kubectl) and meets the others only in the apiserver's data.
var clientSide = []string{"controllers", "scheduler", "kubelet", "runtime", "client", "kubectl", "kubeproxy", "dns", "nettrace"}

// rule is one line of DESIGN.md: packages matching who must not depend on anything matching
// forbidden, directly or (when transitive) through any chain.
type rule struct {
	name       string
	who        func(path string) bool
	forbidden  func(importer, dep string) bool
	transitive bool
}

var rules = []rule{
	{
		name:      "api imports nothing of kubesim",
		who:       func(p string) bool { return under(p, "api") },
		forbidden: func(_, d string) bool { return strings.HasPrefix(d, module+"/") && !under(d, "api") },
	},
	{
		name:      "wire is a leaf: it imports only api",
		who:       func(p string) bool { return under(p, "wire") },
		forbidden: func(_, d string) bool { return strings.HasPrefix(d, module+"/") && !under(d, "api") },
	},
	{
		name:      "webhooks (the simulated webhook servers) imports only api",
		who:       func(p string) bool { return under(p, "webhooks") },
		forbidden: func(_, d string) bool { return strings.HasPrefix(d, module+"/") && !under(d, "api") },
	},
	{
		name: "components and kubectl never reach the store, the apiserver or etcd, not even transitively",
		who:  func(p string) bool { return underAny(p, clientSide...) },
		forbidden: func(_, d string) bool {
			return underAny(d, "store", "apiserver", "sim") || strings.HasPrefix(d, "go.etcd.io/")
		},
		transitive: true,
	},
	{
		name: "the apiserver never imports a component",
		who:  func(p string) bool { return under(p, "apiserver") },
		forbidden: func(_, d string) bool {
			return underAny(d, "controllers", "scheduler", "kubelet", "runtime", "kubectl", "sim")
		},
		transitive: true,
	},
	{
		name:       "the runtime never talks to the apiserver: the kubelet is its only caller",
		who:        func(p string) bool { return under(p, "runtime") },
		forbidden:  func(_, d string) bool { return underAny(d, "client", "apiserver", "kubelet") },
		transitive: true,
	},
	{
		name: "only the kubelet uses the runtime (and the wiring: sim, cmd)",
		who: func(p string) bool {
			return !underAny(p, "kubelet", "runtime", "sim", "cmd", "scenarios", "lab", "examples")
		},
		forbidden: func(_, d string) bool { return under(d, "runtime") },
	},
	{
		// bench measures the create path against raw etcd puts on one store, so it opens that store;
		// the tests' harness (internal/testenv) wires one for component tests.
		name: "only the apiserver, the wiring (sim, cmd), the benchmarks and the tests' harness open the store",
		who: func(p string) bool {
			return !underAny(p, "apiserver", "store", "sim", "cmd", "bench", "internal/testenv")
		},
		forbidden: func(_, d string) bool { return under(d, "store") },
	},
	{
		name: "components never import each other",
		who: func(p string) bool {
			return underAny(p, "controllers", "scheduler", "kubelet", "kubectl", "kubeproxy", "dns")
		},
		forbidden: componentViolation,
	},
	{
		name:      "k8s.io's libraries appear only at the HTTP boundary, for wire formats (apiserver/httpfront)",
		who:       func(p string) bool { return strings.HasPrefix(p, module+"/") && !under(p, "apiserver/httpfront") },
		forbidden: func(_, d string) bool { return strings.HasPrefix(d, "k8s.io/") },
	},
	{
		// internal/testenv, the component tests' harness, wires a whole cluster as sim's callers do;
		// the next rule keeps it test-only.
		name: "nothing imports sim but cmd, scenarios, examples, lab, the scenario language, the chaos soak, the benchmarks and the tests' harness",
		who: func(p string) bool {
			return !underAny(p, "sim", "cmd", "scenarios", "examples", "lab", "script", "chaos", "bench", "internal/testenv")
		},
		forbidden: func(_, d string) bool { return under(d, "sim") },
	},
	{
		name:      "only cmd imports the chaos soak and the benchmarks (and tests)",
		who:       func(p string) bool { return !under(p, "cmd") },
		forbidden: func(_, d string) bool { return underAny(d, "chaos", "bench") },
	},
	{
		name:      "narrate tells a trace: it imports only trace and clock",
		who:       func(p string) bool { return under(p, "narrate") },
		forbidden: func(_, d string) bool { return strings.HasPrefix(d, module+"/") && !underAny(d, "trace", "clock") },
	},
	{
		name:      "only tests import internal/testenv",
		who:       func(string) bool { return true },
		forbidden: func(_, d string) bool { return under(d, "internal/testenv") },
	},
}

func family(path string) string {
	for _, f := range []string{"controllers", "scheduler", "kubelet", "kubectl", "runtime", "kubeproxy", "dns"} {
		if under(path, f) {
			return f
		}
	}
	return ""
}

// sharedControllerPackages are the packages under controllers/ that every controller may use: the
// work loop and the helpers that are not controllers themselves.
var sharedControllerPackages = []string{"controllers/internal", "controllers/workloop"}

// componentViolation: a component may import its own family's packages (a controller its shared
// helpers; the scheduler its framework and plugins; the kubelet the runtime's CRI), never another
// family's, and a controller never another controller.
func componentViolation(importer, dep string) bool {
	fi, fd := family(importer), family(dep)
	switch {
	case fd == "" || importer == dep:
		return false
	case fi == "kubelet" && fd == "runtime":
		return false // the CRI: the kubelet's own runtime
	case fi != fd:
		return true
	case fi != "controllers":
		return false
	}
	// Within controllers/: the manager (the root package) wires them all; a controller uses only the
	// shared packages, never another controller.
	if importer == module+"/controllers" || underAny(dep, sharedControllerPackages...) {
		return false
	}
	return controllerOf(importer) != controllerOf(dep)
}

// controllerOf names the controller a package belongs to: controllers/deployment/x -> deployment.
func controllerOf(path string) string {
	rest := strings.TrimPrefix(path, module+"/controllers/")
	name, _, _ := strings.Cut(rest, "/")
	return name
}

func TestDependencyRules(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages: the rules would hold vacuously", len(pkgs))
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			checked := 0
			for _, p := range pkgs {
				if !r.who(p.ImportPath) {
					continue
				}
				checked++
				deps := p.Imports
				if r.transitive {
					deps = p.Deps
				}
				for _, d := range deps {
					if r.forbidden(p.ImportPath, d) {
						t.Errorf("%s depends on %s%s", p.ImportPath, d, chain(pkgs, p, d))
					}
				}
			}
			if checked == 0 {
				t.Errorf("the rule applies to no package: it cannot fail, so it proves nothing")
			}
		})
	}
}

// chain explains a transitive dependency: the path of direct imports from p to dep.
func chain(pkgs map[string]*pkg, p *pkg, dep string) string {
	if slices.Contains(p.Imports, dep) {
		return ""
	}
	prev := map[string]string{p.ImportPath: ""}
	queue := []string{p.ImportPath}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		q, ok := pkgs[cur]
		if !ok {
			continue
		}
		for _, next := range q.Imports {
			if _, seen := prev[next]; seen {
				continue
			}
			prev[next] = cur
			if next == dep {
				var path []string
				for at := dep; at != ""; at = prev[at] {
					path = append([]string{at}, path...)
				}
				return fmt.Sprintf(" (via %s)", strings.Join(path, " -> "))
			}
			queue = append(queue, next)
		}
	}
	return ""
}

// TestDependencyRulesCatchAViolation proves the checks can fail: a made-up controller that imports
// the store, the scheduler and another controller breaks three rules.
func TestDependencyRulesCatchAViolation(t *testing.T) {
	bad := &pkg{ImportPath: module + "/controllers/bad",
		Imports: []string{module + "/store", module + "/scheduler", module + "/controllers/deployment", module + "/controllers/internal"},
		Deps:    []string{module + "/store", "go.etcd.io/etcd/client/v3", module + "/scheduler", module + "/controllers/deployment", module + "/controllers/internal"}}
	var broken []string
	for _, r := range rules {
		if !r.who(bad.ImportPath) {
			continue
		}
		deps := bad.Imports
		if r.transitive {
			deps = bad.Deps
		}
		for _, d := range deps {
			if r.forbidden(bad.ImportPath, d) {
				broken = append(broken, r.name+": "+d)
			}
		}
	}
	want := []string{
		"components and kubectl never reach the store, the apiserver or etcd, not even transitively: kubesim/store",
		"components and kubectl never reach the store, the apiserver or etcd, not even transitively: go.etcd.io/etcd/client/v3",
		"only the apiserver, the wiring (sim, cmd), the benchmarks and the tests' harness open the store: kubesim/store",
		"components never import each other: kubesim/scheduler",
		"components never import each other: kubesim/controllers/deployment",
	}
	if !slices.Equal(broken, want) {
		t.Errorf("violations found:\n  %s\nwant:\n  %s", strings.Join(broken, "\n  "), strings.Join(want, "\n  "))
	}
}
