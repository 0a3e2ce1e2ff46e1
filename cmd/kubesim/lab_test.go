package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every lab kubesim lab list names is a directory of examples/labs with a README, and every directory
// is listed, but swap (the program --with lab:LAB runs, not a lab).
func TestLabsAreTheDirectories(t *testing.T) {
	entries, err := os.ReadDir("../../examples/labs")
	require.NoError(t, err)
	var dirs, listed []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != swapDir {
			dirs = append(dirs, e.Name())
			assert.FileExists(t, "../../examples/labs/"+e.Name()+"/README.md")
		}
	}
	for _, l := range labs {
		listed = append(listed, l.name)
	}
	assert.ElementsMatch(t, dirs, listed)
}

func TestATestsNameReadsAsWhatItChecks(t *testing.T) {
	assert.Equal(t, "pods that ask for an SSD run on the SSD node", sentence("TestPodsThatAskForAnSSDRunOnTheSSDNode"))
	assert.Equal(t, "floating images are refused", sentence("TestFloatingImagesAreRefused"))
	assert.Equal(t, "after 410 gone the reflector lists again", sentence("TestAfter410GoneTheReflectorListsAgain"))
	assert.Equal(t, "a cut off leader stops before the other takes over", sentence("TestACutOffLeaderStopsBeforeTheOtherTakesOver"))
}

// The summary counts go test's verdicts and keeps what each test said, without go test's bookkeeping.
func TestTheSummaryReadsGoTestsEvents(t *testing.T) {
	events := `{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Test":"TestA","Output":"    grade_test.go:58: your plugin let pod web-1 onto node-3; the story:\n"}
{"Action":"output","Test":"TestA","Output":"            0s  kube-scheduler  bind default/web-1 -> node-3\n"}
{"Action":"output","Test":"TestA","Output":"--- FAIL: TestA (0.07s)\n"}
{"Action":"fail","Test":"TestA"}
{"Action":"run","Test":"TestB"}
{"Action":"skip","Test":"TestB"}
{"Action":"pass","Test":"TestC"}
{"Action":"fail"}
`
	r := readTestEvents(strings.NewReader(events))
	assert.Equal(t, "1 of 3 checks pass, 1 not started, 1 fail", r.summary())
	assert.Equal(t, []string{"your plugin let pod web-1 onto node-3; the story:", "    0s  kube-scheduler  bind default/web-1 -> node-3"}, r.tests[0].said)
}

func TestLabCheckNamesTheLabsItKnows(t *testing.T) {
	code, _, errOut := kubesim("lab", "check", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no lab "frobnicate"; kubesim lab list shows them`)
	code, out, _ := kubesim("lab", "list")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "1. filter-plugin")
}
