package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Summary is summary.json. The keys of the schema come first; the
// rest are extras.
type Summary struct {
	Profile         string     `json:"profile"`
	BackendLatencyS float64    `json:"backend_latency_s"`
	Scenarios       []Scenario `json:"scenarios"`
	Headline        Headline   `json:"headline"`
	// UploadHeadline compares sync-upload and async-upload the same way,
	// with the API's own peak RSS over both.
	// Absent when neither upload scenario ran: a headline of zeros would
	// read as measured.
	UploadHeadline *UploadHeadline `json:"upload_headline,omitempty"`
	// UploadBackendLatencyS is the storage model's time for one upload
	// (latency + size ÷ bandwidth + mean jitter): the Little's-law basis of
	// the upload headline.
	UploadBackendLatencyS float64 `json:"upload_backend_latency_s,omitempty"`
	// Storage is the embedded blob storage's model the lab started the API
	// with (or, with -target, was told the target uses).
	Storage *StorageModel `json:"storage_model,omitempty"`

	Target    string    `json:"target,omitempty"`
	StartedAt time.Time `json:"started_at"`
	Command   string    `json:"command,omitempty"`
	Machine   Machine   `json:"machine"`
	Server    *Server   `json:"server,omitempty"`
	// InProcess: the API ran inside the load generator, so the RSS and
	// goroutine figures cover both. APIProcess says how the API ran:
	// "child" (a process of its own started by the lab), "in-process" or
	// "external" (-target).
	InProcess  bool     `json:"in_process"`
	APIProcess string   `json:"api_process,omitempty"`
	Sources    []string `json:"sources,omitempty"` // folders merged by `report`
	// Pair names the endpoints the headline compares when they are the
	// user's own (-endpoint, -targets); nil for the demo's table.
	Pair *Pair `json:"pair,omitempty"`
	// NoServerMetrics: nothing was read from the target's /metrics (a
	// service of the user's own without -metrics), so the queue, busy,
	// RSS, cores and goroutine columns are unknown, not zero.
	NoServerMetrics bool `json:"no_server_metrics,omitempty"`
	// OpenLoopRate is -rate: the top step's arrivals per second in an open
	// loop (0: closed-loop users). Each step's rate is in its rate_per_s.
	OpenLoopRate float64 `json:"open_loop_rate_per_s,omitempty"`
	// Warnings are what the run could not see, in words: a -metrics URL
	// that did not answer, a selector that matched no series. Each is
	// printed once on stderr too.
	Warnings []string `json:"warnings,omitempty"`
	// ColdStart is filled by the cold-start measurement (-scenarios coldstart).
	ColdStart []ColdStart `json:"cold_start,omitempty"`
}

// Pair is the headline's pair of given endpoints. Their backend is unknown,
// so the Little's-law limit is the top step's users over the candidate's
// own mean latency at the first step, when it was barely loaded.
type Pair struct {
	Baseline           string  `json:"baseline"`
	Candidate          string  `json:"candidate"`
	LittlesLawLatencyS float64 `json:"littles_law_latency_s"`
}

// Machine records what else the load generator's machine was doing: a
// busy machine turns a pass into a fail.
type Machine struct {
	Hostname      string  `json:"hostname,omitempty"`
	CPUs          int     `json:"cpus"`
	GoVersion     string  `json:"go_version,omitempty"`
	LoadAvgBefore string  `json:"loadavg_before,omitempty"`
	LoadAvgAfter  string  `json:"loadavg_after,omitempty"`
	Load1Before   float64 `json:"load1_before"`
}

// Server is the in-process API's configuration, when known.
type Server struct {
	Workers int `json:"workers"`
	Queue   int `json:"queue"`
}

// StorageModel is the blob storage's modelled time per request: latency,
// a uniform jitter up to JitterS, and the bytes at BandwidthBytesPerS
// (0 = unlimited).
type StorageModel struct {
	LatencyS           float64 `json:"latency_s"`
	JitterS            float64 `json:"jitter_s"`
	BandwidthBytesPerS int64   `json:"bandwidth_bytes_per_s"`
}

// Scenario is one scenario's steps.
type Scenario struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Method string `json:"method,omitempty"`
	// Blocking says whether the demo's variant holds a worker across its
	// I/O; null for your own endpoints, which the lab cannot know.
	Blocking    *bool  `json:"blocking"`
	ResultsFile string `json:"results_file,omitempty"`
	Steps       []Step `json:"steps"`
	// ProcessCPUS is the CPU time the load generator's process used during
	// the scenario (the API's too when in-process), and ProcessCores that
	// time over the scenario's length: a check that the load generator
	// did not starve the machine.
	ProcessCPUS  float64 `json:"process_cpu_s,omitempty"`
	ProcessCores float64 `json:"process_cores,omitempty"`
	// The API's own figures over the whole scenario, from its /metrics
	// (process collector): CPU seconds, cores, and the highest RSS sampled.
	// Absent when its /metrics did not have them (see Summary.Warnings).
	APICPUS        *float64 `json:"api_cpu_s,omitempty"`
	APICores       *float64 `json:"api_cores,omitempty"`
	APIRSSMaxBytes *float64 `json:"api_rss_max_bytes,omitempty"`
	// GeneratorRSSMaxBytes is the load generator's own highest RSS.
	GeneratorRSSMaxBytes float64   `json:"generator_rss_max_bytes,omitempty"`
	StartedAt            time.Time `json:"started_at"`
	EndedAt              time.Time `json:"ended_at"`
}

// Step is one step's figures over its measured window.
type Step struct {
	Users         int     `json:"users"`
	DurationS     float64 `json:"duration_s"` // the measured window
	Requests      int     `json:"requests"`
	OK            int     `json:"ok"`
	Status503     int     `json:"status_503"`
	Errors        int     `json:"errors"` // neither OK, 503 nor timeout
	ThroughputRPS float64 `json:"throughput_rps"`
	// Latencies of OK responses: null when the window had none
	// (LatencyMissing says so), never a 0 that reads as fast.
	LatencyMeanS   *float64 `json:"latency_mean_s"`
	LatencyP50S    *float64 `json:"latency_p50_s"`
	LatencyP95S    *float64 `json:"latency_p95_s"`
	LatencyP99S    *float64 `json:"latency_p99_s"`
	LatencyMaxS    *float64 `json:"latency_max_s"`
	LatencyMissing string   `json:"latency_missing,omitempty"`
	// The figures read through -metric-queue, -metric-busy and
	// -metric-workers: null when no sample in the window had them (see
	// Summary.Warnings for why), never a 0 that reads as an idle pool.
	QueueLengthMax  *float64 `json:"queue_length_max"`
	WorkersBusyMean *float64 `json:"workers_busy_mean"`
	// The API's RSS, goroutines and CPU cores, from client_golang's
	// process and Go collectors: null when its /metrics does not have
	// them (Summary.Warnings names the metric), never a 0 that reads as
	// an idle process.
	ServerRSSBytes *float64 `json:"server_rss_bytes"`

	// Statuses counts the window's responses by status code ("0": no
	// response), and ErrorKinds the transport errors of those without one.
	Statuses   map[string]int `json:"statuses,omitempty"`
	ErrorKinds map[string]int `json:"error_kinds,omitempty"`

	Index        int     `json:"index"`
	Timeouts     int     `json:"timeouts"`
	Status503RPS float64 `json:"status_503_rps"`
	// Rejected is the pool's own count of rejections in the window, from
	// syncio_pool_rejected_total: null when the service has no such
	// counter (the 503s the load generator saw are in Status503RPS).
	Rejected         *float64 `json:"server_rejected"`
	ServerGoroutines *float64 `json:"server_goroutines"`
	ServerCPUCores   *float64 `json:"server_cpu_cores"` // the API process's, from its /metrics
	// GeneratorRSSBytes is the load generator's own highest RSS in the
	// window (ServerRSSBytes is the API's).
	GeneratorRSSBytes float64  `json:"generator_rss_bytes"`
	Workers           *float64 `json:"workers"`
	// RatePerS is the open loop's arrival rate in the step (-rate); 0 in
	// a closed loop, where Users users each wait for their answer.
	RatePerS float64 `json:"rate_per_s,omitempty"`
	// What the open loop achieved, absent in a closed loop (see Sent).
	Sent *Sent `json:"sent,omitempty"`
	// GeneratorCPU is the load generator's process CPU time over the
	// window ÷ wall time ÷ the machine's cores (1 = every core; with the
	// API in-process it includes the API), and HostCPUIdle the machine's
	// idle share from /proc/stat. nil when not measured.
	GeneratorCPU *float64 `json:"generator_cpu,omitempty"`
	HostCPUIdle  *float64 `json:"host_cpu_idle,omitempty"`
	// CPUPerOK is the CPU the API, the storage child and the load
	// generator each spent in the window, per OK response.
	CPUPerOK CPUPerOK `json:"cpu_per_ok"`
	// ServerMissing says why the step has no server figures at all (no
	// /metrics sample in its window), when metrics were asked for.
	ServerMissing string    `json:"server_missing,omitempty"`
	StepStart     time.Time `json:"step_start"`
	WindowStart   time.Time `json:"window_start"`
	WindowEnd     time.Time `json:"window_end"`
	// BlockedHoldingWorker is the mean number of request goroutines the
	// API's blocking watcher saw parked in I/O while holding a worker
	// (absent when the API has no watcher, or when BlockedMissing says
	// why), over WatcherSamples samples.
	BlockedHoldingWorker *float64 `json:"blocked_holding_worker_mean,omitempty"`
	WatcherSamples       *float64 `json:"watcher_samples,omitempty"`
	BlockedMissing       string   `json:"blocked_missing,omitempty"`
}

// SetLatencies sets the step's latencies from a window with ok OK
// responses; with none they are unknown, and LatencyMissing says why.
func (st *Step) SetLatencies(ok int, mean, p50, p95, p99, maxS float64) {
	st.LatencyMissing = ""
	if ok == 0 {
		st.LatencyMeanS, st.LatencyP50S, st.LatencyP95S, st.LatencyP99S, st.LatencyMaxS = nil, nil, nil, nil, nil
		st.LatencyMissing = "no OK response in the window: latencies are of OK responses"
		return
	}
	st.LatencyMeanS, st.LatencyP50S, st.LatencyP95S, st.LatencyP99S, st.LatencyMaxS = ptr(mean), ptr(p50), ptr(p95), ptr(p99), ptr(maxS)
}

// blockedCol formats BlockedHoldingWorker for the tables: "–" when absent,
// as the other server columns read when nothing was read.
func (st Step) blockedCol() string {
	if st.BlockedHoldingWorker == nil {
		return "–"
	}
	return strconv.FormatFloat(*st.BlockedHoldingWorker, 'f', 1, 64)
}

// SetBreakdown fills Statuses and ErrorKinds from a window's counts.
func (st *Step) SetBreakdown(codes map[int]int, kinds map[string]int) {
	st.Statuses, st.ErrorKinds = nil, nil
	for c, n := range codes {
		if st.Statuses == nil {
			st.Statuses = map[string]int{}
		}
		st.Statuses[strconv.Itoa(c)] = n
	}
	if len(kinds) > 0 {
		st.ErrorKinds = maps.Clone(kinds)
	}
}

// Breakdown is the compact form of Statuses and ErrorKinds for tables and
// CSV: "200:120 503:30 0(connection refused):4", codes in order.
func (st Step) Breakdown() string {
	codes := slices.Sorted(maps.Keys(st.Statuses))
	slices.SortFunc(codes, func(a, b string) int { return cmpInt(a) - cmpInt(b) })
	var parts []string
	for _, c := range codes {
		if c == "0" {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s:%d", c, st.Statuses[c]))
	}
	for _, k := range slices.Sorted(maps.Keys(st.ErrorKinds)) {
		parts = append(parts, fmt.Sprintf("0(%s):%d", k, st.ErrorKinds[k]))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, " ")
}

func cmpInt(s string) int { n, _ := strconv.Atoi(s); return n }

// Fig formats an optional figure with digits decimals, or "–" when unknown.
func Fig(v *float64, digits int) string {
	if v == nil {
		return "–"
	}
	return strconv.FormatFloat(*v, 'f', digits, 64)
}

// Headline compares sync and async profile at the top step.
type Headline struct {
	Users int `json:"users"`
	// The ratios are null when a figure they divide by is unknown or zero
	// (a side with no OK response), and RatioMissing says which: a 0.0x
	// would read as measured.
	ThroughputRatio           *float64 `json:"throughput_ratio"`
	MeanLatencyRatio          *float64 `json:"mean_latency_ratio"`
	RatioMissing              string   `json:"ratio_missing,omitempty"`
	AsyncLittlesLawEfficiency *float64 `json:"async_littles_law_efficiency"`
	AsyncErrors               int      `json:"async_errors"` // every non-OK result

	SyncThroughputRPS  float64  `json:"sync_throughput_rps"`
	AsyncThroughputRPS float64  `json:"async_throughput_rps"`
	SyncLatencyMeanS   *float64 `json:"sync_latency_mean_s"`
	AsyncLatencyMeanS  *float64 `json:"async_latency_mean_s"`
	Sync503            int      `json:"sync_status_503"`
	Note               string   `json:"note,omitempty"`
	// Saturated, when set, says a step the headline uses was limited by
	// the load generator or by other load on its host, and which (see
	// Summary.saturation): its ratios may not be the service's.
	Saturated string `json:"generator_saturated,omitempty"`
}

// The thresholds of a saturated load generator: the machine had less than
// SaturatedIdle of its CPU idle, or the generator used more than
// SaturatedGenerator of all its cores.
const (
	SaturatedIdle      = 0.10
	SaturatedGenerator = 0.90
)

// saturation says which side limited st when it was not the service:
// the load generator, or other load on the host; "" when neither was. A
// busy host is not by itself a warning: a CPU-bound service on the same
// box is the thing measured, and a warning on every shared-box run would
// be read as noise. So the generator's own CPU, the service's (when it
// runs on this host and its /metrics has it) and the host's idle time are
// weighed against one another.
func (s *Summary) saturation(st Step) string {
	pc := func(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }
	if st.GeneratorCPU != nil && *st.GeneratorCPU > SaturatedGenerator {
		if s.InProcess {
			return "the load generator's process, with the API inside it, used " + pc(*st.GeneratorCPU) + " of all cores"
		}
		return "the load generator used " + pc(*st.GeneratorCPU) + " of all cores"
	}
	if st.HostCPUIdle == nil || *st.HostCPUIdle >= SaturatedIdle {
		return ""
	}
	idle := *st.HostCPUIdle
	busy := 1 - idle
	svc, svcKnown := 0.0, false
	switch {
	case s.InProcess:
		svcKnown = true // inside the generator's figure
	case st.ServerCPUCores != nil && s.Machine.CPUs > 0 && s.targetOnHost():
		svc, svcKnown = *st.ServerCPUCores/float64(s.Machine.CPUs), true
	}
	if st.GeneratorCPU == nil || !svcKnown {
		what := "the service's CPU is not known here (no -metrics, or a service on another host)"
		if st.GeneratorCPU == nil {
			what = "the generator's CPU was not measured"
		}
		return fmt.Sprintf("the host had %s CPU idle and %s, so other load on the host may have set the figures", pc(idle), what)
	}
	gen := *st.GeneratorCPU
	others := busy - gen - svc
	switch {
	case svc >= busy/2:
		return "" // the service itself used the CPU: it is the limit measured
	case others > busy/2:
		return fmt.Sprintf("other processes on the host used about %s of all cores (the generator %s, the service %s, %s idle)", pc(others), pc(gen), pc(svc), pc(idle))
	case gen >= busy/2:
		return fmt.Sprintf("the load generator used %s of all cores on a host %s idle (the service %s)", pc(gen), pc(idle), pc(svc))
	}
	return ""
}

// targetOnHost reports whether the target runs on this machine: started
// by the lab, or at a loopback address.
func (s *Summary) targetOnHost() bool {
	if s.InProcess || s.APIProcess == "child" {
		return true
	}
	u, err := url.Parse(s.Target)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// UploadHeadline is Headline for the upload pair, plus the API's own peak
// RSS from the start of the first upload scenario to the end of the last.
type UploadHeadline struct {
	Headline
	// APIRSSMaxMB is null when the API's /metrics had no RSS.
	APIRSSMaxMB *float64 `json:"api_rss_max_mb"`
	// SyncCPU and AsyncCPU are the top steps' CPU per OK upload, by
	// process; null when the scenario did not run.
	SyncCPU  *CPUPerOK `json:"sync_cpu_per_ok"`
	AsyncCPU *CPUPerOK `json:"async_cpu_per_ok"`
	// Arithmetic from those figures, not measured: HostCores ÷ a side's
	// total CPU per OK is the OK/s at which the API, storage and
	// generator would together use every core of the host (the ceiling of
	// a CPU-bound service here), and HostCores ÷ (3 × sync's OK/s) the
	// most total CPU per async upload that leaves room for 3× sync. Null
	// when a figure they need is unknown; CPUCeilingMissing says why for
	// the async ceiling.
	HostCores             int      `json:"host_cores"`
	SyncCPUCeilingOKPerS  *float64 `json:"sync_cpu_ceiling_ok_per_s"`
	AsyncCPUCeilingOKPerS *float64 `json:"async_cpu_ceiling_ok_per_s"`
	AsyncTotalUSFor3xSync *float64 `json:"async_total_us_for_3x_sync"`
	CPUCeilingMissing     string   `json:"cpu_ceiling_missing,omitempty"`
}

// The scenario names the headlines compare.
const (
	HeadlineSync        = "sync-profile"
	HeadlineAsync       = "async-profile"
	UploadHeadlineSync  = "sync-upload"
	UploadHeadlineAsync = "async-upload"
)

// ComputeHeadline fills s.Headline from the top steps of the sync and async
// profile scenarios, and s.UploadHeadline from the upload pair's.
// With given endpoints (s.Pair) the headline compares the baseline (the
// sync side of the keys) with the candidate (the async side) instead.
func (s *Summary) ComputeHeadline() {
	if p := s.Pair; p != nil {
		p.LittlesLawLatencyS = 0
		for _, sc := range s.Scenarios {
			if sc.Name == p.Candidate && len(sc.Steps) > 0 {
				p.LittlesLawLatencyS = deref(sc.Steps[0].LatencyMeanS)
			}
		}
		s.Headline = s.pair(p.Baseline, p.Candidate, p.LittlesLawLatencyS)
		if p.Candidate == "" {
			s.Headline.Note = "one endpoint only: give a second -endpoint, the candidate, for the ratios"
		}
		s.UploadHeadline = nil
		return
	}
	s.Headline = s.pair(HeadlineSync, HeadlineAsync, s.BackendLatencyS)
	_, okS := s.top(UploadHeadlineSync)
	_, okA := s.top(UploadHeadlineAsync)
	if !okS && !okA {
		s.UploadHeadline = nil
		return
	}
	s.UploadHeadline = &UploadHeadline{Headline: s.pair(UploadHeadlineSync, UploadHeadlineAsync, s.UploadBackendLatencyS)}
	for _, sc := range s.Scenarios {
		if (sc.Name == UploadHeadlineSync || sc.Name == UploadHeadlineAsync) && sc.APIRSSMaxBytes != nil {
			s.UploadHeadline.APIRSSMaxMB = maxKnown(s.UploadHeadline.APIRSSMaxMB, ptr(*sc.APIRSSMaxBytes/1e6))
		}
	}
	s.computeUploadCPU()
}

// HasUploadHeadline reports whether both upload scenarios ran.
func (s *Summary) HasUploadHeadline() bool {
	_, okS := s.top(UploadHeadlineSync)
	_, okA := s.top(UploadHeadlineAsync)
	return okS && okA
}

// pair compares the top steps of a sync and an async scenario; latencyS is
// the backend latency the async side's Little's-law limit is based on.
func (s *Summary) pair(syncName, asyncName string, latencyS float64) Headline {
	var h Headline
	syncTop, okS := s.top(syncName)
	asyncTop, okA := s.top(asyncName)
	switch {
	case !okS && !okA:
		h.Note = fmt.Sprintf("no %s or %s scenario: no headline", syncName, asyncName)
	case !okS:
		h.Note = fmt.Sprintf("no %s scenario: ratios are not computed", syncName)
	case !okA:
		h.Note = fmt.Sprintf("no %s scenario: ratios are not computed", asyncName)
	}
	if okS {
		h.Users = syncTop.Users
		h.SyncThroughputRPS = syncTop.ThroughputRPS
		h.SyncLatencyMeanS = syncTop.LatencyMeanS
		h.Sync503 = syncTop.Status503
	}
	if okA {
		h.Users = asyncTop.Users
		h.AsyncThroughputRPS = asyncTop.ThroughputRPS
		h.AsyncLatencyMeanS = asyncTop.LatencyMeanS
		h.AsyncErrors = asyncTop.Requests - asyncTop.OK
		if latencyS > 0 && asyncTop.Users > 0 {
			h.AsyncLittlesLawEfficiency = ptr(asyncTop.ThroughputRPS / (float64(asyncTop.Users) / latencyS))
		}
	}
	var sat []string
	if okS {
		if why := s.saturation(syncTop); why != "" {
			sat = append(sat, fmt.Sprintf("step %d of %s (%s)", syncTop.Index, syncName, why))
		}
	}
	if okA {
		if why := s.saturation(asyncTop); why != "" {
			sat = append(sat, fmt.Sprintf("step %d of %s (%s)", asyncTop.Index, asyncName, why))
		}
	}
	if len(sat) > 0 {
		h.Saturated = "not the service's limit in " + strings.Join(sat, " and ") + "; ratios there may not be the service's"
	}
	if okS && okA {
		var missing []string
		if h.SyncThroughputRPS > 0 {
			h.ThroughputRatio = ptr(h.AsyncThroughputRPS / h.SyncThroughputRPS)
		} else {
			missing = append(missing, fmt.Sprintf("%s had no OK response at its top step, so no throughput ratio", syncName))
		}
		switch {
		case h.SyncLatencyMeanS == nil:
			missing = append(missing, fmt.Sprintf("%s has no latency (no OK response), so no latency ratio", syncName))
		case h.AsyncLatencyMeanS == nil:
			missing = append(missing, fmt.Sprintf("%s has no latency (no OK response), so no latency ratio", asyncName))
		case *h.AsyncLatencyMeanS > 0:
			h.MeanLatencyRatio = ptr(*h.SyncLatencyMeanS / *h.AsyncLatencyMeanS)
		}
		h.RatioMissing = strings.Join(missing, "; ")
		if syncTop.Users != asyncTop.Users {
			h.Note = fmt.Sprintf("top steps differ: sync %d users, async %d", syncTop.Users, asyncTop.Users)
		}
	}
	return h
}

func (s *Summary) top(name string) (Step, bool) {
	for _, sc := range s.Scenarios {
		if sc.Name == name && len(sc.Steps) > 0 {
			return sc.Steps[len(sc.Steps)-1], true
		}
	}
	return Step{}, false
}

// WriteJSON writes the summary to path.
func (s *Summary) WriteJSON(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding summary: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	return nil
}

// ReadJSON reads a summary.json.
func ReadJSON(path string) (*Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading summary: %w", err)
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", path, err)
	}
	return &s, nil
}

// FewWatcherSamples is the warning for steps whose blocked+worker figure
// reads "–" because the blocking watcher took too few samples in their
// window, or "" when there are none.
func (s *Summary) FewWatcherSamples() string {
	var n, total int
	fewest := math.Inf(1)
	for _, sc := range s.Scenarios {
		for _, st := range sc.Steps {
			total++
			if st.BlockedMissing == "" {
				continue
			}
			n++
			if st.WatcherSamples != nil {
				fewest = min(fewest, *st.WatcherSamples)
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("blocked+worker: %d of %d steps read – because the API's blocking watcher took too few samples in their window (fewest %.0f): "+
		"sampling slows to fit its CPU budget on a busy host; measure longer (-measure, -top-measure) or raise the watcher's budget "+
		"(-blockwatch-budget for a started API, blockwatch.WithBudget in your own service)", n, total, fewest)
}
