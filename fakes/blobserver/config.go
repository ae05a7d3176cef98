package blobserver

import (
	"flag"
	"time"
)

// Config holds the server's knobs in a form that flags can fill.
type Config struct {
	Latency     time.Duration
	FailureRate float64
	MaxBytes    int64
	Evict       bool
}

// DefaultConfig is a fast, reliable store capped at DefaultMaxBytes.
func DefaultConfig() Config { return Config{MaxBytes: DefaultMaxBytes} }

// RegisterFlags binds the knobs to fs as -<prefix>latency, -<prefix>failure-rate,
// -<prefix>max-bytes and -<prefix>evict, using c's current values as defaults.
func (c *Config) RegisterFlags(fs *flag.FlagSet, prefix string) {
	fs.DurationVar(&c.Latency, prefix+"latency", c.Latency, "embedded blob storage: delay added to every request")
	fs.Float64Var(&c.FailureRate, prefix+"failure-rate", c.FailureRate, "embedded blob storage: fraction of requests (0..1) answered 503 ServerBusy")
	fs.Int64Var(&c.MaxBytes, prefix+"max-bytes", c.MaxBytes, "embedded blob storage: memory cap in bytes (0 = none)")
	fs.BoolVar(&c.Evict, prefix+"evict", c.Evict, "embedded blob storage: drop the oldest blobs when full instead of failing writes with 507")
}

// Options turns the config into constructor options for New.
func (c Config) Options() []Option {
	return []Option{WithLatency(c.Latency), WithFailureRate(c.FailureRate), WithMaxBytes(c.MaxBytes), WithEviction(c.Evict)}
}
