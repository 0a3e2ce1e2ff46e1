// pki.go: the cluster's certificates. The CA (kubeadm's /etc/kubernetes/pki/ca.crt), which
// kube-controller-manager publishes into every namespace as the ConfigMap kube-root-ca.crt (and every
// pod mounts as ca.crt), and which signs each kubelet's client certificate. `kubesim serve` passes the
// CA that signs its serving certificate, with its key (Config.RootCA, RootCAKey); otherwise the
// cluster makes one of its own from its seed, the same bytes on every run, so that step mode stays
// reproducible: an Ed25519 key (whose signatures are deterministic) drawn from the seed, valid for ten
// years from the Epoch, as kubeadm issues its CA.
//
// A kubelet authenticates as system:node:NAME (group system:nodes) with a client certificate that
// kube-controller-manager's CSR signer signs when the node joins (kubeadm join's TLS bootstrap): valid
// from five minutes before it is signed for --cluster-signing-duration, 8760h. The kubelet's
// credential at the apiserver carries the same validity, so a run past a year would be refused 401
// exactly when openssl on the node says the certificate has expired. Kubelet certificate rotation, on
// by default with kubeadm, asks for a new certificate when 70-90% of the old one's life has passed;
// kubesim does not model rotation: a certificate lives until ExpireCredential ends it or
// RenewCredential replaces it (faults.go). The kubelet also makes itself a self-signed serving
// certificate when it starts (serverTLSBootstrap is off by default with kubeadm).
//
//	issueKubeletCredential(node)    at StartNode: the credential, and what /var/lib/kubelet/pki holds
//	kubeletFilesLocked(user)        the directory's files, their certificates built on first read
//
// Nothing is signed until someone reads a file (inspect_pki.go): a cluster that never asks pays for
// a few timestamps. What is built is deterministic for a seed: every key is Ed25519, drawn from a hash
// of the seed and the node's name, as the CA's is (a real kubelet's keys are ECDSA and RSA).
package sim

import (
	"crypto"
	"crypto/ed25519"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"kubesim/apiserver"
)

const (
	// kubeletClientTTL is kube-controller-manager's --cluster-signing-duration: the life of the
	// client certificate its CSR signer gives a kubelet.
	kubeletClientTTL = 8760 * time.Hour
	// signerBackdate: the CSR signer starts a certificate's life five minutes before it signs it, so
	// that a node whose clock is a little behind accepts it at once.
	signerBackdate = 5 * time.Minute
	// The serving certificate a kubelet makes for itself lasts a year from an hour before it starts
	// (client-go's cert.GenerateSelfSignedCertKey).
	kubeletServingTTL = 365 * 24 * time.Hour
	servingBackdate   = time.Hour
	// kubeletPKIDir is where a kubelet keeps its certificates (--cert-dir).
	kubeletPKIDir = "/var/lib/kubelet/pki"
)

// kubeletPKI is what one node's /var/lib/kubelet/pki holds. Cluster.credMu guards it.
type kubeletPKI struct {
	node    string
	started time.Time // when the kubelet started, by the node's clock: it made kubelet.crt and .key then
	// client is every client certificate the cluster issued the kubelet, oldest first; the last is
	// kubelet-client-current.pem, and the kubelet's credential carries its validity.
	client []*clientCert
	// servingCert (the certificate, then its self-signed CA's) and servingKey, once read.
	servingCert, servingKey []byte
}

// clientCert is one kubelet-client-<issued>.pem: a client certificate and its key.
type clientCert struct {
	issued              time.Time // by the node's clock: the file's name and modification time
	notBefore, notAfter time.Time
	file                []byte // the certificate, then its key, PEM; built on first read, dropped when the validity changes
}

// newClientCert is a client certificate the CSR signer signs at now, which the kubelet writes at
// its own clock's nodeNow.
func newClientCert(now, nodeNow time.Time) *clientCert {
	return &clientCert{issued: nodeNow, notBefore: now.Add(-signerBackdate), notAfter: now.Add(kubeletClientTTL - signerBackdate)}
}

// current is the kubelet's client certificate now: kubelet-client-current.pem's target.
func (p *kubeletPKI) current() *clientCert { return p.client[len(p.client)-1] }

// setRootCA takes the CA from the Config, or makes one from the seed.
func (c *Cluster) setRootCA() error {
	if c.rootCA, c.rootCAKey = c.Config.RootCA, c.Config.RootCAKey; c.rootCA != nil {
		if c.rootCAKey == nil {
			return errors.New("Config.RootCA needs its key, Config.RootCAKey: the CA signs each kubelet's client certificate")
		}
		return nil
	}
	var err error
	c.rootCA, c.rootCAKey, err = seededCA(c.Config.Seed)
	return err
}

// seededCA returns a self-signed CA certificate, PEM, and its key, which depend on seed alone.
func seededCA(seed int64) ([]byte, ed25519.PrivateKey, error) {
	key := seededKey(seed, "kubesim cluster CA")
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kubernetes"},
		NotBefore: Epoch, NotAfter: Epoch.AddDate(10, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment}
	der, err := x509.CreateCertificate(nil, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, nil, fmt.Errorf("the cluster's CA: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), key, nil
}

// seededHash is a hash of what and the seed: the source of every seeded key and serial number.
func seededHash(seed int64, what string) [32]byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(seed))
	return sha256.Sum256(append([]byte(what+" "), b[:]...))
}

func seededKey(seed int64, what string) ed25519.PrivateKey {
	h := seededHash(seed, what)
	return ed25519.NewKeyFromSeed(h[:])
}

// seededSerial is a 128-bit serial number, as the CSR signer draws one at random.
func seededSerial(seed int64, what string) *big.Int {
	h := seededHash(seed, "serial of "+what)
	h[15] |= 1 // never zero
	return new(big.Int).SetBytes(h[:16])
}

// issueKubeletCredential issues node's kubelet its credential and its first client certificate, signed
// now, and notes when the kubelet made its serving certificate (now too).
func (c *Cluster) issueKubeletCredential(node string) {
	now := c.Now()
	c.credMu.Lock()
	defer c.credMu.Unlock()
	user := nodeUser(node)
	p := &kubeletPKI{node: node, started: now, client: []*clientCert{newClientCert(now, now)}}
	c.kubeletPKI[user] = p
	cr, ok := c.creds[user] // a node started again keeps its token
	if !ok {
		cr = c.newCredentialLocked(user, []string{apiserver.GroupNodes})
	}
	cr.NotBefore, cr.NotAfter = p.current().notBefore, p.current().notAfter
	c.putCredentialLocked(cr)
}

// nodeNowLocked is the time by node's clock: the cluster's, off by SkewClock's skew. c.credMu must be
// held.
func (c *Cluster) nodeNowLocked(node string) time.Time { return c.Now().Add(c.nodeSkewLocked(node)) }

// nodeSkewLocked is how far node's clock is off (SkewClock). c.credMu must be held.
func (c *Cluster) nodeSkewLocked(node string) time.Duration {
	if l := c.links["kubelet/"+node]; l != nil {
		return time.Duration(l.skew.Load())
	}
	return 0
}

// nodeFile is one entry of a node's /var/lib/kubelet/pki.
type nodeFile struct {
	name    string
	mode    string // as ls -l shows it
	modTime time.Time
	data    []byte // a file's content
	target  string // a symlink's
}

// kubeletFilesLocked returns the files of user's kubelet's /var/lib/kubelet/pki, by name, building
// the certificates not yet read: kubelet-client-<issued>.pem for each client certificate,
// kubelet-client-current.pem (a symlink to the last), kubelet.crt and kubelet.key. c.credMu must be
// held.
func (c *Cluster) kubeletFilesLocked(user string) ([]nodeFile, error) {
	p := c.kubeletPKI[user]
	if p == nil {
		return nil, fmt.Errorf("no kubelet credential was issued to %s", user)
	}
	var files []nodeFile
	for i, cert := range p.client {
		if cert.file == nil {
			file, err := c.signClientCert(p.node, i, cert)
			if err != nil {
				return nil, err
			}
			cert.file = file
		}
		files = append(files, nodeFile{name: clientCertName(cert), mode: "-rw-------", modTime: cert.issued, data: cert.file})
	}
	files = append(files, nodeFile{name: "kubelet-client-current.pem", mode: "lrwxrwxrwx", modTime: p.current().issued,
		target: kubeletPKIDir + "/" + clientCertName(p.current())})
	if p.servingCert == nil {
		var err error
		if p.servingCert, p.servingKey, err = c.signServingCert(p); err != nil {
			return nil, err
		}
	}
	files = append(files, nodeFile{name: "kubelet.crt", mode: "-rw-r--r--", modTime: p.started, data: p.servingCert},
		nodeFile{name: "kubelet.key", mode: "-rw-------", modTime: p.started, data: p.servingKey})
	slices.SortFunc(files, func(a, b nodeFile) int { return strings.Compare(a.name, b.name) })
	return files, nil
}

// clientCertName is the file the kubelet's certificate store writes a new client certificate to.
func clientCertName(cert *clientCert) string {
	return "kubelet-client-" + cert.issued.UTC().Format("2006-01-02-15-04-05") + ".pem"
}

// signClientCert builds the i-th client certificate of node's kubelet, as the CSR signer signs it
// with the cluster's CA: subject O=system:nodes, CN=system:node:NAME, for client auth. The file holds
// the certificate, then its key.
func (c *Cluster) signClientCert(node string, i int, cert *clientCert) ([]byte, error) {
	block, _ := pem.Decode(c.rootCA)
	if block == nil {
		return nil, errors.New("the cluster's CA is not PEM")
	}
	ca, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("the cluster's CA: %w", err)
	}
	what := fmt.Sprintf("kubelet client certificate %d of %s", i, node)
	key := seededKey(c.Config.Seed, what)
	tmpl := &x509.Certificate{SerialNumber: seededSerial(c.Config.Seed, what),
		Subject:   pkix.Name{CommonName: nodeUser(node), Organization: []string{apiserver.GroupNodes}},
		NotBefore: cert.notBefore, NotAfter: cert.notAfter, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	// A serve cluster's CA key is ECDSA, whose signatures draw randomness; the seeded Ed25519 one's
	// do not.
	der, err := x509.CreateCertificate(cryptorand.Reader, tmpl, ca, key.Public(), c.rootCAKey)
	if err != nil {
		return nil, fmt.Errorf("signing the client certificate of %s: %w", nodeUser(node), err)
	}
	keyPEM, err := privateKeyPEM(key)
	if err != nil {
		return nil, err
	}
	return append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), keyPEM...), nil
}

// signServingCert builds kubelet.crt and kubelet.key as a kubelet makes them when it starts without a
// serving certificate: a CA of its own (CN=NODE-ca@UNIX) signs a certificate for the node's name
// (CN=NODE@UNIX), and kubelet.crt holds the certificate, then that CA's.
func (c *Cluster) signServingCert(p *kubeletPKI) (certPEM, keyPEM []byte, err error) {
	from, stamp := p.started.Add(-servingBackdate), p.started.Unix()
	caKey, key := seededKey(c.Config.Seed, "kubelet serving CA of "+p.node), seededKey(c.Config.Seed, "kubelet serving certificate of "+p.node)
	caTmpl := &x509.Certificate{SerialNumber: seededSerial(c.Config.Seed, "kubelet serving CA of "+p.node),
		Subject:   pkix.Name{CommonName: fmt.Sprintf("%s-ca@%d", p.node, stamp)},
		NotBefore: from, NotAfter: from.Add(kubeletServingTTL), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageKeyEncipherment | x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(nil, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("the serving CA of %s: %w", p.node, err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: seededSerial(c.Config.Seed, "kubelet serving certificate of "+p.node),
		Subject:   pkix.Name{CommonName: fmt.Sprintf("%s@%d", p.node, stamp)},
		NotBefore: from, NotAfter: from.Add(kubeletServingTTL), BasicConstraintsValid: true, DNSNames: []string{p.node},
		KeyUsage: x509.KeyUsageKeyEncipherment | x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(nil, tmpl, ca, key.Public(), caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("the serving certificate of %s: %w", p.node, err)
	}
	if keyPEM, err = privateKeyPEM(key); err != nil {
		return nil, nil, err
	}
	certPEM = append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})...)
	return certPEM, keyPEM, nil
}

func privateKeyPEM(key crypto.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}
