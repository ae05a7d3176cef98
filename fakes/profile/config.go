package profile

import (
	"flag"
	"time"
)

// Config holds the service's knobs in a form that flags can fill.
type Config struct {
	Latency   time.Duration
	Jitter    time.Duration
	ErrorRate float64
	Seed      int64 // 0 means a random seed
}

// DefaultConfig is the original sample's behaviour: 2s, no jitter, no faults.
func DefaultConfig() Config { return Config{Latency: DefaultLatency} }

// RegisterFlags binds the knobs to fs as -<prefix>latency, -<prefix>jitter,
// -<prefix>error-rate and -<prefix>seed, using c's current values as defaults.
func (c *Config) RegisterFlags(fs *flag.FlagSet, prefix string) {
	fs.DurationVar(&c.Latency, prefix+"latency", c.Latency, "fake profile service: base latency of every call")
	fs.DurationVar(&c.Jitter, prefix+"jitter", c.Jitter, "fake profile service: spread each call's latency uniformly over latency ± jitter")
	fs.Float64Var(&c.ErrorRate, prefix+"error-rate", c.ErrorRate, "fake profile service: fraction of calls (0..1) failing with an injected error")
	fs.Int64Var(&c.Seed, prefix+"seed", c.Seed, "fake profile service: seed for jitter and faults (0 = random)")
}

// Options turns the config into constructor options for New.
func (c Config) Options() []Option {
	opts := []Option{WithLatency(c.Latency), WithJitter(c.Jitter), WithErrorRate(c.ErrorRate)}
	if c.Seed != 0 {
		opts = append(opts, WithSeed(c.Seed))
	}
	return opts
}
