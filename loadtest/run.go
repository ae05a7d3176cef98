package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/aggregate"
	"github.com/syncio/syncio/loadtest/closedloop"
	"github.com/syncio/syncio/loadtest/dashboard"
	"github.com/syncio/syncio/loadtest/limits"
	"github.com/syncio/syncio/loadtest/openloop"
	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/schedule"
	"github.com/syncio/syncio/loadtest/scrape"
)

// Config is one load run.
type Config struct {
	BaseURL   string // e.g. http://127.0.0.1:8080; may be empty when every scenario has a full URL
	Profile   schedule.Profile
	Scenarios []Scenario
	OutDir    string
	// UploadSize is the body size of upload scenarios.
	UploadSize int
	// Timeout bounds the wait for response headers; a queued sync request
	// can legitimately take a minute.
	Timeout time.Duration
	// MaxRetryAfter caps a 503's advertised wait.
	MaxRetryAfter time.Duration
	// ScrapeInterval is how often /metrics is sampled (0 = never).
	ScrapeInterval time.Duration
	// MetricsURL is the Prometheus endpoint sampled ("" = BaseURL/metrics),
	// and MetricNames the gauges read from it as queue and busy workers.
	MetricsURL  string
	MetricNames scrape.Names
	// NoMetrics says the target has no /metrics: nothing is sampled, and
	// the drain between scenarios waits BackendLatency plus a second.
	NoMetrics bool
	// Drain bounds the wait, between scenarios, for the server's queue
	// and workers to empty.
	Drain time.Duration
	// BackendLatency is the profile service's latency, for Little's law.
	BackendLatency time.Duration
	// UploadBackendLatency is the storage's time for one upload, the
	// Little's-law basis of the upload headline (0 = not known).
	UploadBackendLatency time.Duration
	// InProcess says the API runs in this process (it doubles the file
	// descriptors needed, and RSS/goroutines then include the load users).
	InProcess bool
	// APIProcess says how the API runs, for the report: "child",
	// "in-process" or "external".
	APIProcess string
	// APIPID and StoragePID are the API child's and the storage child's
	// process IDs (0: not a process the lab started), whose CPU is sampled
	// with the generator's own for each step's CPU per OK. NoStorageCPU
	// says why the storage's CPU is not seen when StoragePID is 0.
	APIPID, StoragePID int
	NoStorageCPU       string
	// Storage is the blob storage model, for the report (nil = not known).
	Storage  *report.StorageModel
	Server   *report.Server
	Command  string
	Progress io.Writer // live progress line; nil for none
	// Rate, when positive, replaces the closed-loop users with an open
	// loop (openloop): the top step sends Rate requests a second, and each
	// earlier step Rate × its users ÷ the top step's users.
	Rate float64
	// Live, when set, receives one point a second of the running
	// scenario (the dashboard's feed), from a goroutine of its own.
	Live func(dashboard.Point)
	Log  *slog.Logger
}

func (c *Config) defaults() {
	if c.Timeout == 0 {
		c.Timeout = 5 * time.Minute
	}
	if c.MaxRetryAfter == 0 {
		c.MaxRetryAfter = 30 * time.Second
	}
	if c.Drain == 0 {
		c.Drain = 2 * time.Minute
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// Validate checks the configuration before anything starts, including the
// file descriptor and port limits for the largest step.
func (c *Config) Validate() error {
	var errs []error
	relative := func(sc Scenario) bool { return !sc.IsAbsolute() }
	if c.BaseURL == "" && (len(c.Scenarios) == 0 || slices.ContainsFunc(c.Scenarios, relative)) {
		errs = append(errs, errors.New("no target URL (a scenario's path needs one)"))
	}
	if len(c.Scenarios) == 0 {
		errs = append(errs, errors.New("no scenarios"))
	}
	if c.OutDir == "" {
		errs = append(errs, errors.New("no output folder"))
	}
	if err := c.Profile.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("profile: %w", err))
	} else if err := limits.Check(c.Profile.Users[len(c.Profile.Users)-1], c.InProcess); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Run runs every scenario in turn and writes the results folder. On
// cancellation it stops the current scenario, writes what it has and
// returns the context's error with the partial summary.
func Run(ctx context.Context, cfg Config) (*report.Summary, error) {
	cfg.defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := reachable(ctx, cfg); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating output folder: %w", err)
	}
	sum := &report.Summary{
		Profile:         cfg.Profile.Name,
		BackendLatencyS: cfg.BackendLatency.Seconds(),
		Target:          cfg.BaseURL,
		StartedAt:       time.Now(),
		Command:         cfg.Command,
		Server:          cfg.Server,
		Machine:         machine(),
		InProcess:       cfg.InProcess,
		APIProcess:      cfg.APIProcess,

		UploadBackendLatencyS: cfg.UploadBackendLatency.Seconds(),
		Storage:               cfg.Storage,
		OpenLoopRate:          cfg.Rate,
	}
	if sum.Target == "" {
		sum.Target = cfg.Scenarios[0].Target("", 0).URL
	}
	if cfg.Scenarios[0].Given {
		// The demo's backend latency means nothing to another service.
		sum.BackendLatencyS = 0
		sum.Pair = &report.Pair{Baseline: cfg.Scenarios[0].Name}
		if len(cfg.Scenarios) > 1 {
			sum.Pair.Candidate = cfg.Scenarios[1].Name
		}
	}

	metricsURL := cfg.MetricsURL
	if metricsURL == "" {
		metricsURL = strings.TrimSuffix(cfg.BaseURL, "/") + "/metrics"
	}
	scraper := scrape.New(metricsURL, cfg.Log, scrape.WithNames(cfg.MetricNames))
	defer scraper.Close()
	scrapeCtx, stopScrape := context.WithCancel(context.Background())
	var scrapeDone sync.WaitGroup
	var self rssSampler
	sum.NoServerMetrics = cfg.NoMetrics || cfg.ScrapeInterval <= 0
	if !sum.NoServerMetrics {
		scrapeDone.Go(func() { scraper.Run(scrapeCtx, cfg.ScrapeInterval) })
	}
	// The load generator's own RSS is known whatever the target exports.
	self.kids = cfg.kids()
	if cfg.ScrapeInterval > 0 {
		scrapeDone.Go(func() { self.run(scrapeCtx, cfg.ScrapeInterval) })
	}

	prog := newProgress(cfg)
	lv := newLive(cfg, scraper)
	var runErr error
	for i, sc := range cfg.Scenarios {
		if err := ctx.Err(); err != nil {
			// Cancelled before this scenario (during the drain, say):
			// starting it would only add an empty scenario to the summary.
			runErr = err
			break
		}
		res, err := runScenario(ctx, cfg, sc, i, prog, lv)
		if res != nil {
			// The API's peak so far, for the progress line's headlines; the
			// figures are computed again over all samples below.
			res.APIRSSMaxBytes = aggregate.ServerStats(scraper.Samples(), res.StartedAt, res.EndedAt).RSSBytesMax
			sum.Scenarios = append(sum.Scenarios, *res)
			sum.ComputeHeadline()
			prog.headlines(progressHeadlines(sum))
		}
		if err != nil {
			runErr = err
			break
		}
		if i < len(cfg.Scenarios)-1 {
			drain(ctx, cfg, scraper, prog)
		}
	}
	prog.done()
	lv.close()
	stopScrape()
	scrapeDone.Wait()

	// Server figures come from the whole run's samples, per window.
	samples := scraper.Samples()
	for si := range sum.Scenarios {
		sc := &sum.Scenarios[si]
		for i := range sc.Steps {
			st := &sc.Steps[i]
			srv := aggregate.ServerStats(samples, st.WindowStart, st.WindowEnd)
			st.QueueLengthMax, st.WorkersBusyMean, st.Rejected = srv.QueueLengthMax, srv.WorkersBusyMean, srv.RejectedDelta
			if srv.Samples == 0 && !sum.NoServerMetrics {
				st.ServerMissing = fmt.Sprintf("no sample of %s in the window", metricsURL)
			}
			st.ServerRSSBytes, st.ServerGoroutines, st.Workers = srv.RSSBytesMax, srv.GoroutinesMax, srv.Workers
			st.ServerCPUCores = srv.CPUCores
			st.BlockedHoldingWorker, st.WatcherSamples, st.BlockedMissing = srv.Blocked.Mean, srv.Blocked.Samples, srv.Blocked.Missing
			st.GeneratorRSSBytes = self.max(st.WindowStart, st.WindowEnd)
			use := self.cpu(st.WindowStart, st.WindowEnd, runtime.NumCPU())
			st.GeneratorCPU, st.HostCPUIdle = use.Generator, use.HostIdle
			st.JudgeSent()
			st.CPUPerOK = stepCPU(cfg, &self, *st, sum.NoServerMetrics)
		}
		// The whole scenario, ramp and settling included: memory peaks
		// need not fall in a measured window.
		whole := aggregate.ServerStats(samples, sc.StartedAt, sc.EndedAt)
		sc.APIRSSMaxBytes, sc.APICores, sc.APICPUS = whole.RSSBytesMax, whole.CPUCores, nil
		if whole.CPUCores != nil {
			cpuS := *whole.CPUCores * sc.EndedAt.Sub(sc.StartedAt).Seconds()
			sc.APICPUS = &cpuS
		}
		sc.GeneratorRSSMaxBytes = self.max(sc.StartedAt, sc.EndedAt)
	}
	sum.Warnings = append(sum.Warnings, scraper.Warnings()...)
	if w := sum.FewWatcherSamples(); w != "" {
		sum.Warnings = append(sum.Warnings, w)
	}
	sum.Machine.LoadAvgAfter, _ = loadAvg()
	sum.ComputeHeadline()
	if err := writeSamples(filepath.Join(cfg.OutDir, "metrics.jsonl"), samples); err != nil {
		runErr = errors.Join(runErr, err)
	}
	var sources []report.PlotSource
	for _, sc := range sum.Scenarios {
		sources = append(sources, report.PlotSource{Path: filepath.Join(cfg.OutDir, sc.ResultsFile)})
	}
	if err := WriteOutputs(cfg.OutDir, sum, sources, cfg.Log); err != nil {
		runErr = errors.Join(runErr, err)
	}
	return sum, runErr
}

// progressHeadlines is the short form of the headlines computed so far,
// for the progress line.
func progressHeadlines(sum *report.Summary) string {
	var parts []string
	if h := sum.Headline; h.ThroughputRatio != nil {
		label := "profile"
		if p := sum.Pair; p != nil {
			label = p.Candidate + "/" + p.Baseline
		}
		parts = append(parts, fmt.Sprintf("%s %.1fx", label, *h.ThroughputRatio))
	}
	if h := sum.UploadHeadline; h != nil && h.ThroughputRatio != nil {
		var rss string
		if h.APIRSSMaxMB != nil {
			rss = fmt.Sprintf("API RSS max %.0f MB", *h.APIRSSMaxMB)
		} else {
			rss = "API RSS max – (no " + scrape.MetricRSS + " in its /metrics)"
			if sum.NoServerMetrics {
				rss = "API RSS max – (its /metrics is not scraped)"
			}
		}
		parts = append(parts, fmt.Sprintf("upload %.1fx (%s)", *h.ThroughputRatio, rss))
	}
	return strings.Join(parts, ", ")
}

// stepRate is the open loop's arrival rate at a step of users.
func (c Config) stepRate(users int) float64 {
	top := c.Profile.Users[len(c.Profile.Users)-1]
	return c.Rate * float64(users) / float64(top)
}

// PlannedDuration is how long the scenarios' steps take, drains between
// scenarios not counted, and the most steps any of them has.
func PlannedDuration(p schedule.Profile, scs []Scenario) (time.Duration, int, error) {
	var d time.Duration
	var steps int
	for _, sc := range scs {
		pl, err := p.Plan(sc.slowSettle())
		if err != nil {
			return 0, 0, err
		}
		d += pl.Duration()
		steps = max(steps, len(pl.Measured()))
	}
	return d, steps, nil
}

// ResultsExt is the extension of the vegeta (gob) result files.
const ResultsExt = ".bin"

// arrival is one result for the collector, with what the open loop knows
// of its sending (open: it came from the open loop).
type arrival struct {
	r    *vegeta.Result
	sent openloop.Sent
	open bool
}

func runScenario(ctx context.Context, cfg Config, sc Scenario, n int, prog *progress, lv *live) (*report.Scenario, error) {
	plan, err := cfg.Profile.Plan(sc.slowSettle())
	if err != nil {
		return nil, err
	}
	name := sc.Name + ResultsExt
	f, err := os.Create(filepath.Join(cfg.OutDir, name))
	if err != nil {
		return nil, fmt.Errorf("creating results file: %w", err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<16)
	enc := vegeta.NewEncoder(bw)

	start := time.Now()
	cpuStart := processCPU()
	measured := plan.Measured()
	ws := make([]aggregate.Window, len(measured))
	for i, st := range measured {
		ws[i] = aggregate.Window{From: start.Add(st.Window.From), To: start.Add(st.Window.To)}
	}
	wins := aggregate.NewWindows(ws)

	// One collector goroutine owns the encoder and the accumulators, so
	// users only pay for a channel send.
	results := make(chan arrival, 4096)
	var encErr error
	var collected sync.WaitGroup
	collected.Go(func() {
		for a := range results {
			r := a.r
			if encErr == nil {
				if err := enc.Encode(r); err != nil {
					encErr = fmt.Errorf("writing %s: %w", name, err)
				}
			}
			wins.Add(r)
			if a.open {
				wins.AddSent(r.Timestamp, r.End(), a.sent.Late, a.sent.AtCap)
			}
			prog.count(r)
			lv.add(r)
		}
	})

	top := cfg.Profile.Users[len(cfg.Profile.Users)-1]
	// At most as many in flight as the top step would have users, or the
	// rate for a whole -timeout: beyond that the service is down, not slow.
	inFlightCap := max(top, int(cfg.Rate*cfg.Timeout.Seconds()))
	// The open loop keeps up to the cap's connections idle between
	// arrivals; sized for the users, it would close and redial at every
	// burst and run out of ports at high rates.
	conns := top
	if cfg.Rate > 0 {
		conns = inFlightCap
	}
	tr := closedloop.NewTransport(conns, cfg.Timeout)
	target := sc.Target(cfg.BaseURL, cfg.UploadSize)
	// No Client.Timeout: the transport's ResponseHeaderTimeout bounds the
	// wait without net/http's per-request timer goroutines.
	client := &http.Client{Transport: tr}
	var setLoad func(users int)
	var stopLoad func()
	if cfg.Rate > 0 {
		open := openloop.New(target, client, inFlightCap, func(r *vegeta.Result, s openloop.Sent) {
			results <- arrival{r: r, sent: s, open: true}
		})
		setLoad = func(users int) { open.SetRate(cfg.stepRate(users)) }
		stopLoad = open.Stop
	} else {
		atk := closedloop.New(ctx, target, func(r *vegeta.Result) { results <- arrival{r: r} },
			closedloop.WithClient(client),
			closedloop.WithRetryAfter(time.Second, cfg.MaxRetryAfter))
		setLoad, stopLoad = atk.SetUsers, atk.Stop
	}
	prog.scenario(sc.Name, n, plan, start)
	rest := plan.Duration()
	for _, later := range cfg.Scenarios[n+1:] {
		if pl, err := cfg.Profile.Plan(later.slowSettle()); err == nil {
			rest += pl.Duration()
		}
	}
	lv.begin(sc.Name, len(measured), start.Add(rest))

	cfg.Log.Info("scenario starting", "scenario", sc.Name, "steps", len(measured), "duration", plan.Duration())
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	interrupted := false
	wait := func(until time.Duration) bool {
		d := time.Until(start.Add(until))
		if d <= 0 {
			return true
		}
		timer.Reset(d)
		select {
		case <-ctx.Done():
			timer.Stop()
			return false
		case <-timer.C:
			return true
		}
	}
	for _, st := range plan.Steps {
		if !wait(st.Start) {
			interrupted = true
			break
		}
		setLoad(st.Users)
		prog.step(st)
		lv.setStep(st.Index, st.Users)
	}
	if !interrupted && !wait(plan.Duration()) {
		interrupted = true
	}
	stopLoad()
	close(results)
	collected.Wait()
	lv.end()
	tr.CloseIdleConnections()
	if err := bw.Flush(); err != nil && encErr == nil {
		encErr = fmt.Errorf("writing %s: %w", name, err)
	}

	out := &report.Scenario{Name: sc.Name, Path: sc.Path, Method: sc.Method, ResultsFile: name,
		StartedAt: start, EndedAt: time.Now()}
	if !sc.Given {
		out.Blocking = &sc.Blocking
	}
	if cpu := processCPU() - cpuStart; cpu > 0 {
		out.ProcessCPUS = cpu.Seconds()
		out.ProcessCores = cpu.Seconds() / time.Since(start).Seconds()
	}
	for i, st := range measured {
		if interrupted && start.Add(st.Window.To).After(time.Now()) {
			break // an unfinished window would understate everything
		}
		stats := wins.Steps[i].Stats(ws[i].Len())
		out.Steps = append(out.Steps, report.Step{
			Users: st.Users, DurationS: ws[i].Len().Seconds(), Index: st.Index,
			Requests: stats.Requests, OK: stats.OK, Status503: stats.Rejected, Errors: stats.Errors, Timeouts: stats.Timeouts,
			ThroughputRPS: stats.ThroughputRPS, Status503RPS: stats.RejectedRPS,
			StepStart: start.Add(st.Start), WindowStart: ws[i].From, WindowEnd: ws[i].To,
		})
		out.Steps[len(out.Steps)-1].SetBreakdown(stats.Codes, stats.ErrorKinds)
		out.Steps[len(out.Steps)-1].SetLatencies(stats.OK, stats.LatencyMean, stats.P50, stats.P95, stats.P99, stats.Max)
		if cfg.Rate > 0 {
			last := &out.Steps[len(out.Steps)-1]
			last.RatePerS = cfg.stepRate(st.Users)
			last.Sent = &report.Sent{RatePerS: stats.SentRPS, AnsweredPerS: stats.AnsweredRPS,
				LateP50S: stats.LateP50, LateP99S: stats.LateP99, LateMaxS: stats.LateMax,
				AnswersAtCap: stats.AtCap, InFlightCap: inFlightCap}
			// Judged again once the CPU figures are in (Run); judged here
			// too, for a run without them.
			last.JudgeSent()
		}
	}
	if interrupted {
		return out, errors.Join(ctx.Err(), encErr)
	}
	return out, encErr
}

// drain waits, between scenarios, until the server has no queued or busy
// work left from the previous scenario, so the next one starts clean.
func drain(ctx context.Context, cfg Config, scraper *scrape.Scraper, prog *progress) {
	deadline := time.Now().Add(cfg.Drain)
	prog.draining()
	for time.Now().Before(deadline) && ctx.Err() == nil {
		smp, err := scraper.Once(ctx)
		if cfg.NoMetrics || err != nil {
			// No metrics: give in-flight backend calls time to finish.
			sleep(ctx, min(cfg.BackendLatency+time.Second, time.Until(deadline)))
			return
		}
		if !smp.Has(scrape.RoleQueue) && !smp.Has(scrape.RoleBusy) {
			// Neither figure is known: wait as without metrics.
			sleep(ctx, min(cfg.BackendLatency+time.Second, time.Until(deadline)))
			return
		}
		if smp.QueueLength == 0 && smp.WorkersBusy == 0 {
			return
		}
		sleep(ctx, min(500*time.Millisecond, time.Until(deadline)))
	}
	if ctx.Err() != nil {
		return // cancelled, not timed out: the run is stopping anyway
	}
	cfg.Log.Warn("server still busy after the drain timeout; the next scenario starts anyway", "drain", cfg.Drain)
}

// reachable dials every host the scenarios attack, so that a wrong port
// or host fails before the first step instead of as a run of errors.
func reachable(ctx context.Context, cfg Config) error {
	if ctx.Err() != nil {
		return nil // cancelled already: Run stops before any scenario
	}
	seen := map[string]bool{}
	for _, sc := range cfg.Scenarios {
		raw := sc.Target(cfg.BaseURL, 0).URL
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return fmt.Errorf("%s: bad URL %q", sc.Name, raw)
		}
		port := u.Port()
		if port == "" {
			port = "80"
			if u.Scheme == "https" {
				port = "443"
			}
		}
		addr := net.JoinHostPort(u.Hostname(), port)
		if seen[addr] {
			continue
		}
		seen[addr] = true
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		conn, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
		cancel()
		if err != nil {
			return fmt.Errorf("target %s (%s) is unreachable: %w", raw, sc.Name, err)
		}
		conn.Close()
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// payload is a deterministic, incompressible-enough upload body.
func payload(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func machine() report.Machine {
	m := report.Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	m.Hostname, _ = os.Hostname()
	m.LoadAvgBefore, m.Load1Before = loadAvg()
	return m
}

// loadAvg reads /proc/loadavg (Linux); elsewhere it returns nothing.
func loadAvg() (string, float64) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "", 0
	}
	s := strings.TrimSpace(string(b))
	f := strings.Fields(s)
	var l1 float64
	if len(f) > 0 {
		l1, _ = strconv.ParseFloat(f[0], 64)
	}
	return s, l1
}
