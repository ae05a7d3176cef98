package api

import (
	"time"

	"github.com/syncio/syncio/fakes/blobserver"
)

// Config configures a Server. Zero values are replaced by DefaultConfig's.
type Config struct {
	// Addr is the listen address; "127.0.0.1:0" picks a free port.
	Addr string
	// Workers is the pool size and Queue the admission queue capacity
	// (0 = default; a negative Queue means no queue: reject when all busy).
	// The defaults (100 and 3000) are the load lab's 4000-user setup: with a
	// 2 s profile latency a queue of 3000 caps sync latency near 60 s while
	// 4000 users still overflow it into 503s.
	Workers, Queue int

	// ProfileLatency, ProfileJitter and ProfileErrorRate configure the
	// in-process fake profile service (ignored when ProfileURL is set).
	ProfileLatency   time.Duration
	ProfileJitter    time.Duration
	ProfileErrorRate float64
	// ProfileURL, when set, is the base URL of a remote fakes/profile server;
	// "" uses the in-process fake.
	ProfileURL string

	// StorageConnectionString selects the blob storage; "" starts the
	// embedded fakes/blobserver on a loopback port. The embedded server keeps
	// blob bytes on disk in a temporary directory (removed at Shutdown; see
	// StoragePath to keep them), so
	// the API's memory does not grow with what is stored; when its cap is
	// reached uploads answer 507 storage_full, and no acknowledged blob is
	// ever dropped.
	StorageConnectionString string
	// The embedded blob server's storage model (ignored with a connection
	// string): each request takes StorageLatency, plus a random jitter up to
	// StorageJitter, plus its bytes at StorageBandwidth bytes per second. 0
	// means the default (blobserver.DefaultLatency, 50 ms, and
	// blobserver.DefaultBandwidth, 60 MiB/s; no jitter), negative means none:
	// StorageLatency and StorageBandwidth both negative is an instant store.
	StorageLatency   time.Duration
	StorageJitter    time.Duration
	StorageBandwidth int64
	// StorageMaxBytes and StorageMaxBlobs cap the embedded blob server's
	// disk and the count of blobs in its in-memory index (0 = its defaults,
	// 4 GiB and 1,048,576 blobs; negative = no cap). StorageDir is where its
	// temporary directory is made ("" = the system's temporary directory).
	StorageMaxBytes int64
	StorageMaxBlobs int
	StorageDir      string
	// StorageStagedExpiry is how long the embedded blob server keeps a
	// blob's uncommitted blocks after its last Put Block (0 = its default,
	// blobserver.DefaultStagedBlockExpiry; negative = for ever). Staged
	// blocks that nothing commits (an aborted upload the API could not
	// release) would otherwise fill its allowance for staged bytes.
	StorageStagedExpiry time.Duration
	// StoragePath, when set, is a directory the embedded blob server uses as
	// is (made if missing) and never removes, instead of a temporary one
	// under StorageDir: blobs committed there outlive this process, even a
	// kill, and a server started later on it serves them (receipts of
	// orders Temporal completed included). One server per directory.
	StoragePath string
	// Container receives the uploads; it is created once at start-up.
	Container string
	// MaxUploadBytes bounds an upload body or ?size=N (413 beyond it).
	MaxUploadBytes int64
	// MaxInflightBytes bounds the upload bytes the async upload route holds
	// at once (default 256 MiB). Each upload counts what it can hold: its
	// declared size, up to the 2 MiB of streaming buffers (all 2 MiB when
	// chunked). Past the bound it answers 503 uploads_busy with Retry-After,
	// as the pool does past its queue. The sync route is bounded by its
	// workers (Workers × 2 MiB).
	MaxInflightBytes int64
	// MaxInflightUploads bounds the uploads the async upload route runs at
	// once, by count (default 1024). An upload past it waits for a slot
	// after giving its worker back and before reading its body, so it
	// holds its connection and nothing else; the wait counts within
	// UpstreamTimeout, and an upload that waited all of it is answered 503
	// uploads_busy with Retry-After. Bytes alone never bind with small
	// bodies: 4000 uploads of 4 KiB are 16 MiB, while each one in flight
	// held about 100 KiB of heap and 25 KiB of stack in its request to
	// storage (docs/results.md).
	MaxInflightUploads int
	// BodyTimeout bounds how long one request may take to send its body
	// (uploads and orders; default 30 s, which lets the largest default
	// upload arrive at about 1.1 MiB/s). It is set per request with
	// http.ResponseController.SetReadDeadline when the handler starts
	// reading, separately from ReadTimeout: a slow client loses its request
	// (408 body_timeout), not everyone's workers.
	BodyTimeout time.Duration

	// UpstreamTimeout bounds each profile or storage call made by a handler
	// (after it has a worker; queueing time is not included). Exceeding it
	// answers 504. The sync routes' in-process profile call is the exception:
	// it is the fake's blocking method, which nothing can cut short (that is
	// the antipattern), so it always takes its full latency.
	UpstreamTimeout time.Duration
	// StorageRetries and StorageTryTimeout configure azcore's retry policy:
	// at most StorageRetries retries (0 = default, negative = none), each try bounded by StorageTryTimeout,
	// with short delays, so a failing storage answers 502 in bounded time.
	StorageRetries    int
	StorageTryTimeout time.Duration
	// StorageConns bounds the connections to storage, and so the storage
	// calls in flight (at least Workers; 0 = default, 1024). Async uploads
	// beyond it wait for a connection within their deadline. With the
	// default 50 ms storage it allows some 20,000 uploads/s, more than this
	// API serves on two cores, and it caps what 4000 async users hold open.
	StorageConns int

	// HTTP server timeouts. WriteTimeout includes the time a request waits
	// in the admission queue, so it must exceed the worst sync queueing time.
	// IdleTimeout is how long a keep-alive connection may wait for its next
	// request (default 75 s): an idle one holds a file descriptor, about
	// 30 KB and a place under MaxConns until then. 75 s is above the 60 s
	// after which common load balancers and proxies (AWS ALB, nginx's
	// upstream keep-alive) drop their own idle connections, so they close
	// first and never send on one the API has just closed; it was 2 min.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration

	// MaxConns caps the public listener's open connections (0 = default,
	// DefaultMaxConns; negative = no cap). Past it a connection takes one of
	// ReservedConns reserved slots (0 = default, DefaultReservedConns;
	// negative = none) and serves one request: GET or HEAD /healthz and
	// /readyz are answered, so a balancer's probe is never refused because
	// clients hold every connection; anything else gets 503
	// too_many_connections with Retry-After; then it is closed. Past both,
	// accepting waits for a slot. See connBudget. Start checks the
	// open-file limit first (fitOpenFiles): a default cap is lowered to
	// fit it, a cap given that does not fit fails Start.
	MaxConns      int
	ReservedConns int

	// BlockwatchRate is the sampling rate, in Hz, of the run-time blocking
	// watcher served at GET /debug/syncio/blocking (0 = default,
	// blockwatch.DefaultRate; negative = no watcher: no route labels, no
	// sampling, no endpoint).
	BlockwatchRate int
	// BlockwatchBudget is the most of one core's time sampling may take
	// (0 = default, blockwatch.DefaultBudget); the rate drops to keep to it.
	// Tests raise it to get many samples from a short load.
	BlockwatchBudget float64

	// Temporal, when set, is the HOST:PORT of a Temporal frontend: POST
	// /api/async/order then runs the order workflow there, with a worker in
	// this process, and GET /api/orders/ID reports on it. TemporalWait is
	// how long that request waits for the order before answering 202 with a
	// status URL (default 10 s).
	Temporal     string
	TemporalWait time.Duration

	// Pprof mounts net/http/pprof under /debug/pprof/ (off by default:
	// profiles expose internals and cost CPU).
	Pprof bool
	// DebugAddr, when set, is a second listen address (host:port) that
	// alone serves /metrics and /debug/* (the blocking watcher, pprof):
	// they show goroutine stacks, build paths and load, which need not be
	// on the public listener. "" serves them on Addr, as before.
	DebugAddr string
}

// DefaultConfig returns the defaults documented on Config's fields.
func DefaultConfig() Config {
	return Config{
		Addr:               "127.0.0.1:8080",
		Workers:            100,
		Queue:              3000,
		ProfileLatency:     2 * time.Second,
		StorageLatency:     blobserver.DefaultLatency,
		StorageBandwidth:   blobserver.DefaultBandwidth,
		Container:          "uploads",
		MaxUploadBytes:     32 << 20,
		MaxInflightBytes:   256 << 20,
		MaxInflightUploads: 1024,
		BodyTimeout:        30 * time.Second,
		UpstreamTimeout:    30 * time.Second,
		TemporalWait:       10 * time.Second,
		StorageRetries:     2,
		StorageConns:       1024,
		StorageTryTimeout:  15 * time.Second,
		ReadHeaderTimeout:  5 * time.Second,
		ReadTimeout:        2 * time.Minute,
		WriteTimeout:       5 * time.Minute,
		IdleTimeout:        75 * time.Second,
		ReservedConns:      DefaultReservedConns,
	}
}

// withDefaults fills every zero field from DefaultConfig.
// StagedExpiry is StorageStagedExpiry as blobserver reads it (0 = never).
func (c Config) StagedExpiry() time.Duration {
	switch {
	case c.StorageStagedExpiry == 0:
		return blobserver.DefaultStagedBlockExpiry
	case c.StorageStagedExpiry < 0:
		return 0 // never
	}
	return c.StorageStagedExpiry
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Addr == "" {
		c.Addr = d.Addr
	}
	if c.Workers <= 0 {
		c.Workers = d.Workers
	}
	switch {
	case c.Queue == 0:
		c.Queue = d.Queue
	case c.Queue < 0: // explicitly no queue: reject whenever all workers are busy
		c.Queue = 0
	}
	if c.ProfileLatency <= 0 {
		c.ProfileLatency = d.ProfileLatency
	}
	if c.StorageLatency == 0 {
		c.StorageLatency = d.StorageLatency
	}
	if c.StorageBandwidth == 0 {
		c.StorageBandwidth = d.StorageBandwidth
	}
	if c.Container == "" {
		c.Container = d.Container
	}
	if c.MaxUploadBytes <= 0 {
		c.MaxUploadBytes = d.MaxUploadBytes
	}
	if c.MaxInflightBytes <= 0 {
		c.MaxInflightBytes = d.MaxInflightBytes
	}
	if c.MaxInflightUploads <= 0 {
		c.MaxInflightUploads = d.MaxInflightUploads
	}
	if c.BodyTimeout <= 0 {
		c.BodyTimeout = d.BodyTimeout
	}
	if c.UpstreamTimeout <= 0 {
		c.UpstreamTimeout = d.UpstreamTimeout
	}
	if c.TemporalWait <= 0 {
		c.TemporalWait = d.TemporalWait
	}
	switch {
	case c.StorageRetries == 0:
		c.StorageRetries = d.StorageRetries
	case c.StorageRetries < 0: // explicitly no retries
		c.StorageRetries = 0
	}
	if c.StorageConns <= 0 {
		c.StorageConns = d.StorageConns
	}
	if c.StorageTryTimeout <= 0 {
		c.StorageTryTimeout = d.StorageTryTimeout
	}
	if c.ReadHeaderTimeout <= 0 {
		c.ReadHeaderTimeout = d.ReadHeaderTimeout
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = d.ReadTimeout
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = d.WriteTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = d.IdleTimeout
	}
	switch {
	case c.MaxConns == 0:
		c.MaxConns = DefaultMaxConns
	case c.MaxConns < 0: // explicitly no cap
		c.MaxConns = -1
	}
	switch {
	case c.ReservedConns == 0:
		c.ReservedConns = d.ReservedConns
	case c.ReservedConns < 0: // explicitly none
		c.ReservedConns = 0
	}
	return c
}
