// names.go: the apiserver's random choices, all from seeded sources so that step mode is
// reproducible: generateName suffixes and UIDs.
package apiserver

import (
	"encoding/hex"
	"math/rand"
)

// suffixAlphabet is the alphabet Kubernetes draws generateName suffixes from: no vowels (so no words)
// and no characters that look alike (0/o, 1/l).
const suffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedBaseLength is how much of a generateName Kubernetes keeps: 63 (the longest DNS label)
// minus the 5 random characters, so that a generated name fits every kind's name rule
// (k8s.io/apiserver/pkg/storage/names, MaxGeneratedNameLength).
const maxGeneratedBaseLength = 63 - 5

// generateName returns base cut to 58 characters followed by 5 random ones, as in
// "nginx-7c5d9f8b6-x2k9p".
func (s *Server) generateName(base string) string {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	return suffixed(s.rnd, base)
}

// tokenVolumeName is a new kube-api-access-xxxxx, drawn from the token volumes' own stream.
func (s *Server) tokenVolumeName() string {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	return suffixed(s.tokenRnd, serviceAccountVolumePrefix)
}

// suffixed is base cut to maxGeneratedBaseLength and 5 characters drawn from rnd.
func suffixed(rnd *rand.Rand, base string) string {
	base = base[:min(len(base), maxGeneratedBaseLength)]
	b := []byte(base)
	for range 5 {
		b = append(b, suffixAlphabet[rnd.Intn(len(suffixAlphabet))])
	}
	return string(b)
}

// newUID returns a version-4-shaped UUID from the seeded source.
func (s *Server) newUID() string {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	var b [16]byte
	for i := range b {
		b[i] = byte(s.rnd.Intn(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	// xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, in one allocation (every create asks for one).
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	hex.Encode(out[9:13], b[4:6])
	hex.Encode(out[14:18], b[6:8])
	hex.Encode(out[19:23], b[8:10])
	hex.Encode(out[24:36], b[10:])
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}

func (s *Server) random63() int64 {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	return s.rnd.Int63()
}
