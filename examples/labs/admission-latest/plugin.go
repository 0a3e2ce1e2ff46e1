// Package admissionlatest is lab 3: a validating admission plugin that refuses pods whose images
// float (the tag latest, or no tag at all, which means latest): such a pod runs whatever was pushed
// last, and two nodes may run two different programs under one name. README.md says what to read.
//
// plugin.go holds what is given: the plugin's name. You write Validate in validate.go.
package admissionlatest

import "kubesim/apiserver"

// Name is the plugin's name; the apiserver's trace says "admission plugin DisallowLatest rejected ...".
const Name = "DisallowLatest"

// DisallowLatest refuses pods with a floating image.
type DisallowLatest struct{}

var _ apiserver.ValidatingAdmission = DisallowLatest{}

// Name returns Name.
func (DisallowLatest) Name() string { return Name }
