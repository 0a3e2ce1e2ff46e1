// Package difftest runs the same generated cases through kubesim's api packages and through
// k8s.io/apimachinery and k8s.io/api v0.34.1, and fails where they answer differently.
package difftest
