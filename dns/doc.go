// Package dns is cluster DNS in miniature: CoreDNS with its kubernetes plugin (coredns/coredns
// plugin/kubernetes), serving the names of Services, and the resolver configuration the kubelet
// writes into each pod's /etc/resolv.conf (pkg/kubelet/network/dns).
//
// Read next: resolvconf.go (what a pod's resolver is told), then server.go (the records CoreDNS
// serves and how a query walks the search path), then nettrace, which starts every trace here.
//
// What it promises:
//
//  1. A Service "web" in namespace "shop" has the A record web.shop.svc.cluster.local: its cluster
//     IP, or for a headless Service (clusterIP: None) one A record per ready endpoint.
//  2. A pod with dnsPolicy ClusterFirst (the default) asks the cluster DNS (10.96.0.10) with the
//     search path <its namespace>.svc.cluster.local, svc.cluster.local, cluster.local and ndots:5.
//     So "web" finds web.<own namespace>; "web.shop" finds the Service in shop; a bare "web" never
//     finds a Service of another namespace.
//  3. dnsPolicy Default uses the node's resolver, which knows no cluster names. A hostNetwork pod
//     with ClusterFirst silently gets Default too: it needs ClusterFirstWithHostNet.
//  4. One endpoint of a Service has a name of its own: <hostname>.<service>.<namespace>.svc.cluster.local
//     when its pod sets spec.hostname and names the Service in spec.subdomain (as a StatefulSet's
//     pods do: db-0.db.default.svc.cluster.local), else its dashed IP (10-244-1-5.db.default.svc...).
//
// What it simplifies: CoreDNS runs as one component of the control plane, not as pods behind the
// kube-dns Service; no SRV or PTR records, no pod records (<dashed-ip>.<namespace>.pod.cluster.local,
// which kubeadm's Corefile serves with "pods insecure"), no caching, no dnsConfig; names outside cluster.local are answered NXDOMAIN by a stand-in upstream.
package dns
