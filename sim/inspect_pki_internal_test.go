package sim

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inspect runs one command at the prompt and returns what it printed, or its error's text.
func inspect(t *testing.T, c *Cluster, line string) string {
	t.Helper()
	var out strings.Builder
	ok, err := c.Inspect(context.Background(), &out, line)
	require.True(t, ok, line)
	if err != nil {
		return err.Error()
	}
	return out.String()
}

// A node's /var/lib/kubelet/pki is a kubeadm node's: the kubelet's client certificate, signed by the
// cluster's CA for system:node:NAME when the node joined, valid 8760h from five minutes before
// (kube-controller-manager's CSR signer), behind the symlink kubelet-client-current.pem; openssl
// reads it as OpenSSL 3 does, and agrees with the apiserver on when it expires. ExpireCredential
// makes it expired to both; RenewCredential writes a new one.
// https://kubernetes.io/docs/reference/access-authn-authz/kubelet-tls-bootstrapping/
func TestKubeletPKIShowsTheClientCertificateTheApiserverChecks(t *testing.T) {
	ctx := context.Background()
	c, err := New(ctx, Config{Seed: 7, Nodes: 2})
	require.NoError(t, err)
	defer c.Close()

	listing := inspect(t, c, "ls -l /var/lib/kubelet/pki --node node-1")
	entries := regexp.MustCompile(`^total 12
-rw------- 1 root root  \d{3} Jan  1 00:00 (kubelet-client-(2025-01-01-00-00-\d\d)\.pem)
lrwxrwxrwx 1 root root   59 Jan  1 00:00 kubelet-client-current\.pem -> /var/lib/kubelet/pki/(kubelet-client-2025-01-01-00-00-\d\d\.pem)
-rw-r--r-- 1 root root \d{4} Jan  1 00:00 kubelet\.crt
-rw------- 1 root root  \d{3} Jan  1 00:00 kubelet\.key
$`).FindStringSubmatch(listing)
	require.NotNil(t, entries, "ls -l:\n%s", listing)
	assert.Equal(t, entries[1], entries[3], "the symlink points to the one client certificate")
	issued, err := time.Parse("2006-01-02-15-04-05", entries[2])
	require.NoError(t, err)

	notBefore, notAfter := issued.Add(-5*time.Minute), issued.Add(8760*time.Hour-5*time.Minute)
	path := "/var/lib/kubelet/pki/kubelet-client-current.pem"
	assert.Equal(t, "notBefore="+opensslTime(notBefore)+"\nnotAfter="+opensslTime(notAfter)+"\n",
		inspect(t, c, "openssl x509 -in "+path+" -noout -dates --node node-1"))
	assert.Equal(t, "subject=O = system:nodes, CN = system:node:node-1\nissuer=CN = kubernetes\n",
		inspect(t, c, "openssl x509 -in "+path+" -noout -subject -issuer --node node-1"))
	cred := c.creds["system:node:node-1"]
	assert.Equal(t, notAfter, cred.NotAfter, "the apiserver refuses the kubelet when openssl says it has expired")

	// The certificate is real: the cluster's CA signed it, for client authentication.
	block, _ := pem.Decode([]byte(inspect(t, c, "cat "+path+" --node node-1")))
	require.NotNil(t, block)
	cert, err := x509.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	roots := x509.NewCertPool()
	require.True(t, roots.AppendCertsFromPEM(c.rootCA))
	_, err = cert.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: c.Now(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	assert.NoError(t, err)
	assert.Equal(t, "Certificate will not expire\n", inspect(t, c, "openssl x509 -in "+path+" -noout -checkend 86400 --node node-1"))
	assert.Contains(t, inspect(t, c, "openssl x509 -in "+path+" --node node-1"), "-----BEGIN CERTIFICATE-----\n", "without -noout, the PEM")

	// The serving certificate is the kubelet's own, self-signed.
	assert.Regexp(t, `^subject=CN = node-1@\d+\nissuer=CN = node-1-ca@\d+\n$`,
		inspect(t, c, "openssl x509 -in /var/lib/kubelet/pki/kubelet.crt -noout -subject -issuer --node node-1"))

	// A node two years ahead finds the certificate expired; the control plane does not.
	require.NoError(t, c.SkewClock("node-2", 2*365*24*time.Hour))
	assert.Equal(t, "Certificate will expire\n", inspect(t, c, "openssl x509 -in "+path+" -noout -checkend 0 --node node-2"))

	// Expired: the same file, its end moved to a second ago.
	require.NoError(t, c.ExpireCredential("system:node:node-1"))
	expired := c.Now().Add(-time.Second)
	assert.Equal(t, "Certificate will expire\n", inspect(t, c, "openssl x509 -in "+path+" -noout -checkend 86400 --node node-1"))
	assert.Equal(t, "notAfter="+opensslTime(expired)+"\n", inspect(t, c, "openssl x509 -in "+path+" -noout -enddate --node node-1"))
	assert.Equal(t, expired, c.creds["system:node:node-1"].NotAfter)

	// Renewed a minute later: a new file, the symlink moved to it, the old one kept.
	require.NoError(t, c.Driver.Advance(ctx, time.Minute))
	require.NoError(t, c.RenewCredential("system:node:node-1"))
	listing = inspect(t, c, "ls /var/lib/kubelet/pki --node node-1")
	assert.Len(t, strings.Split(strings.TrimSpace(listing), "\n"), 5, listing)
	assert.Equal(t, "Certificate will not expire\n", inspect(t, c, "openssl x509 -in "+path+" -noout -checkend 86400 --node node-1"))

	// What is not there.
	assert.Equal(t, "ls: cannot access '/var/lib/kubelet/pki/x.pem': No such file or directory",
		inspect(t, c, "ls -l /var/lib/kubelet/pki/x.pem --node node-1"))
	assert.Equal(t, "Could not open file or uri for loading certificate from /x\n"+
		"error:80000002:system library:file_open:No such file or directory\nUnable to load certificate\n"+onlyPKI,
		inspect(t, c, "openssl x509 -in /x -noout -dates --node node-1"))
	assert.Contains(t, inspect(t, c, "openssl x509 -in "+path+" -text --node node-1"), "-text is left out")
	assert.Contains(t, inspect(t, c, "ls /var/lib/kubelet/pki"), "say which with --node NODE")
}

// The certificates are the same bytes for the same seed: step mode's runs are identical.
func TestKubeletCertificatesAreTheSameForTheSameSeed(t *testing.T) {
	files := func() string {
		c, err := New(context.Background(), Config{Seed: 7, Nodes: 1})
		require.NoError(t, err)
		defer c.Close()
		return inspect(t, c, "cat /var/lib/kubelet/pki/kubelet-client-current.pem /var/lib/kubelet/pki/kubelet.crt /var/lib/kubelet/pki/kubelet.key")
	}
	first := files()
	assert.Equal(t, first, files())
	assert.Equal(t, 5, strings.Count(first, "-----BEGIN "), "client certificate and key, serving certificate, its CA, its key")
}
