// serve_pki.go: the certificates of `kubesim serve`, as kubeadm makes them (kubeadm init phase certs
// and kubeconfig): a cluster CA, the apiserver's serving certificate for 127.0.0.1 and localhost, and
// the admin's client certificate (CN=kubernetes-admin, O=system:masters), whose subject the apiserver
// reads as user and groups. The CA is kept in the data directory so that a restarted cluster keeps
// trusting the kubeconfigs it wrote; the leaf certificates are issued afresh at each start.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"kubesim/sim"

	"sigs.k8s.io/yaml"
)

// certValidity is how long the leaf certificates last (kubeadm's default is one year).
const certValidity = 365 * 24 * time.Hour

// pki is the cluster CA and the certificates issued by it.
type pki struct {
	caCert  *x509.Certificate
	caKey   *ecdsa.PrivateKey
	caPEM   []byte
	server  tls.Certificate
	admin   keyPair // CN=kubernetes-admin, O=system:masters
	created time.Time
}

// keyPair is a certificate and its key, PEM-encoded for a kubeconfig.
type keyPair struct{ certPEM, keyPEM []byte }

// loadOrCreatePKI reads the CA from dir (ca.crt, ca.key) or creates it there, then issues the server
// and admin certificates.
func loadOrCreatePKI(dir string) (*pki, error) {
	p := &pki{created: time.Now()}
	if err := p.loadCA(dir); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if err := p.createCA(dir); err != nil {
			return nil, err
		}
	}
	certPEM, keyPEM, err := p.issue(x509.Certificate{Subject: pkix.Name{CommonName: "kube-apiserver"},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		return nil, err
	}
	if p.server, err = tls.X509KeyPair(certPEM, keyPEM); err != nil {
		return nil, err
	}
	certPEM, keyPEM, err = p.issue(x509.Certificate{Subject: pkix.Name{CommonName: "kubernetes-admin", Organization: []string{"system:masters"}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	if err != nil {
		return nil, err
	}
	p.admin = keyPair{certPEM, keyPEM}
	return p, nil
}

func (p *pki) loadCA(dir string) error {
	certPEM, err := os.ReadFile(filepath.Join(dir, "ca.crt"))
	if err != nil {
		return err
	}
	keyPEM, err := os.ReadFile(filepath.Join(dir, "ca.key"))
	if err != nil {
		return err
	}
	cb, kb := pemBlock(certPEM), pemBlock(keyPEM)
	if cb == nil || kb == nil {
		return fmt.Errorf("%s: ca.crt or ca.key is not PEM", dir)
	}
	if p.caCert, err = x509.ParseCertificate(cb); err != nil {
		return err
	}
	if p.caKey, err = x509.ParseECPrivateKey(kb); err != nil {
		return err
	}
	p.caPEM = certPEM
	return nil
}

func pemBlock(data []byte) []byte {
	b, _ := pem.Decode(data)
	if b == nil {
		return nil
	}
	return b.Bytes
}

func (p *pki) createCA(dir string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{SerialNumber: serial(), Subject: pkix.Name{CommonName: "kubesim-ca"},
		NotBefore: p.created.Add(-time.Hour), NotAfter: p.created.Add(10 * certValidity),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	if p.caCert, err = x509.ParseCertificate(der); err != nil {
		return err
	}
	p.caKey = key
	p.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "ca.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "ca.crt"), p.caPEM, 0o644)
}

// issue signs a leaf certificate with the CA.
func (p *pki) issue(tmpl x509.Certificate) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl.SerialNumber = serial()
	// The apiserver checks a client certificate against the cluster's clock, which in step mode
	// starts at sim.Epoch: a leaf is valid from whichever comes first.
	notBefore := p.created
	if sim.Epoch.Before(notBefore) {
		notBefore = sim.Epoch
	}
	tmpl.NotBefore, tmpl.NotAfter = notBefore.Add(-time.Hour), p.created.Add(certValidity)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, &tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}

// serverTLS is the listener's TLS: the serving certificate, and client certificates verified against
// the CA when a client offers one (a bearer token is the other way in).
func (p *pki) serverTLS() (*tls.Config, error) {
	pool := x509.NewCertPool()
	pool.AddCert(p.caCert)
	return &tls.Config{Certificates: []tls.Certificate{p.server}, ClientCAs: pool,
		ClientAuth: tls.VerifyClientCertIfGiven, MinVersion: tls.VersionTLS12}, nil
}

// kubeconfig is the clientcmd v1 Config, with the fields kubesim writes.
type kubeconfig struct {
	APIVersion     string         `json:"apiVersion"`
	Kind           string         `json:"kind"`
	Clusters       []namedCluster `json:"clusters"`
	Users          []namedUser    `json:"users"`
	Contexts       []namedContext `json:"contexts"`
	CurrentContext string         `json:"current-context"`
	Preferences    struct{}       `json:"preferences"`
}

type namedCluster struct {
	Name    string `json:"name"`
	Cluster struct {
		Server                   string `json:"server"`
		CertificateAuthorityData string `json:"certificate-authority-data"`
	} `json:"cluster"`
}

type namedUser struct {
	Name string `json:"name"`
	User struct {
		ClientCertificateData string `json:"client-certificate-data,omitempty"`
		ClientKeyData         string `json:"client-key-data,omitempty"`
		Token                 string `json:"token,omitempty"`
	} `json:"user"`
}

type namedContext struct {
	Name    string `json:"name"`
	Context struct {
		Cluster   string `json:"cluster"`
		User      string `json:"user"`
		Namespace string `json:"namespace,omitempty"`
	} `json:"context"`
}

// writeKubeconfig writes the two contexts: kubesim-admin (current) and kubesim-alice.
func (p *pki) writeKubeconfig(path, server, aliceToken string) error {
	enc := base64.StdEncoding.EncodeToString
	cfg := kubeconfig{APIVersion: "v1", Kind: "Config", CurrentContext: "kubesim-admin"}
	var cl namedCluster
	cl.Name, cl.Cluster.Server, cl.Cluster.CertificateAuthorityData = "kubesim", server, enc(p.caPEM)
	cfg.Clusters = []namedCluster{cl}
	var admin, alice namedUser
	admin.Name, admin.User.ClientCertificateData, admin.User.ClientKeyData = "kubernetes-admin", enc(p.admin.certPEM), enc(p.admin.keyPEM)
	alice.Name, alice.User.Token = "alice", aliceToken
	cfg.Users = []namedUser{admin, alice}
	for _, u := range []string{"admin", "alice"} {
		var ctx namedContext
		ctx.Name, ctx.Context.Cluster, ctx.Context.User, ctx.Context.Namespace = "kubesim-"+u, "kubesim", u, "default"
		if u == "admin" {
			ctx.Context.User = "kubernetes-admin"
		}
		cfg.Contexts = append(cfg.Contexts, ctx)
	}
	data, err := yaml.Marshal(cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}
