// step.go: `kubesim step`, moving a `kubesim serve --step` cluster on from another terminal. It reads
// the kubeconfig serve wrote (the same one kubectl uses: --kubeconfig, else $KUBECONFIG, else
// ~/.kube/config), and calls serve's control endpoint with the current context's credentials, the
// admin's; serve prints the story, step prints where the cluster stands.
//
//	kubesim step                 one step
//	kubesim step 5               five steps
//	kubesim step --until "pods bound"
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

const stepUsage = `usage: kubesim step [N]   or   kubesim step --until COND

Moves the cluster of a kubesim serve --step on: one step (a unit of work of one component), N steps,
or until a condition holds ("pods bound", "deployment nginx available"). The story prints in the serve
terminal.`

func step(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("step", stepUsage, stderr)
	until := fs.String("until", "", `run until a condition holds, e.g. "pods bound", "deployment nginx available"`)
	kubeconfigPath := fs.String("kubeconfig", "", "the kubeconfig kubesim serve wrote (default: $KUBECONFIG, else ~/.kube/config)")
	contextName := fs.String("context", "", "the kubeconfig context to use (default: its current context, kubesim-admin)")
	names, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	q := url.Values{}
	switch {
	case len(names) > 1 || len(names) == 1 && *until != "":
		fmt.Fprintln(stderr, "kubesim step: give a number of steps or --until COND, not both")
		return 2
	case len(names) == 1:
		q.Set("n", names[0])
	case *until != "":
		q.Set("until", *until)
	}
	client, server, err := kubeconfigClient(*kubeconfigPath, *contextName)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim step: %v\n", err)
		return 1
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, server+StepPath+"?"+q.Encode(), nil)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim step: %v\n", err)
		return 1
	}
	if client.token != "" {
		req.Header.Set("Authorization", "Bearer "+client.token)
	}
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim step: %v (is kubesim serve --step running?)\n", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	// The front's own refusals (401, 403) are Status objects: say their message.
	var status struct{ Kind, Message string }
	if json.Unmarshal(body, &status) == nil && status.Kind == "Status" {
		body = []byte(status.Message + "\n")
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		stdout.Write(body)
		return 0
	case resp.StatusCode == http.StatusNotFound:
		fmt.Fprintln(stderr, "kubesim step: the server is not in step mode (start it with kubesim serve --step)")
	case resp.StatusCode == http.StatusBadRequest:
		fmt.Fprintf(stderr, "kubesim step: %s", body)
		return 2
	default:
		fmt.Fprintf(stderr, "kubesim step: %s: %s", resp.Status, body)
	}
	return 1
}

// kubeClient is an HTTPS client with a kubeconfig user's credentials.
type kubeClient struct {
	*http.Client
	token string
}

// kubeconfigClient reads a kubeconfig (path, else $KUBECONFIG's first file, else ~/.kube/config) and
// returns a client for the context's user and the server's URL.
func kubeconfigClient(path, contextName string) (*kubeClient, string, error) {
	if path == "" {
		path, _, _ = strings.Cut(os.Getenv("KUBECONFIG"), string(os.PathListSeparator))
	}
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, "", err
		}
		path = filepath.Join(home, ".kube", "config")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("%w (run the export KUBECONFIG=... line kubesim serve printed, or give --kubeconfig)", err)
	}
	var cfg kubeconfig
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if contextName == "" {
		contextName = cfg.CurrentContext
	}
	var clusterName, userName string
	for _, c := range cfg.Contexts {
		if c.Name == contextName {
			clusterName, userName = c.Context.Cluster, c.Context.User
		}
	}
	if clusterName == "" {
		return nil, "", fmt.Errorf("%s: no context %q", path, contextName)
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	var server string
	for _, c := range cfg.Clusters {
		if c.Name != clusterName {
			continue
		}
		server = c.Cluster.Server
		ca, err := base64.StdEncoding.DecodeString(c.Cluster.CertificateAuthorityData)
		if err != nil {
			return nil, "", fmt.Errorf("%s: cluster %s: certificate-authority-data: %w", path, c.Name, err)
		}
		tlsConfig.RootCAs = x509.NewCertPool()
		if !tlsConfig.RootCAs.AppendCertsFromPEM(ca) {
			return nil, "", fmt.Errorf("%s: cluster %s: no certificate in certificate-authority-data", path, c.Name)
		}
	}
	if server == "" {
		return nil, "", fmt.Errorf("%s: no cluster %q", path, clusterName)
	}
	client := &kubeClient{}
	for _, u := range cfg.Users {
		if u.Name != userName {
			continue
		}
		client.token = u.User.Token
		if u.User.ClientCertificateData != "" {
			certPEM, err1 := base64.StdEncoding.DecodeString(u.User.ClientCertificateData)
			keyPEM, err2 := base64.StdEncoding.DecodeString(u.User.ClientKeyData)
			if err1 != nil || err2 != nil {
				return nil, "", fmt.Errorf("%s: user %s: client certificate or key is not base64", path, u.Name)
			}
			cert, err := tls.X509KeyPair(certPEM, keyPEM)
			if err != nil {
				return nil, "", fmt.Errorf("%s: user %s: %w", path, u.Name, err)
			}
			tlsConfig.Certificates = []tls.Certificate{cert}
		}
	}
	client.Client = &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig}}
	return client, server, nil
}
