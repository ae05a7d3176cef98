package scrape

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The metric names the demo API exposes.
const (
	MetricWorkers     = "syncio_pool_workers"
	MetricWorkersBusy = "syncio_pool_workers_busy"
	MetricQueueLength = "syncio_pool_queue_length"
	MetricRejected    = "syncio_pool_rejected_total"
	MetricGoroutines  = "go_goroutines"
	MetricRSS         = "process_resident_memory_bytes"
	MetricCPU         = "process_cpu_seconds_total"
	// MetricBlockedHoldingWorker is the blocking watcher's goroutine-seconds
	// parked in I/O while holding a worker; absent when the API runs
	// without its watcher.
	MetricBlockedHoldingWorker = "syncio_blockwatch_blocked_holding_worker_seconds_total"
	// MetricWatched is the wall time the watcher's samples stand for, the
	// denominator of its seconds counters, and MetricWatcherSamples how
	// many samples it took: a window's figure rests on that count.
	MetricWatched        = "syncio_blockwatch_watched_seconds_total"
	MetricWatcherSamples = "syncio_blockwatch_samples_total"
)

// Sample is one scrape of /metrics. A metric that is not there reads as
// zero in its field, and is named: the three selected by Names in Missing,
// so a typo or an absent gauge never reads as an idle pool, and the
// process figures in Absent, so a service without client_golang's process
// and Go collectors never reads as using no memory or CPU.
type Sample struct {
	Time        time.Time `json:"time"`
	Workers     float64   `json:"workers"`
	WorkersBusy float64   `json:"workers_busy"`
	QueueLength float64   `json:"queue_length"`
	Rejected    float64   `json:"rejected_total"`
	// NoRejected: the exposition has no syncio_pool_rejected_total (a
	// service without the demo's pool), so Rejected is unknown, not 0.
	// Negative so that samples recorded before it read as present.
	NoRejected bool    `json:"no_rejected,omitempty"`
	Goroutines float64 `json:"goroutines"`
	RSSBytes   float64 `json:"rss_bytes"`
	// CPUSeconds is the API process's CPU time so far (client_golang's
	// process collector): its own, whether or not it shares a machine or a
	// process with the load generator.
	CPUSeconds float64 `json:"cpu_seconds"`
	// Blockwatch says whether the API exposes its blocking watcher's
	// totals, and BlockedHoldingWorkerS is that counter.
	Blockwatch            bool    `json:"blockwatch,omitempty"`
	BlockedHoldingWorkerS float64 `json:"blocked_holding_worker_s,omitempty"`
	// Watched says whether the watcher exports MetricWatched (an API built
	// before it did not: its mean is then taken over wall time), and
	// WatchedS and WatcherSamples are that counter and MetricWatcherSamples.
	Watched        bool    `json:"watched,omitempty"`
	WatchedS       float64 `json:"watched_s,omitempty"`
	WatcherSamples float64 `json:"watcher_samples,omitempty"`
	// Missing names the figures of Names whose selector matched no series
	// in this scrape (RoleQueue, RoleBusy, RoleWorkers).
	Missing []string `json:"missing,omitempty"`
	// Absent names the process figures' metrics (ProcessMetrics) that were
	// not in this scrape: a service that does not register client_golang's
	// process and Go collectors has none of them, and its RSS, CPU and
	// goroutines are unknown, not 0.
	Absent []string `json:"absent,omitempty"`
}

// ProcessMetrics are the process figures read by fixed name, each with
// the client_golang collector that exports it and the columns it feeds,
// for the warning when it is absent.
var ProcessMetrics = []struct{ Name, Collector, Columns string }{
	{MetricRSS, "process collector (collectors.NewProcessCollector)", "API RSS"},
	{MetricCPU, "process collector (collectors.NewProcessCollector)", "API cores"},
	{MetricGoroutines, "Go collector (collectors.NewGoCollector)", "goroutines"},
}

// HasMetric reports whether the process metric name (one of
// ProcessMetrics) was in s.
func (s Sample) HasMetric(name string) bool { return !slices.Contains(s.Absent, name) }

// The roles of Names, as Sample.Missing lists them.
const (
	RoleQueue   = "queue"
	RoleBusy    = "busy"
	RoleWorkers = "workers"
)

// RoleFlag is the syncio-load flag that sets each role's selector, for
// warnings a user can act on.
var RoleFlag = map[string]string{RoleQueue: "-metric-queue", RoleBusy: "-metric-busy", RoleWorkers: "-metric-workers"}

// Has reports whether the role's selector matched a series in s.
func (s Sample) Has(role string) bool { return !slices.Contains(s.Missing, role) }

// Names are the metrics read as the bounded resource of another service:
// its queue (waiters), its busy slots and its total slots. For a database
// pool from client_golang's collectors.NewDBStatsCollector, say, busy is
// go_sql_in_use_connections and workers go_sql_max_open_connections. Each
// is a selector (see ParseSelector): a name, with label matchers to pick
// one pool out of several.
type Names struct {
	Queue, Busy, Workers string
}

// DefaultNames are the demo API's pool gauges.
var DefaultNames = Names{Queue: MetricQueueLength, Busy: MetricWorkersBusy, Workers: MetricWorkers}

// orDefault fills empty names from DefaultNames.
func (n Names) orDefault() Names {
	if n.Queue == "" {
		n.Queue = DefaultNames.Queue
	}
	if n.Busy == "" {
		n.Busy = DefaultNames.Busy
	}
	if n.Workers == "" {
		n.Workers = DefaultNames.Workers
	}
	return n
}

// Parse reads a Prometheus text exposition and extracts a Sample stamped at,
// with the demo API's metric names.
func Parse(r io.Reader, at time.Time) (Sample, error) { return ParseNames(r, at, DefaultNames) }

// ParseNames is Parse reading the queue, busy and worker gauges from names
// (empty ones fall back to DefaultNames).
func ParseNames(r io.Reader, at time.Time, names Names) (Sample, error) {
	names = names.orDefault()
	var sels [3]Selector
	for i, n := range []string{names.Workers, names.Busy, names.Queue} {
		var err error
		if sels[i], err = ParseSelector(n); err != nil {
			return Sample{}, err
		}
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return Sample{}, fmt.Errorf("parsing metrics: %w", err)
	}
	smp := Sample{
		Time:       at,
		Rejected:   Selector{Name: MetricRejected}.value(fams),
		Goroutines: Selector{Name: MetricGoroutines}.value(fams),
		RSSBytes:   Selector{Name: MetricRSS}.value(fams),
		CPUSeconds: Selector{Name: MetricCPU}.value(fams),

		NoRejected: fams[MetricRejected] == nil,

		Blockwatch:            fams[MetricBlockedHoldingWorker] != nil,
		BlockedHoldingWorkerS: Selector{Name: MetricBlockedHoldingWorker}.value(fams),
		Watched:               fams[MetricWatched] != nil,
		WatchedS:              Selector{Name: MetricWatched}.value(fams),
		WatcherSamples:        Selector{Name: MetricWatcherSamples}.value(fams),
	}
	for _, m := range ProcessMetrics {
		if fams[m.Name] == nil {
			smp.Absent = append(smp.Absent, m.Name)
		}
	}
	for i, f := range []struct {
		role string
		dst  *float64
	}{{RoleWorkers, &smp.Workers}, {RoleBusy, &smp.WorkersBusy}, {RoleQueue, &smp.QueueLength}} {
		v, ok := sels[i].sum(fams)
		*f.dst = v
		if !ok {
			smp.Missing = append(smp.Missing, f.role)
		}
	}
	return smp, nil
}

// Selector picks the series of one metric whose labels have the given
// values; with no labels, every series of the metric.
type Selector struct {
	Name   string
	Labels map[string]string
}

var metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// ParseSelector reads a metric name with optional label matchers, as
// PromQL writes them: go_sql_in_use_connections{db_name="before"}. Only
// equality is supported, and values may not contain commas.
func ParseSelector(s string) (Selector, error) {
	name, rest, braces := strings.Cut(strings.TrimSpace(s), "{")
	sel := Selector{Name: name}
	if !metricName.MatchString(name) {
		return Selector{}, fmt.Errorf("metric %q: want NAME or NAME{label=\"value\",...}", s)
	}
	if !braces {
		return sel, nil
	}
	body, ok := strings.CutSuffix(rest, "}")
	if !ok {
		return Selector{}, fmt.Errorf("metric %q: missing }", s)
	}
	sel.Labels = map[string]string{}
	for _, m := range strings.Split(body, ",") {
		if strings.TrimSpace(m) == "" {
			continue
		}
		k, v, ok := strings.Cut(m, "=")
		k = strings.TrimSpace(k)
		uv, err := strconv.Unquote(strings.TrimSpace(v))
		if !ok || err != nil || !metricName.MatchString(k) {
			return Selector{}, fmt.Errorf("metric %q: label matcher %q: want label=\"value\"", s, strings.TrimSpace(m))
		}
		sel.Labels[k] = uv
	}
	return sel, nil
}

// value is sum without the found flag, for the process collector's
// metrics, whose absence the report handles itself.
func (sel Selector) value(fams map[string]*dto.MetricFamily) float64 {
	v, _ := sel.sum(fams)
	return v
}

// sum adds the selected series of a gauge or counter: the pool total
// should the API ever label its pools, or one pool of several. found says
// whether any series matched.
func (sel Selector) sum(fams map[string]*dto.MetricFamily) (v float64, found bool) {
	f := fams[sel.Name]
	if f == nil {
		return 0, false
	}
	for _, m := range f.GetMetric() {
		if !sel.matches(m) {
			continue
		}
		found = true
		switch {
		case m.GetGauge() != nil:
			v += m.GetGauge().GetValue()
		case m.GetCounter() != nil:
			v += m.GetCounter().GetValue()
		case m.GetUntyped() != nil:
			v += m.GetUntyped().GetValue()
		}
	}
	return v, found
}

func (sel Selector) matches(m *dto.Metric) bool {
	found := 0
	for _, lp := range m.GetLabel() {
		if want, ok := sel.Labels[lp.GetName()]; ok {
			if lp.GetValue() != want {
				return false
			}
			found++
		}
	}
	return found == len(sel.Labels)
}

// Scraper polls a /metrics URL and keeps every sample in memory (one a
// second is a few kilobytes per minute).
type Scraper struct {
	url    string
	client *http.Client
	log    *slog.Logger
	names  Names

	mu       sync.Mutex
	samples  []Sample
	failed   bool
	warned   map[string]bool // roles and absent metrics already warned about
	warnings []string
}

// Option configures a Scraper.
type Option func(*Scraper)

// WithNames reads the queue, busy and worker figures from names instead of
// the demo API's pool gauges.
func WithNames(n Names) Option { return func(s *Scraper) { s.names = n.orDefault() } }

// New returns a Scraper for metricsURL. Its client is separate from the
// load's, so the scrape never waits for a free load connection.
func New(metricsURL string, log *slog.Logger, opts ...Option) *Scraper {
	s := &Scraper{
		url:    metricsURL,
		client: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 1}},
		log:    log,
		names:  DefaultNames,
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Once takes one sample now.
func (s *Scraper) Once(ctx context.Context) (Sample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return Sample{}, fmt.Errorf("metrics request: %w", err)
	}
	at := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return Sample{}, fmt.Errorf("scraping %s: %w", s.url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Sample{}, fmt.Errorf("scraping %s: %s", s.url, resp.Status)
	}
	return ParseNames(resp.Body, at, s.names)
}

// Run samples every interval until ctx ends. A failing scrape is logged
// once and retried; the run goes on without server figures.
func (s *Scraper) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		smp, err := s.Once(ctx)
		s.mu.Lock()
		if err == nil {
			s.samples = append(s.samples, smp)
			s.warnMissing(smp)
		} else if !s.failed && ctx.Err() == nil {
			s.failed = true
			s.warn(fmt.Sprintf("%v; the server's columns show – for windows without a sample", err))
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// warnMissing warns, once per role, of a selector that matched no series
// in smp, and once per metric of a process metric it did not have. Called
// with s.mu held.
func (s *Scraper) warnMissing(smp Sample) {
	once := func(key string) bool {
		if s.warned[key] {
			return false
		}
		if s.warned == nil {
			s.warned = map[string]bool{}
		}
		s.warned[key] = true
		return true
	}
	for _, role := range smp.Missing {
		if once(role) {
			s.warn(fmt.Sprintf("%s %s matched no series in %s (first seen at %s); %s shows – where it is missing",
				RoleFlag[role], s.names.selector(role), s.url, smp.Time.Format("15:04:05"), role))
		}
	}
	for _, m := range ProcessMetrics {
		if !smp.HasMetric(m.Name) && once(m.Name) {
			s.warn(fmt.Sprintf("%s is not in %s (first seen at %s): the service does not register client_golang's %s, so %s shows – where it is absent",
				m.Name, s.url, smp.Time.Format("15:04:05"), m.Collector, m.Columns))
		}
	}
}

// warn logs msg and keeps it for the summary. Called with s.mu held.
func (s *Scraper) warn(msg string) {
	s.warnings = append(s.warnings, msg)
	s.log.Warn(msg)
}

// Warnings returns the scraper's warnings so far, in order, each once.
func (s *Scraper) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.warnings)
}

func (n Names) selector(role string) string {
	switch role {
	case RoleQueue:
		return n.Queue
	case RoleBusy:
		return n.Busy
	}
	return n.Workers
}

// Samples returns a copy of the samples taken so far.
func (s *Scraper) Samples() []Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sample(nil), s.samples...)
}

// Last returns the latest sample, if any.
func (s *Scraper) Last() (Sample, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.samples) == 0 {
		return Sample{}, false
	}
	return s.samples[len(s.samples)-1], true
}

// Close releases idle connections.
func (s *Scraper) Close() { s.client.CloseIdleConnections() }
