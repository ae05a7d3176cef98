package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/syncio/syncio/api"
	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/fakes/blobserver"
	"github.com/syncio/syncio/loadtest"
	"github.com/syncio/syncio/loadtest/dashboard"
	"github.com/syncio/syncio/loadtest/gate"
	"github.com/syncio/syncio/loadtest/limits"
	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/schedule"
	"github.com/syncio/syncio/loadtest/scrape"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == serveAPIArg {
		os.Exit(serveAPI(os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == serveBlobArg {
		os.Exit(serveBlob(os.Stdin, os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// The exit codes, documented in -h, the README and docs/load-your-service.md.
const (
	exitOK        = 0 // the run finished; every -assert held
	exitFailed    = 1 // the run could not be done (unreachable target, I/O)
	exitUsage     = 2 // bad flags
	exitAssert    = 3 // an -assert was false
	exitAllFailed = 4 // a scenario got no OK response at all
)

// errAllFailed marks a run in which a scenario got no OK response.
var errAllFailed = errors.New("no OK response")

// run returns the exit code (see exitOK and the others).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if _, ok := stderr.(*os.File); !ok {
		// The API child's log is copied into stderr by os/exec's goroutine
		// while this process writes its own; a file takes both, anything
		// else needs the writes serialised.
		stderr = &lockedWriter{w: stderr}
	}
	if len(args) > 0 && args[0] == "report" {
		return runReport(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sweep" {
		return runSweep(ctx, args[1:], stdout, stderr)
	}
	opts, err := parseRun(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		printErr(stderr, err)
		fmt.Fprintln(stderr, "(run with -h for help)")
		return 2
	}
	if err := attack(ctx, opts, stdout, stderr); err != nil {
		printErr(stderr, err)
		switch {
		case errors.Is(err, gate.ErrFailed):
			return exitAssert
		case errors.Is(err, errAllFailed):
			return exitAllFailed
		}
		return exitFailed
	}
	return exitOK
}

// printErr writes err with the program's prefix on each of its lines:
// joined errors (two failed assertions, three bad flags) are a line each.
func printErr(w io.Writer, err error) {
	for line := range strings.SplitSeq(err.Error(), "\n") {
		fmt.Fprintf(w, "syncio-load: %s\n", line)
	}
}

type runOpts struct {
	cfg       loadtest.Config
	target    string
	dashboard string // address of the live dashboard; "" for none
	linger    time.Duration
	// given: the scenarios are the user's own endpoints; no API is started.
	given          bool
	workers, queue int
	verbose        bool
	// apiMode is how the lab runs the API without -target: "child" or
	// "in-process".
	apiMode string
	// storageChild runs the blob fake in a child of its own, next to the
	// API child (-storage-child).
	storageChild bool
	// The API child's memory limit (-api-memory-limit), and whether the
	// flag was given (else GOMEMLIMIT in the environment wins).
	memLimit         int64
	memLimitExplicit bool
	// The embedded storage model, as api.Config reads it (negative = none).
	storageLatency, storageJitter time.Duration
	storageBandwidth              int64
	// blockwatch runs the started API's blocking watcher, with
	// blockwatchBudget of one core.
	blockwatch       bool
	blockwatchBudget float64
	// coldstart selects the cold-start measurement instead of a load run.
	coldstart            bool
	coldTrials, coldReqs int
	coldLatency          time.Duration
	// temporal is the Temporal frontend the started API runs orders on.
	temporal string
	// asserts are checked on the final summary (-assert).
	asserts []gate.Assertion
}

func parseRun(args []string, stderr io.Writer) (runOpts, error) {
	fs := flag.NewFlagSet("syncio-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		profileName = fs.String("profile", "quick", profileHelp())
		scenarios   = fs.String("scenarios", "headline,upload", "comma-separated scenarios or groups to run, in table order (see the list below); the default gives the profile headline and the upload headline")
		target      = fs.String("target", "", "base `URL` of a running API to attack; empty starts the API on 127.0.0.1 with embedded fakes (see -api)")
		apiMode     = fs.String("api", "child", "without -target, run the API as a `child` process of its own (its RSS, CPU and goroutines are then its own, from its /metrics) or in-process (one process for both, as before)")
		stChild     = fs.Bool("storage-child", true, "with -api child: run the embedded blob fake in a child process of its own, so the API child's RSS, CPU and goroutines are the API's alone, as against remote storage (false: the fake inside the API child, as before; its server side of every storage connection and its index then count as the API's)")
		memLimit    = fs.Int64("api-memory-limit", -1, "with -api child: the API child's Go soft memory limit in bytes, as syncio-api's -memory-limit (-1: 251658240, 240 MiB, with -storage-child, none with the fake inside the API child, whose index grows with what is stored; 0: none; GOMEMLIMIT in the environment wins unless this flag is given)")
		stLatency   = fs.Duration("storage-latency", api.DefaultConfig().StorageLatency, "embedded blob storage: latency of every request (0 = none); with -target, say what the target's storage takes, for the upload headline's Little's law")
		stJitter    = fs.Duration("storage-jitter", 0, "embedded blob storage: random extra latency per request, up to this much")
		stBandwidth = fs.Int64("storage-bandwidth", api.DefaultConfig().StorageBandwidth, "embedded blob storage: bytes per second each request's body moves at (0 = unlimited)")
		out         = fs.String("out", "", "results `folder` (default results/<timestamp>)")
		usersList   = fs.String("users", "", "explicit comma-separated user count per step, e.g. 1,1000,2000 (overrides -start-users/-step-users/-max-users)")
		startUsers  = fs.Int("start-users", 1, "users in the first step (and the warm-up)")
		stepUsers   = fs.Int("step-users", 0, "users added per step (profile default: quick 1000, full 400)")
		maxUsers    = fs.Int("max-users", 4000, "most users: the steps are -start-users, then each multiple of -step-users above it, up to this many")
		warmup      = fs.Duration("warmup", 0, "unmeasured warm-up at the first step's users (profile default: quick 5s, full 30s; 0s to skip when set)")
		settle      = fs.Duration("settle", 0, "unmeasured settling at the start of each step but the last (quick 4s, full 20s)")
		measure     = fs.Duration("measure", 0, "measured window of each step but the last (quick 6s, full 40s); a step lasts settle+measure")
		topSettle   = fs.Duration("top-settle", 0, "settling at the last step for blocking (sync-like) scenarios, whose queue fills slowly (quick 50s, full 90s)")
		topSettleA  = fs.Duration("top-settle-async", 0, "settling at the last step for async scenarios (quick 10s, full 20s)")
		topMeasure  = fs.Duration("top-measure", 0, "measured window of the last step (quick 20s, full 60s)")
		uploadSize  = fs.Int("upload-size", 4<<10, "upload body size in `bytes` for upload scenarios (small by default: 4000 users hold 4000 bodies in the API at once)")
		timeout     = fs.Duration("timeout", 5*time.Minute, "per-request wait for response headers (counted as a timeout beyond it); must exceed the worst sync queueing time")
		maxRetry    = fs.Duration("max-retry-after", 30*time.Second, "cap on a 503's Retry-After wait")
		scrapeEvery = fs.Duration("scrape", time.Second, "/metrics sampling interval (0 disables it)")
		drain       = fs.Duration("drain", 2*time.Minute, "longest wait between scenarios for the server's queue and busy workers to empty")
		backend     = fs.Duration("backend-latency", 2*time.Second, "profile service latency: the started API's (child or in-process), and the basis of the Little's-law efficiency")
		watch       = fs.Bool("blockwatch", true, "started API (child or in-process): run its blocking watcher (GET /debug/syncio/blocking, and the blocked+worker column); false measures the API without it")
		bwBudget    = fs.Float64("blockwatch-budget", blockwatch.DefaultBudget, "started API (child or in-process): the most of one core's CPU time its blocking watcher may spend sampling, 0 < f <= 1; raise it when blocked+worker reads – for too few samples")
		workers     = fs.Int("workers", 100, "started API (child or in-process): pool workers")
		queue       = fs.Int("queue", 3000, "started API (child or in-process): admission queue length (sync latency is capped near (queue+workers)/(workers/backend-latency))")
		verbose     = fs.Bool("v", false, "log the started API (child or in-process) and the runner at info level")
		quiet       = fs.Bool("quiet", false, "no live progress line")
		coldTrials  = fs.Int("coldstart-trials", 5, "-scenarios coldstart: fresh servers started per scenario")
		coldReqs    = fs.Int("coldstart-requests", 20, "-scenarios coldstart: warm requests timed after each first request")
		temporalHP  = fs.String("temporal", "", "started API: `HOST:PORT` of a Temporal frontend; POST /api/async/order then runs on Temporal (scenario temporal-order)")
		coldLatency = fs.Duration("coldstart-latency", 20*time.Millisecond, "-scenarios coldstart: profile service latency (small, so start-up costs are not lost in it)")
		targetsFile = fs.String("targets", "", "`file` of your own endpoints in vegeta's http target format (METHOD URL, header lines, @body; blank line between), instead of -endpoint")
		body        = fs.String("body", "", "`@file` sent as the body of every -endpoint request (and of every -targets target without its own @body)")
		metricsURL  = fs.String("metrics", "", "Prometheus `URL` to sample for queue length and busy workers (default: the target's /metrics for the demo, none for -endpoint/-targets)")
		metricQueue = fs.String("metric-queue", scrape.DefaultNames.Queue, "gauge read from -metrics as the queue length, summed over its series; NAME{label=\"value\"} picks some")
		metricBusy  = fs.String("metric-busy", scrape.DefaultNames.Busy, "gauge read from -metrics as busy workers, summed over its series; NAME{label=\"value\"} picks some")
		metricWork  = fs.String("metric-workers", scrape.DefaultNames.Workers, "gauge read from -metrics as the number of workers, summed over its series; NAME{label=\"value\"} picks some")
	)
	linger := fs.Duration("dashboard-linger", 0, "keep serving -dashboard this long after the run ends (the page keeps its charts and summary; Ctrl-C ends it sooner)")
	dash := fs.String("dashboard", "", "serve a live dashboard at `ADDR` (host:port, e.g. 127.0.0.1:8089) while the run lasts: charts per scenario, /events as Server-Sent Events, the summary at the end")
	rate := fs.String("rate", "", "open loop: `N/s` requests arriving a second at the top step, whatever the answers (vegeta's constant pacer), instead of closed-loop users; earlier steps arrive at N × their users ÷ the top step's. For SLO tests at a fixed rate; the closed loop (default) shows queueing per user")
	var endpoints, headers, asserts listFlag
	fs.Var(&asserts, "assert", "`EXPR` checked on the final summary, e.g. 'candidate.ok_per_s >= 5*baseline.ok_per_s' (repeatable); false exits 3. Fields of the baseline's and candidate's top step: "+strings.Join(gateFields(), ", ")+", status_NNN")
	fs.Var(&endpoints, "endpoint", "your own endpoint, `'NAME=METHOD PATH'` (repeatable; PATH is /path against -target or a full URL); replaces -scenarios, runs in the order given: the first is the headline's baseline, the second its candidate")
	fs.Var(&headers, "header", "`'Key: value'` header sent with every -endpoint or -targets request (repeatable)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage:
  syncio-load [flags]                  run a load profile and write a results folder
  syncio-load report [-out DIR] DIR... merge result folders (several machines that attacked
                                       the same API) and redraw summary.md, summary.json and charts
  syncio-load sweep [-storage-latencies LIST] [-out DIR] [-- run flags]
                                       the upload pair once per storage latency; a table and a
                                       chart of async ÷ sync throughput vs latency

Closed-loop users send their next request when the last one returns, with no think time.
After a 503 a user waits the Retry-After (default 1 s, capped by -max-retry-after) before
its next request, and 1 s after any other failure (4xx, 5xx, a transport error), so a
broken route cannot turn users into a busy loop; those waits sit between two requests and
are never counted as latency.
Figures are taken over each step's measured window, after it has settled; latencies are
those of OK responses. Read the results with 'vegeta report DIR/NAME.bin' too.

Exit codes: 0 done (and every -assert held), 1 the run failed (unreachable target, I/O),
2 bad usage, 3 an -assert was false, 4 a scenario got no OK response in its measured windows.
-assert reads the top (last) step of the baseline and the candidate: the first and second
-endpoint, or sync-profile and async-profile for the demo.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nScenarios (-scenarios takes names and groups; 'all' selects everything):\n")
		for _, s := range loadtest.Scenarios {
			fmt.Fprintf(stderr, "  %-32s %-5s %-40s [%s] %s\n", s.Name, s.Method, s.Path, strings.Join(s.Groups, ","), s.About)
		}
		fmt.Fprintf(stderr, "  %-32s %-5s %-40s %s\n", "coldstart", "", "", "not a load run: first-request latency of a freshly started in-process API vs warm, for "+strings.Join(loadtest.ColdStartScenarios, ", ")+" (-coldstart-* flags); on its own only")
		fmt.Fprintf(stderr, "\nExamples:\n  syncio-load -profile quick\n  syncio-load -profile quick -scenarios upload -storage-latency 200ms\n  syncio-load -profile full -scenarios profile,upload\n  syncio-load -users 1,50,100 -settle 2s -measure 3s -top-settle 5s -top-measure 5s -warmup 1s\n  syncio-load -target http://127.0.0.1:8080 -out results/machine-a\n  syncio-load -target http://127.0.0.1:8080 -endpoint 'v1=GET /v1/orders' -endpoint 'v2=GET /v2/orders' -metrics http://127.0.0.1:8080/metrics\n")
	}
	if err := fs.Parse(args); err != nil {
		return runOpts{}, err
	}
	if fs.NArg() > 0 {
		return runOpts{}, fmt.Errorf("unexpected argument %q (did you mean `syncio-load report %s`?)", fs.Arg(0), strings.Join(fs.Args(), " "))
	}
	prof, err := schedule.ByName(*profileName)
	if err != nil {
		return runOpts{}, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["users"] {
		prof.Users, err = parseUsers(*usersList)
		if err != nil {
			return runOpts{}, err
		}
	} else if set["start-users"] || set["step-users"] || set["max-users"] {
		step := *stepUsers
		if !set["step-users"] {
			step = prof.Users[1] // the profile's increment: 1000 quick, 400 full
		}
		if step <= 0 || *startUsers < 1 || *maxUsers < *startUsers {
			return runOpts{}, fmt.Errorf("need -step-users > 0 and 1 <= -start-users <= -max-users")
		}
		prof.Users = schedule.Ramp(*startUsers, step, *maxUsers)
	}
	override := func(name string, dst *time.Duration, v time.Duration) {
		if set[name] {
			*dst = v
		}
	}
	override("warmup", &prof.Warmup, *warmup)
	override("settle", &prof.Settle, *settle)
	override("measure", &prof.Measure, *measure)
	override("top-settle", &prof.TopSettleBlocking, *topSettle)
	override("top-settle-async", &prof.TopSettleAsync, *topSettleA)
	override("top-measure", &prof.TopMeasure, *topMeasure)
	if err := prof.Validate(); err != nil {
		return runOpts{}, fmt.Errorf("profile: %w", err)
	}
	// Steps or timings of one's own are not the named profile any more:
	// a summary titled "profile quick" would say they were.
	for _, name := range []string{"users", "start-users", "step-users", "max-users", "warmup", "settle", "measure", "top-settle", "top-settle-async", "top-measure"} {
		if set[name] {
			prof.Name = "custom (from " + prof.Name + ")"
			break
		}
	}
	if n := len(prof.Users); n > maxSteps {
		return runOpts{}, fmt.Errorf("the plan has %d steps (users %d to %d); more than %d is not a load test anyone waits for: raise -step-users or list the steps with -users", n, prof.Users[0], prof.Users[n-1], maxSteps)
	}
	coldstart := slices.Contains(strings.Split(*scenarios, ","), "coldstart")
	var sel []loadtest.Scenario
	switch {
	case coldstart && strings.TrimSpace(*scenarios) != "coldstart":
		return runOpts{}, errors.New("-scenarios coldstart runs on its own; measure the other scenarios in a separate run")
	case coldstart && *target != "":
		return runOpts{}, errors.New("-scenarios coldstart starts its own API per trial; it cannot use -target")
	case coldstart && (len(endpoints) > 0 || *targetsFile != "" || *dash != ""):
		return runOpts{}, errors.New("-scenarios coldstart measures the demo's start-up; it takes no -endpoint, -targets or -dashboard")
	case coldstart && (*coldTrials < 1 || *coldReqs < 1 || *coldLatency <= 0):
		return runOpts{}, errors.New("-coldstart-trials and -coldstart-requests must be at least 1, -coldstart-latency positive")
	case coldstart:
		for _, name := range loadtest.ColdStartScenarios {
			s, err := loadtest.Select(name)
			if err != nil {
				return runOpts{}, err
			}
			sel = append(sel, s...)
		}
	case len(endpoints) > 0 || *targetsFile != "":
		if set["scenarios"] {
			return runOpts{}, errors.New("-scenarios picks the demo's endpoints; with -endpoint or -targets leave it out")
		}
		if sel, err = givenScenarios(endpoints, *targetsFile, headers, *body, *target); err != nil {
			return runOpts{}, err
		}
	default:
		if len(headers) > 0 || *body != "" {
			return runOpts{}, errors.New("-header and -body apply to -endpoint or -targets")
		}
		if sel, err = loadtest.Select(*scenarios); err != nil {
			return runOpts{}, err
		}
	}
	given := len(sel) > 0 && sel[0].Given
	var errs []error
	if *uploadSize < 0 {
		errs = append(errs, errors.New("-upload-size must not be negative"))
	}
	if *timeout <= 0 || *maxRetry <= 0 || *drain < 0 || *scrapeEvery < 0 || *backend <= 0 {
		errs = append(errs, errors.New("-timeout, -max-retry-after and -backend-latency must be positive; -drain and -scrape not negative"))
	}
	if !(*bwBudget > 0 && *bwBudget <= 1) {
		errs = append(errs, fmt.Errorf("-blockwatch-budget %g: want a share of one core, more than 0 and at most 1 (default %g)", *bwBudget, blockwatch.DefaultBudget))
	}
	if *workers <= 0 || *queue < 0 {
		errs = append(errs, errors.New("-workers must be positive and -queue not negative"))
	}
	if *apiMode != "child" && *apiMode != "in-process" {
		errs = append(errs, fmt.Errorf("-api %q: want child or in-process", *apiMode))
	}
	if *memLimit < -1 {
		errs = append(errs, fmt.Errorf("-api-memory-limit %d: want bytes, 0 for none or -1 for the default", *memLimit))
	}
	if *stLatency < 0 || *stJitter < 0 || *stBandwidth < 0 {
		errs = append(errs, errors.New("-storage-latency, -storage-jitter and -storage-bandwidth must not be negative"))
	}
	if *target != "" && !strings.HasPrefix(*target, "http://") && !strings.HasPrefix(*target, "https://") {
		errs = append(errs, fmt.Errorf("-target %q must be an http:// or https:// URL", *target))
	}
	for flagName, v := range map[string]string{"-metric-queue": *metricQueue, "-metric-busy": *metricBusy, "-metric-workers": *metricWork} {
		if _, err := scrape.ParseSelector(v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", flagName, err))
		}
	}
	if given && *metricsURL == "" && (set["metric-queue"] || set["metric-busy"] || set["metric-workers"]) {
		// Without -metrics your service is not scraped, so the names would be ignored.
		errs = append(errs, errors.New("-metric-queue, -metric-busy and -metric-workers name gauges of -metrics; with -endpoint or -targets give -metrics URL too"))
	}
	if *metricsURL != "" && !strings.HasPrefix(*metricsURL, "http://") && !strings.HasPrefix(*metricsURL, "https://") {
		errs = append(errs, fmt.Errorf("-metrics %q must be an http:// or https:// URL", *metricsURL))
	}
	errs = append(errs, checkTemporal(sel, *temporalHP, *target))
	if *linger < 0 || *linger > 0 && *dash == "" {
		errs = append(errs, fmt.Errorf("-dashboard-linger %s: needs -dashboard, and must not be negative", *linger))
	}
	rateN, err := parseRate(*rate)
	if err != nil {
		errs = append(errs, err)
	}
	var parsed []gate.Assertion
	for _, a := range asserts {
		g, err := gate.Parse(a)
		if err != nil {
			errs = append(errs, fmt.Errorf("-assert %w", err))
			continue
		}
		parsed = append(parsed, g)
		// A side the run cannot have fails only after the whole run
		// (exit 3) unless caught here, before any load (exit 2).
		for _, side := range gate.Sides {
			if why := missingSide(sel, given, side); why != "" && g.Reads(side) {
				errs = append(errs, fmt.Errorf("-assert %q reads the %s, but %s", a, side, why))
			}
		}
	}
	if d, _, err := loadtest.PlannedDuration(prof, sel); err == nil && d > maxPlan {
		errs = append(errs, fmt.Errorf("the plan lasts %s (%d steps × %d scenarios), more than %s: shorten -settle/-measure or give fewer steps", d.Round(time.Second), len(prof.Users), len(sel), maxPlan))
	}
	if err := errors.Join(errs...); err != nil {
		return runOpts{}, err
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("results", time.Now().Format("20060102-150405"))
	}
	inProcess := *target == "" && !given && (*apiMode == "in-process" || coldstart)
	process := "external"
	switch {
	case inProcess:
		process = "in-process"
	case *target == "" && !given:
		process = "child"
	}
	// On the command line 0 means none; api.Config reads 0 as its default
	// and a negative value as none.
	none := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1
		}
		return d
	}
	bandwidth := *stBandwidth
	if bandwidth == 0 {
		bandwidth = -1
	}
	var noStorageCPU string
	switch {
	case given:
		noStorageCPU = "-endpoint/-targets: the lab started none of your service's processes, so its storage, if any, is not seen here"
	case *target != "":
		noStorageCPU = "-target: the lab did not start the target's storage, so its CPU is not seen here"
	case inProcess:
		noStorageCPU = "the blob fake ran in the load generator's process (-api in-process): its CPU is in gen's"
	case !*stChild:
		noStorageCPU = "the blob fake ran inside the API child (-storage-child=false): its CPU is in the API's"
	}
	uploadLatency, storage := uploadTime(*stLatency, *stJitter, *stBandwidth, *uploadSize), &report.StorageModel{LatencyS: stLatency.Seconds(), JitterS: stJitter.Seconds(), BandwidthBytesPerS: *stBandwidth}
	if given {
		// Your own service: no storage model, and no /metrics unless named.
		uploadLatency, storage = 0, nil
	}
	return runOpts{
		cfg: loadtest.Config{
			BaseURL:              *target,
			Profile:              prof,
			Scenarios:            sel,
			OutDir:               dir,
			UploadSize:           *uploadSize,
			Timeout:              *timeout,
			MaxRetryAfter:        *maxRetry,
			ScrapeInterval:       *scrapeEvery,
			NoMetrics:            given && *metricsURL == "",
			MetricsURL:           *metricsURL,
			MetricNames:          scrape.Names{Queue: *metricQueue, Busy: *metricBusy, Workers: *metricWork},
			Drain:                *drain,
			BackendLatency:       *backend,
			InProcess:            inProcess,
			APIProcess:           process,
			UploadBackendLatency: uploadLatency,
			NoStorageCPU:         noStorageCPU,
			Storage:              storage,
			Command:              commandLine(args),
			Rate:                 rateN,
			Progress:             progressWriter(*quiet, stderr),
		},
		target:           *target,
		dashboard:        *dash,
		linger:           *linger,
		given:            given,
		apiMode:          *apiMode,
		storageChild:     *stChild,
		memLimit:         *memLimit,
		memLimitExplicit: set["api-memory-limit"],
		storageLatency:   none(*stLatency),
		storageJitter:    *stJitter,
		storageBandwidth: bandwidth,
		blockwatch:       *watch,
		blockwatchBudget: *bwBudget,
		workers:          *workers,
		queue:            *queue,
		verbose:          *verbose,
		coldstart:        coldstart,
		coldTrials:       *coldTrials,
		coldReqs:         *coldReqs,
		coldLatency:      *coldLatency,
		temporal:         *temporalHP,
		asserts:          parsed,
	}, nil
}

// commandLine is the run's command as a shell would take it back: an
// argument with spaces or quotes (an -endpoint, a -header) is quoted.
func commandLine(args []string) string {
	parts := []string{"syncio-load"}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$*?") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// checkTemporal: a Temporal scenario needs the started API on Temporal (or
// a -target that is), and on such an API POST /api/async/order is the
// Temporal route, so the in-process scenarios of that route cannot share
// the run.
func checkTemporal(sel []loadtest.Scenario, hostPort, target string) error {
	if hostPort != "" {
		if _, _, err := net.SplitHostPort(hostPort); err != nil {
			return fmt.Errorf("-temporal %q: want HOST:PORT (%v)", hostPort, err)
		}
		if target != "" {
			return errors.New("-temporal configures the started API; with -target, start that API with -temporal instead")
		}
	}
	for _, sc := range sel {
		switch {
		case sc.Temporal && hostPort == "" && target == "":
			return fmt.Errorf("scenario %s needs -temporal HOST:PORT (a running Temporal server, e.g. bin/temporal server start-dev)", sc.Name)
		case !sc.Temporal && hostPort != "" && slices.ContainsFunc(loadtest.Scenarios, func(t loadtest.Scenario) bool { return t.Temporal && t.Path == sc.Path }):
			return fmt.Errorf("scenario %s cannot run with -temporal: the API then serves %s on Temporal; measure it in a run of its own", sc.Name, sc.Path)
		}
	}
	return nil
}

// uploadTime is the storage model's mean time for one upload of size bytes:
// latency, half the jitter, and the transfer at bandwidth (0 = unlimited).
func uploadTime(latency, jitter time.Duration, bandwidth int64, size int) time.Duration {
	d := latency + jitter/2
	if bandwidth > 0 {
		d += time.Duration(float64(size) / float64(bandwidth) * float64(time.Second))
	}
	return d
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func progressWriter(quiet bool, w io.Writer) io.Writer {
	if quiet {
		return nil
	}
	return w
}

func parseUsers(s string) ([]int, error) {
	var users []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("-users: %q is not a number", f)
		}
		users = append(users, n)
	}
	return users, nil
}

func attack(ctx context.Context, o runOpts, stdout, stderr io.Writer) error {
	var summary *report.Summary // for the dashboard's last event
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	cfg := o.cfg
	cfg.Log = log
	if o.coldstart {
		return coldstart(ctx, o, stdout, stderr)
	}
	if o.dashboard != "" {
		// Listen before anything starts, so a busy address fails first.
		dash, err := dashboard.Start(o.dashboard, log)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "syncio-load: live dashboard at %s\n", dash.URL())
		cfg.Live = dash.Publish
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := dash.Close(sctx); err != nil {
				log.Warn("dashboard", "err", err)
			}
		}()
		defer func() {
			dash.Finish(liveSummary(summary))
			if o.linger > 0 {
				fmt.Fprintf(stderr, "syncio-load: the dashboard stays up for %s at %s (Ctrl-C ends it)\n", o.linger, dash.URL())
				t := time.NewTimer(o.linger)
				defer t.Stop()
				select {
				case <-ctx.Done():
				case <-t.C:
				}
			}
		}()
	}
	if o.target == "" && !o.given {
		// Check limits before starting anything, so a low ulimit fails fast.
		// The API child holds the server side of every connection (and as
		// many again to its embedded storage): count it as in-process.
		if err := limits.Check(cfg.Profile.Users[len(cfg.Profile.Users)-1], true); err != nil {
			return err
		}
		acfg := apiConfig(o, cfg.BackendLatency)
		// Sync requests may queue for a minute; the server must not cut
		// them off before the load generator's own timeout does.
		acfg.WriteTimeout = max(acfg.WriteTimeout, cfg.Timeout+time.Minute)
		if o.apiMode == "child" {
			if o.storageChild {
				st, err := startStorageChild(ctx, storageChildConfig(acfg, o.verbose), stderr)
				if err != nil {
					return err
				}
				// Deferred first, so it runs after the API child has
				// stopped: the API drains onto its storage.
				defer func() {
					if rss, err := st.peakRSS(); err == nil {
						fmt.Fprintf(stderr, "syncio-load: the storage child (the blob fake in a process of its own) peaked at %.0f MB RSS; the API figures do not include it\n", float64(rss)/1e6)
					} else {
						fmt.Fprintf(stderr, "syncio-load: the storage child's peak RSS is unknown (%v); the API figures do not include it\n", err)
					}
					if err := st.stop(15 * time.Second); err != nil {
						log.Warn("storage child shutdown", "err", err)
					}
				}()
				acfg.StorageConnectionString = st.url
				cfg.StoragePID = st.cmd.Process.Pid
			}
			child, err := startChildAPI(ctx, childConfig{API: acfg, Verbose: o.verbose, MemoryLimit: childMemoryLimit(o, acfg), MemoryLimitExplicit: o.memLimitExplicit}, stderr)
			if err != nil {
				return err
			}
			defer func() {
				// The scraped figures are once a second; the kernel's
				// high-water mark is the true peak.
				if rss, err := child.peakRSS(); err == nil {
					fmt.Fprintf(stderr, "syncio-load: the API child peaked at %.0f MB RSS (the kernel's high-water mark, VmHWM; the table's API RSS is sampled once a second)\n", float64(rss)/1e6)
				}
				if err := child.stop(15 * time.Second); err != nil {
					log.Warn("API child shutdown", "err", err)
				}
			}()
			cfg.BaseURL = child.url
			cfg.APIPID = child.cmd.Process.Pid
		} else {
			srv, err := api.Start(ctx, acfg, apiLogger(o.verbose, stderr))
			if err != nil {
				return fmt.Errorf("starting the in-process API: %w", err)
			}
			defer func() {
				sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if err := srv.Shutdown(sctx); err != nil {
					log.Warn("in-process API shutdown", "err", err)
				}
			}()
			cfg.BaseURL = srv.URL()
		}
		cfg.Server = &report.Server{Workers: o.workers, Queue: o.queue}
	}
	fmt.Fprintf(stderr, "syncio-load: profile %s, scenarios %s, target %s (API %s), results in %s\n", cfg.Profile.Name, scenarioNames(cfg), cfg.BaseURL, cfg.APIProcess, cfg.OutDir)
	if d, steps, err := loadtest.PlannedDuration(cfg.Profile, cfg.Scenarios); err == nil {
		fmt.Fprintf(stderr, "syncio-load: plan: %d scenarios × %d steps (%d to %d users), %s of load plus the drains between scenarios\n",
			len(cfg.Scenarios), steps, cfg.Profile.Users[0], cfg.Profile.Users[len(cfg.Profile.Users)-1], d.Round(time.Second))
	}
	sum, err := loadtest.Run(ctx, cfg)
	summary = sum
	if sum != nil {
		if terr := sum.WriteTable(stdout); terr != nil {
			err = errors.Join(err, terr)
		}
		fmt.Fprintf(stdout, "Results: %s (summary.md, summary.json, steps.csv, *.png/*.svg, plot.html, *.bin)\n", cfg.OutDir)
	}
	if err != nil || sum == nil {
		return err
	}
	if err := allFailed(sum); err != nil {
		return err
	}
	if err := gate.Check(sum, o.asserts); err != nil {
		return err
	}
	if len(o.asserts) > 0 {
		fmt.Fprintf(stderr, "syncio-load: %d assertions held\n", len(o.asserts))
	}
	return nil
}

// missingSide says why the run will have no side ("baseline" or
// "candidate") to assert on, or "" when it will: the first and second
// -endpoint, or the demo's sync and async profile scenarios.
func missingSide(sel []loadtest.Scenario, given bool, side string) string {
	if given {
		if side == "candidate" && len(sel) < 2 {
			return "only one -endpoint was given: the candidate is the second"
		}
		return ""
	}
	want := report.HeadlineSync
	if side == "candidate" {
		want = report.HeadlineAsync
	}
	if !slices.ContainsFunc(sel, func(sc loadtest.Scenario) bool { return sc.Name == want }) {
		return fmt.Sprintf("the %s scenario is not among -scenarios", want)
	}
	return ""
}

// allFailed reports every scenario whose measured windows saw requests
// but not one OK response (an endpoint answering 404, a service down): a
// run like that is no measurement, whatever -assert says.
func allFailed(sum *report.Summary) error {
	var errs []error
	for _, sc := range sum.Scenarios {
		var requests, ok int
		var codes []string
		for _, st := range sc.Steps {
			requests += st.Requests
			ok += st.OK
			codes = append(codes, st.Breakdown())
		}
		if requests > 0 && ok == 0 {
			errs = append(errs, fmt.Errorf("%w: scenario %s: all %d measured requests failed (per step: %s)", errAllFailed, sc.Name, requests, strings.Join(codes, "; ")))
		}
	}
	return errors.Join(errs...)
}

// parseRate reads -rate: "N/s" or "N" (per second); "" is the closed loop.
func parseRate(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "/s"), 64)
	if err != nil || n <= 0 || n > 1e6 {
		return 0, fmt.Errorf("-rate %q: want requests a second, like 200/s (more than 0, at most 1000000)", s)
	}
	return n, nil
}

// The largest plan a run accepts: a typo in -step-users (1 instead of
// 1000) gives thousands of steps and days of load.
const (
	maxSteps = 1000
	maxPlan  = 24 * time.Hour
)

// profileHelp describes the profiles with their lengths for the default
// scenarios, derived from the schedule so the help cannot drift from it.
func profileHelp() string {
	length := func(p schedule.Profile) string {
		all, errA := loadtest.Select("headline,upload")
		blocking, errB := loadtest.Select("sync-profile")
		async, errC := loadtest.Select("async-profile")
		d, _, errD := loadtest.PlannedDuration(p, all)
		b, _, errE := loadtest.PlannedDuration(p, blocking)
		a, _, errF := loadtest.PlannedDuration(p, async)
		if errors.Join(errA, errB, errC, errD, errE, errF) != nil {
			return "length unknown"
		}
		return fmt.Sprintf("about %.0f min for the default scenarios, plus the drains between them: %.0f s per blocking scenario, %.0f s per async one", d.Minutes(), b.Seconds(), a.Seconds())
	}
	return fmt.Sprintf("load profile: `quick` (%s) or full (the article's 1 → 4000 users, +400 users per 60 s step after a 30 s warm-up; %s)", length(schedule.Quick()), length(schedule.Full()))
}

func gateFields() []string {
	var n []string
	for f := range gate.Fields {
		n = append(n, f)
	}
	slices.Sort(n)
	return n
}

// liveSummary is the dashboard's last event: the headlines as text and
// the summary (nil if the run never started).
func liveSummary(sum *report.Summary) dashboard.Final {
	if sum == nil {
		return dashboard.Final{Text: "The run did not start; see the terminal."}
	}
	text := sum.HeadlineText()
	if sum.HasUploadHeadline() {
		text += " " + sum.UploadHeadlineText()
	}
	return dashboard.Final{Text: text, Summary: sum}
}

// apiConfig is the started API's configuration for o, on a free
// loopback port, with the profile service answering after latency.
func apiConfig(o runOpts, latency time.Duration) api.Config {
	acfg := api.DefaultConfig()
	acfg.Addr = "127.0.0.1:0"
	acfg.Workers, acfg.Queue = o.workers, o.queue
	if o.queue == 0 {
		acfg.Queue = -1 // the API reads 0 as "default"; negative means no queue
	}
	acfg.ProfileLatency = latency
	acfg.MaxUploadBytes = max(acfg.MaxUploadBytes, int64(o.cfg.UploadSize))
	acfg.StorageLatency, acfg.StorageJitter, acfg.StorageBandwidth = o.storageLatency, o.storageJitter, o.storageBandwidth
	if !o.blockwatch {
		acfg.BlockwatchRate = -1 // the API reads 0 as "default rate"; negative means no watcher
	}
	acfg.BlockwatchBudget = o.blockwatchBudget
	acfg.Temporal = o.temporal
	return acfg
}

// childMemoryLimit is the API child's memory limit: -api-memory-limit, or
// with -1 the API's default for its storage (api.MemoryLimitFor).
func childMemoryLimit(o runOpts, acfg api.Config) int64 {
	if o.memLimit == -1 {
		return api.MemoryLimitFor(acfg)
	}
	return o.memLimit
}

// storageChildConfig is the storage child's configuration: the embedded
// blob fake acfg would have started, as api.Start makes it.
func storageChildConfig(acfg api.Config, verbose bool) blobChildConfig {
	return blobChildConfig{
		Storage: blobserver.Config{
			// Negative means none in api.Config; blobserver reads <= 0 so.
			Latency: acfg.StorageLatency, Jitter: acfg.StorageJitter, Bandwidth: acfg.StorageBandwidth,
			MaxBytes:          cmp.Or(acfg.StorageMaxBytes, blobserver.DefaultMaxBytes),
			MaxBlobs:          cmp.Or(acfg.StorageMaxBlobs, blobserver.DefaultMaxBlobs),
			StagedBlockExpiry: acfg.StagedExpiry(),
		},
		Dir:     acfg.StorageDir,
		Verbose: verbose,
	}
}

// apiLogger is the in-process API's logger. The API logs every failed
// request at warn; under load that floods the terminal, so it only speaks
// at error level unless -v.
func apiLogger(verbose bool, stderr io.Writer) *slog.Logger {
	level := slog.LevelError
	if verbose {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})).With("component", "api")
}

func scenarioNames(cfg loadtest.Config) string {
	n := make([]string, len(cfg.Scenarios))
	for i, s := range cfg.Scenarios {
		n[i] = s.Name
	}
	return strings.Join(n, ",")
}

func runReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("syncio-load report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output `folder` (default results/report-<timestamp>; may be the source folder when there is only one)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: syncio-load report [-out DIR] DIR...\n\nMerges the result folders of load generators that attacked the same API at the same time:\neach folder's vegeta results are sorted into its own step windows, users and OK/s add up,\nlatency percentiles are recomputed over all OK responses. Writes summary.json, steps.csv,\ncharts, plot.html and summary.md.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "syncio-load report: give at least one results folder")
		fs.Usage()
		return 2
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("results", "report-"+time.Now().Format("20060102-150405"))
	}
	if err := loadtest.Report(fs.Args(), dir, slog.New(slog.NewTextHandler(stderr, nil))); err != nil {
		fmt.Fprintf(stderr, "syncio-load report: %v\n", err)
		return 1
	}
	sum, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		fmt.Fprintf(stderr, "syncio-load report: %v\n", err)
		return 1
	}
	if err := sum.WriteTable(stdout); err != nil {
		fmt.Fprintf(stderr, "syncio-load report: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Report: %s\n", dir)
	return 0
}

// coldstart runs the cold-start measurement and writes summary.json and
// summary.md into the results folder.
func coldstart(ctx context.Context, o runOpts, stdout, stderr io.Writer) error {
	apiLog := apiLogger(o.verbose, stderr)
	start := func(ctx context.Context) (string, func(), error) {
		srv, err := api.Start(ctx, apiConfig(o, o.coldLatency), apiLog)
		if err != nil {
			return "", nil, err
		}
		return srv.URL(), func() {
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}, nil
	}
	fmt.Fprintf(stderr, "syncio-load: cold start, %d trials × %s, %d warm requests each, profile latency %s, results in %s\n",
		o.coldTrials, scenarioNames(o.cfg), o.coldReqs, o.coldLatency, o.cfg.OutDir)
	began := time.Now()
	// The load average is read before the trials and again after them, as
	// Run does: read only at the end, "before" would describe the machine
	// under the trials' own load.
	machine := loadtest.MachineNow()
	res, err := loadtest.ColdStart(ctx, loadtest.ColdStartConfig{
		Scenarios: o.cfg.Scenarios, Trials: o.coldTrials, Requests: o.coldReqs,
		UploadSize: o.cfg.UploadSize, Start: start,
	})
	if err != nil {
		return err
	}
	sum := &report.Summary{
		Profile: "coldstart", BackendLatencyS: o.coldLatency.Seconds(), StartedAt: began,
		Target:  "a fresh in-process API per trial",
		Command: o.cfg.Command, InProcess: true, APIProcess: "in-process", ColdStart: res,
		Machine: machine,
		Server:  &report.Server{Workers: o.workers, Queue: o.queue},
	}
	sum.Machine.LoadAvgAfter = loadtest.MachineNow().LoadAvgBefore
	if err := os.MkdirAll(o.cfg.OutDir, 0o755); err != nil {
		return fmt.Errorf("results folder: %w", err)
	}
	if err := sum.WriteJSON(filepath.Join(o.cfg.OutDir, report.SummaryFile)); err != nil {
		return err
	}
	if err := report.WriteFile(filepath.Join(o.cfg.OutDir, "summary.md"), func(w io.Writer) error { return sum.WriteMarkdown(w, nil) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%-34s %12s %12s %12s %8s\n", "scenario", "first s", "first max s", "warm s", "ratio")
	for _, c := range res {
		fmt.Fprintf(stdout, "%-34s %12.4f %12.4f %12.4f %8.1f\n", c.Name, c.FirstMedianOfTrialsS, c.FirstMaxS, c.WarmMedianOfTrialsS, c.ColdWarmRatio)
	}
	fmt.Fprintf(stdout, "Results: %s (summary.md, summary.json)\n", o.cfg.OutDir)
	return nil
}
