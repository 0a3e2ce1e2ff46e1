// authn.go: gate 1, authentication ("who are you?"). kube-apiserver tries each configured authenticator
// (client certificates, bearer tokens, service account tokens, OIDC) until one recognises the
// credential; if none does, the answer is 401 Unauthorized and nothing else happens.
//
// kubesim simplifies: every identity (admin, each component, each kubelet, each learner's user) is a
// static bearer token, with an optional validity window that stands in for a client certificate's
// NotBefore/NotAfter, so that an expired kubelet credential fails exactly where a real one does. A
// client certificate that the HTTP front has verified becomes such a credential too
// (CertificateCredential): its subject names the user, its validity window bounds the token's.
package apiserver

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	apierrors "kubesim/api/errors"
)

// User is the authenticated identity: a name and the groups it belongs to (user.Info in Kubernetes).
type User struct {
	Name   string
	Groups []string
}

// InGroup reports whether the user is in group g.
func (u User) InGroup(g string) bool {
	for _, x := range u.Groups {
		if x == g {
			return true
		}
	}
	return false
}

func (u User) String() string { return fmt.Sprintf("user %q (groups %v)", u.Name, u.Groups) }

// Well-known groups.
const (
	GroupMasters         = "system:masters"
	GroupAuthenticated   = "system:authenticated"
	GroupNodes           = "system:nodes"
	GroupServiceAccounts = "system:serviceaccounts"
)

// Credential is a token and the identity it proves. NotBefore and NotAfter, when set, bound its
// validity as a certificate's do.
type Credential struct {
	Token     string
	User      User
	NotBefore time.Time
	NotAfter  time.Time
}

// tokenAuthenticator is a static token file (--token-auth-file) that can change at run time, so that a
// scenario can issue and expire credentials.
type tokenAuthenticator struct {
	mu     sync.RWMutex
	tokens map[string]Credential // guarded by mu
}

// authenticate returns the user a token proves, or why it proves nothing (for the trace and the log;
// the caller only ever sees 401 Unauthorized, as in Kubernetes).
func (a *tokenAuthenticator) authenticate(token string, now time.Time) (User, string) {
	if token == "" {
		return User{}, "no credentials in the request"
	}
	a.mu.RLock()
	c, ok := a.tokens[token]
	a.mu.RUnlock()
	switch {
	case !ok:
		return User{}, "invalid bearer token"
	case !c.NotAfter.IsZero() && now.After(c.NotAfter):
		return User{}, fmt.Sprintf("x509: certificate has expired or is not yet valid: current time %s is after %s",
			now.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339))
	case !c.NotBefore.IsZero() && now.Before(c.NotBefore):
		return User{}, fmt.Sprintf("x509: certificate has expired or is not yet valid: current time %s is before %s",
			now.UTC().Format(time.RFC3339), c.NotBefore.UTC().Format(time.RFC3339))
	}
	u := c.User
	if !u.InGroup(GroupAuthenticated) {
		u.Groups = append(append([]string(nil), u.Groups...), GroupAuthenticated)
	}
	return u, ""
}

// AddCredential registers (or replaces) a token.
func (s *Server) AddCredential(c Credential) {
	s.authn.mu.Lock()
	defer s.authn.mu.Unlock()
	s.authn.tokens[c.Token] = c
}

// RevokeCredential forgets a token: later requests carrying it get 401.
func (s *Server) RevokeCredential(token string) {
	s.authn.mu.Lock()
	defer s.authn.mu.Unlock()
	delete(s.authn.tokens, token)
}

// CertificateCredential registers the identity of a client certificate that the TLS handshake has
// already verified against the cluster's CA, and returns the token that stands for it in a
// wire.Request. As kube-apiserver's x509 authenticator does, the subject's Common Name is the user and
// each Organization a group (CN=kubernetes-admin, O=system:masters is kubeadm's admin.conf); the
// certificate's NotBefore/NotAfter bound the credential.
func (s *Server) CertificateCredential(cert *x509.Certificate) string {
	sum := sha256.Sum256(cert.Raw)
	token := "x509:" + hex.EncodeToString(sum[:])
	s.authn.mu.RLock()
	_, known := s.authn.tokens[token]
	s.authn.mu.RUnlock()
	if !known {
		s.AddCredential(Credential{Token: token,
			User:      User{Name: cert.Subject.CommonName, Groups: append([]string(nil), cert.Subject.Organization...)},
			NotBefore: cert.NotBefore, NotAfter: cert.NotAfter})
	}
	return token
}

// Authenticate runs gate 1 alone, for the endpoints that are not resources (/version, /healthz,
// discovery): the user a token proves, or 401 Unauthorized.
func (s *Server) Authenticate(token string) (User, error) {
	u, why := s.authn.authenticate(token, s.clock.Now())
	if why != "" {
		return User{}, apierrors.NewUnauthorized()
	}
	return u, nil
}
