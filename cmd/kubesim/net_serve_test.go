package main

import "testing"

// The networking commands of the troubleshooting articles, with the real kubectl against kubesim
// serve: expose a Deployment on another target port, then read the Service, its Endpoints and its
// EndpointSlices as kubectl prints them (describe svc reads the endpoints too).
func TestServeNetworkingWithTheRealKubectl(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	s := startServe(t, serveOptions{nodes: 2, speed: 1, port: freePort(t)})
	expect := s.expect

	expect(a("create deployment web --image=nginx:1.25 --port=8080"), `^deployment.apps/web created`)
	expect(a("rollout status deployment/web --timeout=60s"), `deployment "web" successfully rolled out`)
	expect(a("expose deployment web --port 80 --target-port 8080"), `^service/web exposed`)
	expect(a("get svc web"), `NAME TYPE CLUSTER-IP EXTERNAL-IP PORT\(S\) AGE`, `web ClusterIP 10\.\d+\.\d+\.\d+ <none> 80/TCP `)
	expect(a("describe svc web"),
		`Name: web\n`, `Selector: app=web\n`, `Type: ClusterIP\n`, `IP Family Policy: SingleStack\n`, `IP Families: IPv4\n`,
		`IP: 10\.\d+\.\d+\.\d+\n`, `Port: <unset> 80/TCP\n`, `TargetPort: 8080/TCP\n`, `Endpoints: 10\.244\.\d+\.\d+:8080\n`,
		`Session Affinity: None\n`, `Internal Traffic Policy: Cluster\n`, `Events: <none>`)
	expect(a("get endpoints web"), `Warning: v1 Endpoints is deprecated in v1\.33\+; use discovery\.k8s\.io/v1 EndpointSlice`,
		`NAME ENDPOINTS AGE`, `web 10\.244\.\d+\.\d+:8080 `)
	expect(a("describe endpoints web"), `Labels: app=web\n endpoints\.kubernetes\.io/managed-by=endpoint-controller`,
		`Addresses: 10\.244\.\d+\.\d+\n`, `<unset> 8080 TCP`)
	expect(a("get endpointslices"), `NAME ADDRESSTYPE PORTS ENDPOINTS AGE`, `kubernetes IPv4 6443 `, `web-[a-z0-9]{5} IPv4 8080 10\.244\.\d+\.\d+ `)
	expect(a("expose deployment web --name web-np --type NodePort --port 80 --target-port 8080"), `^service/web-np exposed`)
	expect(a("describe svc web-np"), `Type: NodePort\n`, `NodePort: <unset> 3\d{4}/TCP\n`, `External Traffic Policy: Cluster\n`)
	s.stopServe()
}
