// version.go: `kubesim version`, what this binary was built from, as Go recorded it at build time.
package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func version(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "usage: kubesim version\n\nPrints kubesim's version (the module version, or the commit it was built from) and Go's.", stderr)
	if code, ok := noArgs(fs, args); !ok {
		return code
	}
	fmt.Fprintln(stdout, versionLine())
	return 0
}

// versionLine reads the build info: "kubesim v1.2.3, go1.25.1" for an installed module version,
// "kubesim (devel) commit 0123abcd4567, modified, go1.25.1" for a build from a checkout.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "kubesim (unknown version: built without build information)"
	}
	line := "kubesim " + info.Main.Version
	if line == "kubesim " {
		line += "(devel)"
	}
	var commit, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if commit != "" {
		line += " commit " + commit[:min(12, len(commit))]
		if modified == "true" {
			line += ", modified"
		}
	}
	return line + ", " + info.GoVersion
}
