// pki.go: the cluster's CA certificate, which kube-controller-manager publishes into every namespace
// as the ConfigMap kube-root-ca.crt (and every pod mounts as ca.crt). `kubesim serve` passes the CA
// that signs its serving certificate (Config.RootCA); otherwise the cluster makes one of its own from
// its seed, the same bytes on every run, so that step mode stays reproducible: an Ed25519 key (whose
// signatures are deterministic) drawn from the seed, valid for ten years from the Epoch, as kubeadm
// issues its CA.
package sim

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/pem"
	"fmt"
	"math/big"
)

// seededCA returns a self-signed CA certificate, PEM, that depends on seed alone.
func seededCA(seed int64) ([]byte, error) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(seed))
	keySeed := sha256.Sum256(append([]byte("kubesim cluster CA "), b[:]...))
	key := ed25519.NewKeyFromSeed(keySeed[:])
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kubernetes"},
		NotBefore: Epoch, NotAfter: Epoch.AddDate(10, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment}
	der, err := x509.CreateCertificate(nil, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, fmt.Errorf("the cluster's CA: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}
