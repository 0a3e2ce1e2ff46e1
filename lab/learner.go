//go:build !solution

// learner.go: built without -tags solution, the labs' graders grade the learner's code (at first,
// the skeletons).
package lab

// Reference is false in a learner's build: a grader reports an untouched TODO as "not started".
const Reference = false
