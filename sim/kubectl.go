// kubectl.go: the learner's kubectl is package kubectl, a client like any other; the cluster builds
// one for its admin (Cluster.Kubectl). Scenarios in this package name it Kubectl.
package sim

import "kubesim/kubectl"

// Kubectl is kubectl.Kubectl, under the name the scenario code of this package uses.
type Kubectl = kubectl.Kubectl
