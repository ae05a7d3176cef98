package blobserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"
)

// The Azurite development account. Signatures are not checked, but the SDK needs a valid
// base64 key to sign with, and using Azurite's means one connection string shape for both.
const (
	AccountName = "devstoreaccount1"
	AccountKey  = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// DefaultMaxBytes caps the bytes stored unless WithMaxBytes says otherwise. They are on
// disk (see disk.go), so the cap bounds the temporary directory, not memory: at the load
// lab's 4 KiB uploads, 4 GiB is about a million blobs, several quick upload runs.
const DefaultMaxBytes = 4 << 30

// DefaultMaxBlobs caps the number of committed blobs unless WithMaxBlobs says otherwise.
// The index of names and properties stays in memory, 387 bytes of heap per blob as the API
// names them (TestIndexMemoryPerBlob), so this is what bounds the fake's memory when the
// blobs are tiny: about 390 MB of heap at the cap.
const DefaultMaxBlobs = 1 << 20

// DefaultStagedBlockExpiry is how long a blob's staged (uncommitted) blocks outlive its
// last Put Block unless WithStagedBlockExpiry says otherwise; the service keeps them a
// week. The demo API bounds each storage call, a whole UploadStream of Put Blocks and its
// Put Block List included, by its upstream timeout (30 s by default), and the gap between
// two Put Blocks of one upload is a block's transfer time, so its uploads need their
// blocks for well under a minute. Five minutes is ten times that timeout, room for a
// slower client or a raised timeout, and equal to the API's write timeout (both in
// api.DefaultConfig), past which no request of it is answered; yet a store whose staged
// allowance aborted uploads filled takes blocks again within minutes, not a week.
const DefaultStagedBlockExpiry = 5 * time.Minute

// serviceVersion is reported when a request names none. The SDK sends its own, which is
// echoed, since this fake does not vary its behaviour by version.
const serviceVersion = "2026-12-06"

// Server is the fake Blob service. Its handler is safe for concurrent use.
type Server struct {
	store       *store
	latency     time.Duration
	jitter      time.Duration
	bandwidth   int64 // bytes per second; 0 = unlimited
	failureRate float64
	failStatus  int
	log         *slog.Logger

	rndMu sync.Mutex // guards rnd
	rnd   *rand.Rand

	reqSeq  uint64 // guarded by rndMu: request IDs are cheap enough to share the lock
	closing chan struct{}
	swept   chan struct{} // closed when the sweeper has stopped; nil if none runs

	mu      sync.Mutex // guards the fields below (the listening side)
	srv     *http.Server
	url     string
	served  chan struct{}
	started bool
	closed  bool
}

// Option configures a Server.
type Option func(*Server)

// WithLatency delays every request by d before it is handled, like a remote store's round
// trip. The wait ends early if the client goes away. See DefaultLatency.
func WithLatency(d time.Duration) Option { return func(s *Server) { s.latency = max(d, 0) } }

// WithJitter adds a uniformly random extra delay in [0, d) to every request.
func WithJitter(d time.Duration) Option { return func(s *Server) { s.jitter = max(d, 0) } }

// WithBandwidth adds the time to move a request's bytes at bytesPerSecond: the body of a
// write (its Content-Length) before it is handled, the bytes served by a read before they
// are sent. 0 or less means unlimited. See DefaultBandwidth.
func WithBandwidth(bytesPerSecond int64) Option {
	return func(s *Server) { s.bandwidth = max(bytesPerSecond, 0) }
}

// WithDir makes the store's temporary directory under parent instead of os.TempDir().
func WithDir(parent string) Option { return func(s *Server) { s.store.disk.parent = parent } }

// WithPath keeps the store in dir, used as is (made if missing) and never removed: Close
// leaves it, and a later server started on dir serves every blob committed there before,
// even if the earlier process was killed. A journal of the in-memory index makes that so
// (see journal.go); a lock file keeps a second server off the directory while one runs.
// WithDir is ignored with it, and Start is required (it opens the store).
func WithPath(dir string) Option {
	return func(s *Server) {
		if dir != "" {
			s.store.disk.dir, s.store.disk.keep = dir, true
		}
	}
}

// WithMaxBlobs caps the number of committed blobs (writes of new blobs beyond it fail with
// 507 FakeStorageFull); n <= 0 removes the cap.
func WithMaxBlobs(n int) Option { return func(s *Server) { s.store.maxBlobs = max(n, 0) } }

// WithFailureRate makes a fraction p (clamped to [0,1]) of requests fail, before they touch
// storage, with the status set by WithFailureStatus (503 ServerBusy by default). azcore
// retries those, so a moderate rate exercises the SDK's retry path.
func WithFailureRate(p float64) Option {
	return func(s *Server) { s.failureRate = min(max(p, 0), 1) }
}

// WithFailureStatus chooses the injected failure: 500 (InternalError) or 503 (ServerBusy).
// Other values are ignored.
func WithFailureStatus(status int) Option {
	return func(s *Server) {
		if status == http.StatusInternalServerError || status == http.StatusServiceUnavailable {
			s.failStatus = status
		}
	}
}

// WithMaxBytes caps the bytes of committed blobs (and Put Blobs in progress); writes beyond
// it fail with 507 and code FakeStorageFull. Staged blocks (Put Block not yet committed by
// Put Block List) do not count: they have an allowance of their own, as large as the cap,
// and Put Blocks beyond it fail the same way until blocks are committed, discarded by the
// client or expire (WithStagedBlockExpiry). The directory is also refused more than twice
// what both may hold, counting the space of overwritten or deleted blobs and discarded
// blocks not reclaimed yet. n <= 0 removes all three caps.
func WithMaxBytes(n int64) Option { return func(s *Server) { s.store.capacity = max(n, 0) } }

// WithStagedBlockExpiry discards a blob's staged blocks once it has seen no Put Block for d,
// as the service does after a week, so that uploads abandoned between Put Block and Put
// Block List give their room back. A Put Block List after that fails with InvalidBlockList.
// A started server also looks for expired blocks with no request to notice them, every
// half expiry (at most a minute). d <= 0 keeps staged blocks until a Put Blob, Put Block
// List or Delete Blob on the blob discards them. See DefaultStagedBlockExpiry.
func WithStagedBlockExpiry(d time.Duration) Option {
	return func(s *Server) { s.store.expiry = max(d, 0) }
}

// WithLogger sets where request logs go (Debug level per request). The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(s *Server) {
		if l != nil {
			s.log = l
		}
	}
}

// WithSeed makes failure injection reproducible.
func WithSeed(seed int64) Option {
	return func(s *Server) { s.rnd = rand.New(rand.NewPCG(uint64(seed), 0xb10b)) }
}

// New returns a Server with an empty store. It does not listen until Start; Handler can be
// mounted elsewhere (e.g. httptest) instead.
func New(opts ...Option) *Server {
	s := &Server{
		store:      newStore(DefaultMaxBytes, nil),
		failStatus: http.StatusServiceUnavailable,
		log:        slog.New(slog.DiscardHandler),
		closing:    make(chan struct{}),
	}
	for _, o := range opts {
		o(s)
	}
	if s.rnd == nil {
		s.rnd = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	s.store.disk.log = s.log
	return s
}

// Start listens on addr (e.g. "127.0.0.1:0") and serves in the background until Close.
func (s *Server) Start(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errors.New("blobserver: already started")
	}
	if s.store.disk.keep {
		if err := s.store.open(); err != nil {
			return fmt.Errorf("blobserver: open %s: %w", s.store.disk.dir, err)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if s.store.disk.keep {
			_ = s.store.close() // releases the lock
		}
		return fmt.Errorf("blobserver: listen %s: %w", addr, err)
	}
	s.started = true
	if d := s.store.expiry; d > 0 {
		s.swept = make(chan struct{})
		go s.sweep(max(min(d/2, time.Minute), time.Millisecond))
	}
	s.url = "http://" + ln.Addr().String() + "/" + AccountName
	s.srv = &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	s.served = make(chan struct{})
	go func() {
		defer close(s.served)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("blobserver: serve", "err", err)
		}
	}()
	s.log.Info("blobserver: listening", "url", s.url)
	return nil
}

// URL is the blob endpoint, http://host:port/devstoreaccount1, or "" before Start.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// ConnectionString is a connection string for azblob.NewClientFromConnectionString, or ""
// before Start.
func (s *Server) ConnectionString() string {
	u := s.URL()
	if u == "" {
		return ""
	}
	return ConnectionStringFor(u)
}

// ConnectionStringFor builds a dev-account connection string for any blob endpoint of this
// fake, e.g. an httptest server's URL + "/devstoreaccount1".
func ConnectionStringFor(blobEndpoint string) string {
	return "DefaultEndpointsProtocol=http;AccountName=" + AccountName + ";AccountKey=" + AccountKey +
		";BlobEndpoint=" + blobEndpoint + ";"
}

// UsedBytes reports the bytes currently held by committed blobs and staged blocks.
func (s *Server) UsedBytes() int64 {
	committed, staged, _ := s.store.usage()
	return committed + staged
}

// StagedBytes reports the part of UsedBytes held by staged blocks, which the cap does not
// count (see WithMaxBytes).
func (s *Server) StagedBytes() int64 {
	_, staged, _ := s.store.usage()
	return staged
}

// DiskBytes reports the disk the store's files hold: their sizes less the holes punched
// over dead extents (see disk.go). It also counts writes in progress, and the space of
// overwritten and deleted blobs and discarded blocks not reclaimed yet: while a read holds
// their segment, and for good where holes cannot be punched.
func (s *Server) DiskBytes() int64 {
	_, _, d := s.store.usage()
	return d
}

// closeGrace bounds how long Close waits for connections to go idle. net/http counts a
// connection that has not sent a request yet as busy for its first 5-6 s (Go issue 22682),
// and client transports often hold such a spare connection (dialled for a request that then
// got an idle one): a grace of 5 s or less makes Close fail on a server with no request in
// flight.
const closeGrace = 7 * time.Second

// Close stops serving: in-flight requests get up to closeGrace (7 s) to finish (their
// injected latency is cut short), then connections are closed. Then the store's directory
// is removed (a WithPath one is kept, its files closed): every blob stays readable until
// Close. It is safe to call more than once,
// and without Start (a server used through Handler must be closed too, or its directory
// stays until a later server finds its process gone).
func (s *Server) Close() error {
	err := s.stopServing()
	return errors.Join(err, s.store.close())
}

// stopServing is Close without removing the store.
func (s *Server) stopServing() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	close(s.closing)
	if !s.started {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = errors.Join(fmt.Errorf("blobserver: shutdown: %w", err), s.srv.Close())
	}
	<-s.served
	if s.swept != nil {
		<-s.swept // before Close removes the store under it
	}
	return err
}

// sweep discards expired staged blocks every period until the server closes, so that an
// idle store gives their disk back too; requests discard them as they come otherwise.
func (s *Server) sweep(every time.Duration) {
	defer close(s.swept)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.closing:
			return
		case <-t.C:
			s.store.expire()
		}
	}
}

// delayFor is the modelled time of a request moving n bytes: the latency, a random jitter
// and the transfer time at the bandwidth.
func (s *Server) delayFor(n int64) time.Duration {
	d := s.latency + s.transferTime(n)
	if s.jitter > 0 {
		s.rndMu.Lock()
		d += time.Duration(s.rnd.Int64N(int64(s.jitter)))
		s.rndMu.Unlock()
	}
	return d
}

// transferTime is how long n bytes take at the bandwidth.
func (s *Server) transferTime(n int64) time.Duration {
	if s.bandwidth <= 0 || n <= 0 {
		return 0
	}
	return time.Duration(float64(n) / float64(s.bandwidth) * float64(time.Second))
}

// injectFailure draws whether this request fails.
func (s *Server) injectFailure() bool {
	if s.failureRate == 0 {
		return false
	}
	s.rndMu.Lock()
	defer s.rndMu.Unlock()
	return s.rnd.Float64() < s.failureRate
}

func (s *Server) nextRequestID() string {
	s.rndMu.Lock()
	s.reqSeq++
	n := s.reqSeq
	s.rndMu.Unlock()
	return fmt.Sprintf("00000000-0000-4000-8000-%012x", n)
}
