package sim

import (
	"crypto/x509"
	"encoding/pem"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cluster's own CA is the same bytes for the same seed (step mode is reproducible), another for
// another seed, and a real CA certificate, valid from the Epoch for ten years.
func TestTheSeededCAIsReproducibleAndARealCA(t *testing.T) {
	a, _, err := seededCA(1)
	require.NoError(t, err)
	again, _, err := seededCA(1)
	require.NoError(t, err)
	other, _, err := seededCA(2)
	require.NoError(t, err)
	assert.Equal(t, a, again)
	assert.NotEqual(t, a, other)

	block, _ := pem.Decode(a)
	require.NotNil(t, block)
	cert, err := x509.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	assert.True(t, cert.IsCA)
	assert.Equal(t, Epoch, cert.NotBefore.UTC())
	assert.Equal(t, Epoch.AddDate(10, 0, 0), cert.NotAfter.UTC())
	assert.NoError(t, cert.CheckSignatureFrom(cert), "self-signed")
}
