// Package kubeproxy is kube-proxy in its iptables mode (k8s.io/kubernetes/pkg/proxy/iptables), one
// per node: it watches Services and EndpointSlices and turns them into the NAT rules that make a
// Service's cluster IP and node ports reach its pods. No packet ever passes through kubesim; the rules
// are built exactly so that a learner can read them as `iptables-save -t nat` prints them on a node,
// and the reachability tracer (package nettrace) walks them hop by hop.
//
// Read next: rules.go (what the rules are and how they print), then proxy.go (the component), then
// nettrace.
//
// What it promises, per Service port with a cluster IP (headless and ExternalName Services get no
// rules, as in Kubernetes):
//
//  1. KUBE-SERVICES matches the cluster IP and port and jumps to the port's KUBE-SVC-<hash> chain,
//     whose name is the first 16 base32 characters of sha256("<ns>/<name>:<port>" + protocol).
//  2. KUBE-SVC-<hash> picks one endpoint at random: with n endpoints the first rule matches with
//     probability 1/n, the next with 1/(n-1) of what is left, ..., the last always; each jumps to a
//     KUBE-SEP-<hash> chain that DNATs to the pod's IP and target port.
//  3. Only ready endpoints are used; when none is ready, serving endpoints that are terminating are
//     (kube-proxy's terminating fallback). With no usable endpoint, the filter table REJECTs
//     connections to the port ("has no endpoints"): clients get "connection refused" at once.
//  4. A NodePort Service also gets a rule in KUBE-NODEPORTS, reached from KUBE-SERVICES for any
//     local address, through the port's KUBE-EXT-<hash> chain (which masquerades, then jumps to
//     KUBE-SVC-<hash>).
//  5. sessionAffinity ClientIP adds the "recent" match: KUBE-SEP-<hash> remembers the client's
//     address, and KUBE-SVC-<hash> first sends a client seen within timeoutSeconds (default 10800)
//     back to that endpoint, before the random rules.
//
// What it simplifies: no IPVS or nftables modes, no traffic policies
// (externalTrafficPolicy/internalTrafficPolicy Local), no load balancer IPs, no conntrack; rules are
// rebuilt whole at each sync rather than diffed.
package kubeproxy
