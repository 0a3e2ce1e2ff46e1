// This file is the network between the members of an embedded cluster: a
// peer link per member that kubesim controls, so it can cut and slow what
// etcd's Raft messages travel over.
//
//	peerLink                    a member's peer address, forwarding to its socket
//	(*peerLink).URL             what the member advertises to the others
//	(*Cluster).allowed          whether a request may cross, given who is cut off
//
// Each member listens for peers on a unix socket in its own directory, but
// advertises a loopback TCP address (port chosen by the kernel, so parallel
// tests never collide) where a reverse proxy forwards every request to that
// socket. etcd's peer traffic is HTTP (rafthttp): long-lived stream GETs
// whose response bodies carry Raft messages, and pipeline POSTs. Every
// request names its sender in the X-Server-From header, so the proxy knows
// both ends of each request and can refuse it, or break it off mid-stream,
// exactly when one end is cut off: a network partition, from both sides.
// The links also carry out kubesim's choice of who wins an election
// (election.go).

package store

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

// peerLink is the address other members dial to reach one member.
type peerLink struct {
	to     *Member
	ln     net.Listener
	server *http.Server
}

// newPeerLink listens on a free loopback port for m's peer traffic.
func newPeerLink(c *Cluster, m *Member) (*peerLink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &peerLink{to: m, ln: ln}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme, r.Out.URL.Host = "http", m.Name
		},
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, "unix", m.peerSocket)
			},
		},
		FlushInterval: -1, // Raft messages in a stream body go through at once
		ModifyResponse: func(resp *http.Response) error {
			from, _ := resp.Request.Context().Value(senderKey{}).(*Member)
			resp.Body = &delayedBody{body: resp.Body, delay: func() time.Duration { return c.pairDelay(from, m) }}
			if isMessageStream(resp.Request) {
				resp.Body = &voteFilter{c: c, body: resp.Body} // election.go
			}
			return nil
		},
		ErrorLog: discardLog,
	}
	l.server = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			from := c.memberByID(r.Header.Get("X-Server-From")) // nil for etcd's health probes
			ctx, release, ok := c.admit(r.Context(), from, m)
			if !ok {
				// Closing the connection without an answer is what a cut
				// cable looks like to the sender.
				panic(http.ErrAbortHandler)
			}
			defer release()
			if isPipeline(r) && !c.admitVote(r) {
				w.WriteHeader(http.StatusNoContent) // as if delivered: it is lost on the way (election.go)
				return
			}
			if d := c.pairDelay(from, m); d > 0 {
				time.Sleep(d)
			}
			proxy.ServeHTTP(w, r.WithContext(context.WithValue(ctx, senderKey{}, from)))
		}),
		ErrorLog: discardLog,
	}
	go l.server.Serve(ln)
	return l, nil
}

// senderKey marks a forwarded request's context with its sender.
type senderKey struct{}

// discardLog silences the proxy's complaints about the requests a partition
// breaks off.
var discardLog = log.New(io.Discard, "", 0)

// URL is the peer URL the member advertises.
func (l *peerLink) URL() url.URL {
	return url.URL{Scheme: "http", Host: l.ln.Addr().String()}
}

// close stops the link and breaks every request crossing it.
func (l *peerLink) close() { l.server.Close() }

// delayedBody passes a response body on, each chunk delay() after it
// arrived, keeping the order and not the pace: a slow member is late, not
// narrow.
type delayedBody struct {
	body  io.ReadCloser
	delay func() time.Duration
}

func (b *delayedBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if d := b.delay(); n > 0 && d > 0 {
		time.Sleep(d)
	}
	return n, err
}

func (b *delayedBody) Close() error { return b.body.Close() }

// crossing is one request in flight over a peer link.
type crossing struct {
	from, to *Member // from is nil when the sender did not say
	cancel   context.CancelFunc
}

// linkState is what the cluster's links share: who is cut off, who is slow,
// and the requests in flight, so cutting a member breaks them.
type linkState struct {
	mu       sync.Mutex
	cut      map[*Member]bool          // guarded by mu
	slow     map[*Member]time.Duration // guarded by mu
	crossing map[*crossing]bool        // guarded by mu: every request being forwarded
}

// admit lets a request from one member to another cross, unless either end
// is cut off. The request runs under the returned context until release.
func (c *Cluster) admit(ctx context.Context, from, to *Member) (context.Context, func(), bool) {
	c.links.mu.Lock()
	defer c.links.mu.Unlock()
	if c.links.cut[to] || (from != nil && c.links.cut[from]) {
		return nil, nil, false
	}
	ctx, cancel := context.WithCancel(ctx)
	x := &crossing{from: from, to: to, cancel: cancel}
	c.links.crossing[x] = true
	return ctx, func() {
		c.links.mu.Lock()
		delete(c.links.crossing, x)
		c.links.mu.Unlock()
		cancel()
	}, true
}

// cutLinks cuts m off from every other member, breaking what is in flight.
func (c *Cluster) cutLinks(m *Member, cut bool) {
	c.links.mu.Lock()
	defer c.links.mu.Unlock()
	c.links.cut[m] = cut
	if !cut {
		return
	}
	for x := range c.links.crossing {
		if x.to == m || x.from == m {
			x.cancel()
		}
	}
}

// pairDelay is how late a message between two members is: the sum of
// their slowness (a nil member, an unnamed sender, is never slow).
func (c *Cluster) pairDelay(a, b *Member) time.Duration {
	c.links.mu.Lock()
	defer c.links.mu.Unlock()
	return c.links.slow[a] + c.links.slow[b]
}
