// This file is the store's lifecycle: how a Store comes to exist, what it
// counts, and how it goes away.
//
//	Config, Sleeper           what Open needs
//	Open(ctx, cfg) *Store     embed an etcd member, or connect to one
//	(*Store).Close            stop it and release everything
//	(*Store).Client           the raw etcd client, for tests and demos
//	(*Store).ClientURLs       where etcdctl can reach the member
//	(*Store).SetWriteLatency  the slow-disk fault
//	(*Store).Stats            request counters
//
// The requests themselves are in kv.go and watch.go; starting the embedded
// member is in embed.go.

package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"kubesim/trace"
)

// Sleeper is the one thing the store needs from a clock: a way to wait out
// injected write latency. kubesim/clock's Clock satisfies it, so on a
// Virtual clock a slow disk costs virtual time, not wall time.
type Sleeper interface {
	Sleep(d time.Duration)
}

// Config says which etcd to use and how to wire it.
type Config struct {
	// DataDir is the embedded member's data directory. Empty means a fresh
	// temporary directory, removed by Close; otherwise the state survives
	// Close and a later Open with the same DataDir finds it again.
	DataDir string
	// Endpoints, when non-empty, are the client URLs of an external etcd
	// (for example "http://127.0.0.1:2379"); nothing is embedded and
	// DataDir is ignored.
	Endpoints []string
	// Clock waits out the injected write latency. Nil means the wall clock.
	Clock Sleeper
	// Members, when not 0, runs an embedded cluster of that many members
	// (1, 3 or 5; cluster.go) that the store reaches over their sockets and
	// whose members can fail; DataDir then holds one directory per member.
	// 0 is one member reached in-process, the fastest.
	Members int
	// Trace, if set, is told what the cluster's members do: stops, starts,
	// partitions, elections.
	Trace *trace.Recorder
	// Restore, if set, is a snapshot file the embedded member starts from:
	// Open restores it into the member's data directory (which must be new)
	// with RestoreSnapshot, bumping the revision by RevisionBump, then starts
	// the member on it. Only for the one in-process member (Members 0).
	Restore      string
	RevisionBump int64
	// QuotaBackendBytes is etcd's --quota-backend-bytes for the in-process member (Members 0): the
	// size its database may reach before etcd raises the NOSPACE alarm and refuses every write with
	// "etcdserver: mvcc: database space exceeded". 0 is etcd's default, 2 GiB; 8 GiB is etcd's
	// suggested maximum, which large clusters use (the apiserver compacts history only every 5
	// minutes, and a cluster that writes thousands of objects a second fills 2 GiB before it does).
	QuotaBackendBytes int64
	// Logger receives etcd's own JSON logs. Nil discards them: etcd logs
	// several lines for every start, election and shutdown.
	Logger io.Writer
}

// dialTimeout bounds how long Open waits for external endpoints to answer.
const dialTimeout = 5 * time.Second

// Store is a handle on one etcd, embedded or external. It is safe for
// concurrent use.
type Store struct {
	client     *clientv3.Client
	closed     atomic.Bool // set by Close
	etcd       *embed.Etcd // the in-process member; nil for a cluster or external endpoints
	cluster    *Cluster    // nil unless Config.Members
	clientURLs []string
	removeDirs []string // temporary directories Close deletes
	clock      Sleeper

	writeLatency atomic.Int64 // nanoseconds every write waits; see SetWriteLatency

	writes, reads, lists, watches atomic.Int64
	writtenBytes                  atomic.Int64 // the values of Creates and Updates

	leases leaseManager // the lease keys with a TTL attach to (lease.go)

	closeOnce sync.Once
	closeErr  error
	// compacting is held (shared) while a compaction runs and taken by Close before it stops etcd: a
	// compaction reaches the in-process member's bbolt directly, and one still running when the
	// member closed its database crashed the process (the apiserver's compaction timer firing as a
	// cluster shut down).
	compacting sync.RWMutex
	// closing is done when Close starts, so that a compaction waiting on an etcd that does not
	// answer ends at once instead of holding Close up.
	closing    context.Context
	endClosing context.CancelFunc
	quota      int64 // Config.QuotaBackendBytes
}

// Open starts an embedded etcd member (or connects to cfg.Endpoints) and
// returns once it serves requests.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	s := &Store{clock: cfg.Clock, quota: cfg.QuotaBackendBytes}
	s.closing, s.endClosing = context.WithCancel(context.Background())
	if s.clock == nil {
		s.clock = wallClock{}
	}
	lg := zapLogger(cfg.Logger)
	if cfg.Restore != "" && (cfg.Members > 0 || len(cfg.Endpoints) > 0) {
		return nil, errors.New("a snapshot restores into the one in-process member (Members 0, no Endpoints)")
	}
	var err error
	if len(cfg.Endpoints) > 0 {
		err = s.connect(ctx, cfg.Endpoints, lg)
	} else if cfg.Members > 0 {
		err = s.startCluster(ctx, cfg.Members, cfg.DataDir, cfg.Trace, lg)
	} else {
		err = s.startEmbedded(ctx, cfg.DataDir, cfg.Restore, cfg.RevisionBump, lg)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// connect dials an external etcd and checks it answers within dialTimeout,
// so a wrong endpoint fails Open instead of the first request.
func (s *Store) connect(ctx context.Context, endpoints []string, lg *zap.Logger) error {
	c, err := clientv3.New(clientv3.Config{
		Endpoints:   endpoints,
		DialTimeout: dialTimeout,
		Logger:      lg,
	})
	if err != nil {
		return fmt.Errorf("connect to etcd at %v: %w", endpoints, err)
	}
	s.client = c
	s.clientURLs = endpoints
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	if _, err := s.CurrentRevision(ctx); err != nil {
		return fmt.Errorf("etcd at %v does not answer: %w", endpoints, err)
	}
	return nil
}

// Closed reports whether Close has been called: a watch that ended then will not come back.
func (s *Store) Closed() bool { return s.closed.Load() }

// Close closes the client, stops the embedded member and removes the
// temporary directories. It is safe to call more than once.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.endClosing()
		s.compacting.Lock()
		s.closed.Store(true)
		s.compacting.Unlock()
		var errs []error
		if s.client != nil {
			// A client reports its own cancellation as the reason it
			// closed; that is success here.
			if err := s.client.Close(); !errors.Is(err, context.Canceled) {
				errs = append(errs, err)
			}
		}
		if s.etcd != nil {
			s.etcd.Close()
			// Close closes the error channel once every server goroutine
			// has returned; draining it makes sure none outlives Close.
			for err := range s.etcd.Err() {
				errs = append(errs, err)
			}
		}
		if s.cluster != nil {
			errs = append(errs, s.cluster.close())
		}
		for _, dir := range s.removeDirs {
			errs = append(errs, os.RemoveAll(dir))
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// Client returns the underlying etcd client: in-process for an embedded
// member, networked for external endpoints. Writes made through it bypass
// write latency and Stats.
func (s *Store) Client() *clientv3.Client { return s.client }

// Cluster returns the embedded cluster whose members can fail, or nil when
// Config.Members was 0 or the etcd is external.
func (s *Store) Cluster() *Cluster { return s.cluster }

// ClientURLs returns the URLs a separate process (etcdctl, or another
// Store's Config.Endpoints) can use to reach this etcd.
func (s *Store) ClientURLs() []string { return s.clientURLs }

// SetWriteLatency makes every later Create, Update and Delete wait d on the
// store's clock before it is sent to etcd, as if etcd's disk had become
// slow (etcd fsyncs its log before it acknowledges a write, so disk latency
// is write latency). Zero turns the fault off. Safe to call concurrently
// with requests.
func (s *Store) SetWriteLatency(d time.Duration) { s.writeLatency.Store(int64(d)) }

// beforeWrite applies the write latency fault and counts the write and the bytes of its value.
func (s *Store) beforeWrite(value []byte) {
	s.writes.Add(1)
	s.writtenBytes.Add(int64(len(value)))
	if d := time.Duration(s.writeLatency.Load()); d > 0 {
		s.clock.Sleep(d)
	}
}

// Stats is a snapshot of the store's request counters.
type Stats struct {
	Writes       int64 // Create, Update and Delete calls
	WrittenBytes int64 // the values those Creates and Updates sent
	Reads        int64 // Get calls
	Lists        int64 // List calls
	Watches      int64 // Watch calls
}

// Stats returns the counters since Open.
func (s *Store) Stats() Stats {
	return Stats{
		Writes:       s.writes.Load(),
		WrittenBytes: s.writtenBytes.Load(),
		Reads:        s.reads.Load(),
		Lists:        s.lists.Load(),
		Watches:      s.watches.Load(),
	}
}

// wallClock is the Sleeper used when Config.Clock is nil.
type wallClock struct{}

func (wallClock) Sleep(d time.Duration) { time.Sleep(d) }

// zapLogger builds the zap logger etcd and its client log to: JSON lines on
// w, as a real etcd prints them, or nothing when w is nil.
func zapLogger(w io.Writer) *zap.Logger {
	if w == nil {
		return zap.NewNop()
	}
	enc := zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
	return zap.New(zapcore.NewCore(enc, zapcore.Lock(zapcore.AddSync(w)), zap.InfoLevel))
}

// Space is the in-process member's database: its size on disk, the part of it in use, its quota, and
// the alarms etcd has raised ("NOSPACE" once the size reached the quota: every write fails until the
// history is compacted, the database defragmented and the alarm disarmed).
type Space struct {
	Size, InUse, Quota int64 // bytes
	Alarms             []string
}

// Space reads the in-process member's Space; ok is false for a cluster of members or an external
// etcd.
func (s *Store) Space() (sp Space, ok bool) {
	if s.etcd == nil {
		return Space{}, false
	}
	be := s.etcd.Server.Backend()
	for _, a := range s.etcd.Server.Alarms() {
		sp.Alarms = append(sp.Alarms, a.Alarm.String())
	}
	sp.Size, sp.InUse, sp.Quota = be.Size(), be.SizeInUse(), cmp.Or(s.quota, defaultQuotaBackendBytes)
	return sp, true
}

// defaultQuotaBackendBytes is etcd's default --quota-backend-bytes.
const defaultQuotaBackendBytes = 2 << 30
