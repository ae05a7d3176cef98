package blobserver

import (
	"flag"
	"time"
)

// The storage model's defaults, chosen from Microsoft's published Azure Storage figures
// (docs/results.md, "The storage model", has the citations and the arithmetic):
//
//   - DefaultLatency: the page "Latency in Blob storage" states no target latency for
//     standard block blobs (premium ones are "significantly lower and more consistent");
//     its worked example of a request rate assumes a request that "takes 50 milliseconds
//     to complete". We take that figure, not a smaller one that would favour sync, nor a
//     larger one that would favour async.
//   - DefaultBandwidth: "Scalability and performance targets for Blob storage" gives
//     "up to 60 MiB per second" for a single page blob, and for a single block blob "up to
//     storage account ingress/egress limits" (tens of Gbps). 60 MiB/s per request is the
//     only per-blob figure published; at the lab's 4 KiB uploads it adds 65 µs.
const (
	DefaultLatency   = 50 * time.Millisecond
	DefaultBandwidth = 60 << 20 // bytes per second
)

// Config holds the server's knobs in a form that flags can fill.
type Config struct {
	Latency     time.Duration
	Jitter      time.Duration
	Bandwidth   int64 // bytes per second, 0 = unlimited
	FailureRate float64
	MaxBytes    int64
	MaxBlobs    int
	// StagedBlockExpiry: see WithStagedBlockExpiry.
	StagedBlockExpiry time.Duration
}

// DefaultConfig is the Azure-like storage model (DefaultLatency, DefaultBandwidth, no
// jitter), reliable, capped at DefaultMaxBytes and DefaultMaxBlobs, with staged blocks
// expiring after DefaultStagedBlockExpiry. New without options is instant instead.
func DefaultConfig() Config {
	return Config{
		Latency: DefaultLatency, Bandwidth: DefaultBandwidth, MaxBytes: DefaultMaxBytes, MaxBlobs: DefaultMaxBlobs,
		StagedBlockExpiry: DefaultStagedBlockExpiry,
	}
}

// RegisterFlags binds the knobs to fs as -<prefix>latency, -<prefix>jitter,
// -<prefix>bandwidth, -<prefix>failure-rate, -<prefix>max-bytes, -<prefix>max-blobs and
// -<prefix>staged-block-expiry, using c's current values as defaults.
func (c *Config) RegisterFlags(fs *flag.FlagSet, prefix string) {
	fs.DurationVar(&c.Latency, prefix+"latency", c.Latency, "embedded blob storage: delay added to every request (0 = none)")
	fs.DurationVar(&c.Jitter, prefix+"jitter", c.Jitter, "embedded blob storage: random extra delay per request, up to this much")
	fs.Int64Var(&c.Bandwidth, prefix+"bandwidth", c.Bandwidth, "embedded blob storage: bytes per second each request's body moves at (0 = unlimited)")
	fs.Float64Var(&c.FailureRate, prefix+"failure-rate", c.FailureRate, "embedded blob storage: fraction of requests (0..1) answered 503 ServerBusy")
	fs.Int64Var(&c.MaxBytes, prefix+"max-bytes", c.MaxBytes, "embedded blob storage: cap on the bytes of committed blobs, on disk, and separately on those of uncommitted blocks (0 = none)")
	fs.IntVar(&c.MaxBlobs, prefix+"max-blobs", c.MaxBlobs, "embedded blob storage: cap on the number of blobs, whose index is in memory (0 = none)")
	fs.DurationVar(&c.StagedBlockExpiry, prefix+"staged-block-expiry", c.StagedBlockExpiry, "embedded blob storage: discard a blob's uncommitted blocks this long after its last Put Block (0 = never)")
}

// Options turns the config into constructor options for New.
func (c Config) Options() []Option {
	return []Option{
		WithLatency(c.Latency), WithJitter(c.Jitter), WithBandwidth(c.Bandwidth),
		WithFailureRate(c.FailureRate), WithMaxBytes(c.MaxBytes), WithMaxBlobs(c.MaxBlobs),
		WithStagedBlockExpiry(c.StagedBlockExpiry),
	}
}
