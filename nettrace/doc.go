// Package nettrace answers "why can't A reach B?" the way a person debugging a cluster would, hop
// by hop, without sending a packet: from a pod, resolve a name through the pod's DNS, find the
// Service the address belongs to, follow the kube-proxy rules of the pod's node to an endpoint, and
// check that the endpoint's pod listens on the port. At the first hop that fails it stops and says
// why, in the terms of the objects a learner can inspect (`kubectl get svc,endpointslices`,
// `kubectl get pods --show-labels`).
//
// Read next: trace.go. The inputs come from dns (the resolver and CoreDNS), kubeproxy (the rules)
// and the apiserver's objects; sim.Cluster.NetTrace gathers them, and `kubesim net trace` prints
// the result.
//
// The failures it names:
//
//   - no such name in the pod's namespace (and where a Service of that name does exist);
//   - the pod's DNS policy does not ask the cluster DNS (Default, or hostNetwork with ClusterFirst);
//   - the Service does not expose the port;
//   - the Service has no endpoints because its selector matches no pod, the pods are not running,
//     they are not Ready, or a named targetPort names no container port;
//   - the endpoint's pod does not listen on the target port.
//
// What it simplifies: TCP only; the endpoint followed is the first of the KUBE-SVC chain (kube-proxy
// picks one at random per connection); a container listens on the ports its spec declares (a pod
// that declares none is assumed to listen where it is asked); no NetworkPolicy.
package nettrace
