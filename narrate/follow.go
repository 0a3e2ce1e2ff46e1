// follow.go: --follow KIND/NAME, a story about one object: only the lines that touch it (about it, or
// naming it) and the section headings are told.
//
//	follow(n, "pod/nginx-77bf8679f9-fbb92")   n, told only what touches that pod
package narrate

import (
	"fmt"
	"regexp"
	"strings"

	"kubesim/trace"
)

// follow wraps n so that it is told only the events that touch the object what names ("" keeps all).
func follow(n Narrator, what string) (Narrator, error) {
	if what == "" {
		return n, nil
	}
	kind, name, ok := strings.Cut(what, "/")
	if !ok || kind == "" || name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("follow %q: use KIND/NAME, e.g. pod/nginx-77bf8679f9-fbb92 or deployment/nginx", what)
	}
	return &follower{Narrator: n, resource: strings.ToLower(kind), name: name, word: wordIn("/" + name)}, nil
}

// wordIn matches name as a whole word: nginx is not nginx-77bf8679f9 (a ReplicaSet is not its
// Deployment).
func wordIn(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s/"'(])` + regexp.QuoteMeta(name) + `($|[\s/"'),;]|:(\s|$))`)
}

// follower tells n only the lines about the object (its trace Object: pods/default/NAME) or naming
// it with its namespace (default/NAME: a bare name is too often also a container's or an image's).
type follower struct {
	Narrator
	resource, name string
	word           *regexp.Regexp
}

func (f *follower) Event(e trace.Event) {
	resource, _, _ := strings.Cut(e.Object, "/")
	about := strings.HasSuffix(e.Object, "/"+f.name) && strings.HasPrefix(resource, f.resource)
	if e.Component == "scenario" || about || f.word.MatchString(e.Message) {
		f.Narrator.Event(e)
	}
}

func (f *follower) flush() { Flush(f.Narrator) }
