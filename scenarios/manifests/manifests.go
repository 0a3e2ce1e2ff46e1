// manifests.go: the embedded files, and Read to get one by name.
package manifests

import "embed"

//go:embed *.yaml
var files embed.FS

// NginxDeployment is nginx-deployment.yaml, the articles' manifest: a Deployment named nginx, 3
// replicas of nginx:1.25 labelled app=nginx.
//
//go:embed nginx-deployment.yaml
var NginxDeployment string

// Read returns the named manifest. A name that is not here is a bug in the scenario, so it panics.
func Read(name string) string {
	data, err := files.ReadFile(name)
	if err != nil {
		panic("manifests: " + err.Error())
	}
	return string(data)
}
