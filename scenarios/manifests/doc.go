// Package manifests holds the YAML files the scenarios apply, as a learner would keep them next to a
// cluster: `kubectl apply -f crasher.yaml`. They are real files (open them, copy them, apply them to a
// real cluster) embedded into the binary, so every scenario reads the same bytes a reader sees here.
//
// nginx-deployment.yaml is the articles' Deployment; most scenarios start from it, and component
// tests apply it too. A scenario that needs a variant (another name, image or replica count) edits
// the manifest in Go where it is used, so each variant is visible in the story that needs it.
package manifests
