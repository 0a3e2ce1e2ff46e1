package scenarios_test

import (
	"regexp"
	"sort"
	"sync"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"

	"kubesim/narrate"
	"kubesim/scenarios"
	"kubesim/script"
	"kubesim/sim"
	"kubesim/trace"
)

// Every line the text story shows in Chinese has a translation: play each built-in scenario, collect
// the formats of the lines the text narrator shows, and look each up in the catalogue Play narrates
// with. Events and API error text are exempt: they stay in English, as a real cluster prints them.
func TestEveryNarratedFormatHasChinese(t *testing.T) {
	// Beside TestScenariosTellTheirGoldenStory: their wall-clock waits overlap.
	t.Parallel()
	playWallClockScenarios()

	var mu sync.Mutex                // guards missing
	missing := map[string][]string{} // format -> scenarios
	t.Run("play", func(t *testing.T) {
		for _, sc := range scenarios.All() {
			t.Run(sc.Name, func(t *testing.T) {
				if sc.Cluster.EtcdMembers > 1 {
					t.Parallel() // its etcd waits on the wall clock: let those waits overlap
				}
				cat := sim.Catalog(sc.ZH)
				for _, e := range record(t, sc.Name, "en").events {
					if !shownInChinese(e, sc.Verbose) {
						continue
					}
					format, _ := e.Format()
					if wordless(format) {
						continue
					}
					if tr, ok := cat[format]; !ok || !hasChinese(tr) {
						mu.Lock()
						missing[format] = append(missing[format], sc.Name+" ("+e.Component+")")
						mu.Unlock()
					}
				}
			})
		}
	})
	formats := make([]string, 0, len(missing))
	for f := range missing {
		formats = append(formats, f)
	}
	sort.Strings(formats)
	for _, f := range formats {
		t.Errorf("no Chinese for %q, narrated in %v", f, missing[f][:1])
	}
}

// Every step heading of every scenario is told in Chinese. The scenarios whose etcd waits on the
// wall clock are left out: their Chinese play would wait its real seconds again.
func TestEveryStepHeadingIsToldInChinese(t *testing.T) {
	for _, sc := range scenarios.All() {
		if sc.Cluster.EtcdMembers > 1 {
			continue
		}
		t.Run(sc.Name, func(t *testing.T) { expectHeadingsInChinese(t, sc.Name) })
	}
}

// A translation has the same verbs as its English format, in the same order, so every number and name
// lands where the English puts it (a missing or extra verb prints %!s(MISSING) or %!(EXTRA ...)).
func TestCatalogTranslationsKeepTheirVerbs(t *testing.T) {
	for _, sc := range append(scenarios.All(), sim.Scenario{Name: "scenario files", ZH: script.ZH}) {
		for en, zh := range sim.Catalog(sc.ZH) {
			assert.Equal(t, verb.FindAllString(en, -1), verb.FindAllString(zh, -1), "%s: %q -> %q", sc.Name, en, zh)
		}
	}
}

// wordless reports whether a format has no words of its own, only verbs and punctuation ("%s: %s"):
// its words are its arguments, Kubernetes' own text. A bare "%s" (a message set directly) is not
// wordless: it hides the words from the catalogue.
func wordless(format string) bool {
	if format == "%s" {
		return false
	}
	for _, r := range verb.ReplaceAllString(format, "") {
		if unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// hasChinese reports whether s holds a Chinese character: a catalogue entry that only repeats the
// English does not count.
func hasChinese(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// shownInChinese reports whether the text narrator shows e and tells it in the catalogue's language:
// events (their reason and message), API error text and the scheduler's explanation tables (as
// `kubesim explain` prints them) stay in English.
func shownInChinese(e trace.Event, verbose bool) bool {
	if e.Component != "scenario" && !narrate.Visible(e, verbose) {
		return false
	}
	return e.Action != "event" && e.Action != "error" && e.Action != "explain"
}
