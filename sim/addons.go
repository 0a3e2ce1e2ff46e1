// addons.go: the add-ons `kubeadm init` installs in kube-system once the control plane is up
// (cmd/kubeadm/app/phases/addons in Kubernetes): CoreDNS (its ServiceAccount, ConfigMap, a Deployment of
// two and the kube-dns Service at 10.96.0.10) and kube-proxy (its ServiceAccount, ConfigMap and a
// DaemonSet: a pod on every node, the control-plane node included). A cluster with a control-plane
// node installs them (controlplane_node.go), so that kube-system looks as on a kubeadm cluster:
// `kubectl -n kube-system get pods`, `kubectl -n kube-system logs deployment/coredns` (article 2, 5.3 and
// 7.1: look at CoreDNS's logs), `kubectl -n kube-system logs kube-proxy-xxxxx`, `kubectl drain
// --ignore-daemonsets`.
//
// The manifests are kubeadm v1.34's, less what kubesim does not model (securityContext, hostPath
// volumes). kubesim's cluster DNS and each node's kube-proxy are components that run whether or not
// these pods do: the pods are how a learner sees them, and what they cost the nodes. Each coredns
// replica shows the one CoreDNS's log; each kube-proxy pod its own node's kube-proxy's.
package sim

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/dns"
	fakeruntime "kubesim/runtime"
)

// addonsManifest is kubeadm's add-ons, for a cluster whose pod network is clusterCIDR.
func addonsManifest(clusterCIDR string) string {
	return strings.NewReplacer("COREDNS_IMAGE", fakeruntime.KubeadmImages["coredns"], "KUBE_PROXY_IMAGE", fakeruntime.KubeadmImages["kube-proxy"],
		"DNS_IP", dns.ClusterDNSIP, "CLUSTER_CIDR", clusterCIDR).Replace(`apiVersion: v1
kind: ServiceAccount
metadata:
  name: coredns
  namespace: kube-system
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: coredns
  namespace: kube-system
data:
  Corefile: |
    .:53 {
        errors
        health {
           lameduck 5s
        }
        ready
        kubernetes cluster.local in-addr.arpa ip6.arpa {
           pods insecure
           fallthrough in-addr.arpa ip6.arpa
           ttl 30
        }
        prometheus :9153
        forward . /etc/resolv.conf {
           max_concurrent 1000
        }
        cache 30 {
           disable success cluster.local
           disable denial cluster.local
        }
        loop
        reload
        loadbalance
    }
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns
  namespace: kube-system
  labels:
    k8s-app: kube-dns
spec:
  replicas: 2
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 1
  selector:
    matchLabels:
      k8s-app: kube-dns
  template:
    metadata:
      labels:
        k8s-app: kube-dns
    spec:
      priorityClassName: system-cluster-critical
      serviceAccountName: coredns
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm:
              labelSelector:
                matchExpressions:
                - key: k8s-app
                  operator: In
                  values: ["kube-dns"]
              topologyKey: kubernetes.io/hostname
      tolerations:
      - key: CriticalAddonsOnly
        operator: Exists
      - key: node-role.kubernetes.io/control-plane
        effect: NoSchedule
      nodeSelector:
        kubernetes.io/os: linux
      containers:
      - name: coredns
        image: COREDNS_IMAGE
        imagePullPolicy: IfNotPresent
        resources:
          limits:
            memory: 170Mi
          requests:
            cpu: 100m
            memory: 70Mi
        args: [ "-conf", "/etc/coredns/Corefile" ]
        volumeMounts:
        - name: config-volume
          mountPath: /etc/coredns
          readOnly: true
        ports:
        - containerPort: 53
          name: dns
          protocol: UDP
        - containerPort: 53
          name: dns-tcp
          protocol: TCP
        - containerPort: 9153
          name: metrics
          protocol: TCP
        - containerPort: 8080
          name: liveness-probe
          protocol: TCP
        - containerPort: 8181
          name: readiness-probe
          protocol: TCP
        livenessProbe:
          httpGet:
            path: /health
            port: liveness-probe
            scheme: HTTP
          initialDelaySeconds: 60
          timeoutSeconds: 5
          successThreshold: 1
          failureThreshold: 5
        readinessProbe:
          httpGet:
            path: /ready
            port: readiness-probe
            scheme: HTTP
      dnsPolicy: Default
      volumes:
        - name: config-volume
          configMap:
            name: coredns
            items:
            - key: Corefile
              path: Corefile
---
apiVersion: v1
kind: Service
metadata:
  labels:
    k8s-app: kube-dns
    kubernetes.io/cluster-service: "true"
    kubernetes.io/name: "CoreDNS"
  name: kube-dns
  namespace: kube-system
  annotations:
    prometheus.io/port: "9153"
    prometheus.io/scrape: "true"
spec:
  clusterIP: DNS_IP
  ports:
  - name: dns
    port: 53
    protocol: UDP
    targetPort: 53
  - name: dns-tcp
    port: 53
    protocol: TCP
    targetPort: 53
  - name: metrics
    port: 9153
    protocol: TCP
    targetPort: 9153
  selector:
    k8s-app: kube-dns
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: kube-proxy
  namespace: kube-system
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: kube-proxy
  namespace: kube-system
  labels:
    app: kube-proxy
data:
  config.conf: |
    apiVersion: kubeproxy.config.k8s.io/v1alpha1
    kind: KubeProxyConfiguration
    bindAddress: 0.0.0.0
    clusterCIDR: CLUSTER_CIDR
    mode: iptables
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  labels:
    k8s-app: kube-proxy
  name: kube-proxy
  namespace: kube-system
spec:
  selector:
    matchLabels:
      k8s-app: kube-proxy
  updateStrategy:
    type: RollingUpdate
  template:
    metadata:
      labels:
        k8s-app: kube-proxy
    spec:
      priorityClassName: system-node-critical
      containers:
      - name: kube-proxy
        image: KUBE_PROXY_IMAGE
        imagePullPolicy: IfNotPresent
        command:
        - /usr/local/bin/kube-proxy
        - --config=/var/lib/kube-proxy/config.conf
        - --hostname-override=$(NODE_NAME)
        volumeMounts:
        - mountPath: /var/lib/kube-proxy
          name: kube-proxy
        env:
          - name: NODE_NAME
            valueFrom:
              fieldRef:
                fieldPath: spec.nodeName
      hostNetwork: true
      serviceAccountName: kube-proxy
      volumes:
      - name: kube-proxy
        configMap:
          name: kube-proxy
      tolerations:
      - operator: Exists
      nodeSelector:
        kubernetes.io/os: linux
`)
}

// installAddons creates kubeadm's add-ons as the cluster's admin, each object unless it exists (a
// cluster resumed from its data has them, and its controllers are already writing to them), and
// waits until CoreDNS is available and kube-proxy runs on every node.
func (c *Cluster) installAddons(ctx context.Context, nodes int) error {
	objs, err := api.Decode([]byte(addonsManifest(c.clusterCIDR())))
	if err != nil {
		return fmt.Errorf("the add-ons' manifest: %w", err)
	}
	for _, obj := range objs {
		if _, err := c.Kubectl.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("installing the add-ons: %w", err)
		}
	}
	deployments, daemonSets := client.For[api.Deployment](c.Kubectl.Client()), client.For[api.DaemonSet](c.Kubectl.Client())
	ready := func() (bool, error) {
		d, err := deployments.Get(ctx, api.NamespaceSystem, "coredns")
		if err != nil {
			return false, err
		}
		ds, err := daemonSets.Get(ctx, api.NamespaceSystem, "kube-proxy")
		if err != nil {
			return false, err
		}
		return d.Status.AvailableReplicas == 2 && ds.Status.NumberReady == int32(nodes), nil
	}
	return c.Driver.RunUntil(ctx, "CoreDNS is available and kube-proxy runs on every node", ready, 0)
}
