package aggregate

import (
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/scrape"
)

// Outcome classifies a Result.
type Outcome int

// The outcomes, in the order of the summary's columns.
const (
	OK       Outcome = iota // 2xx/3xx
	Rejected                // 503: the pool's queue was full
	Timeout                 // no response in time
	Failed                  // anything else
)

// Classify returns r's outcome.
func Classify(r *vegeta.Result) Outcome {
	switch {
	case r.Code >= 200 && r.Code < 400 && r.Error == "":
		return OK
	case r.Code == http.StatusServiceUnavailable:
		return Rejected
	case r.Code == 0 && isTimeout(r.Error), r.Code == http.StatusGatewayTimeout:
		return Timeout
	}
	return Failed
}

func isTimeout(msg string) bool {
	msg = strings.ToLower(msg)
	return strings.Contains(msg, "timeout") || strings.Contains(msg, "deadline exceeded")
}

// Step accumulates the results of one measured window.
type Step struct {
	Requests, OK, Rejected, Timeouts, Errors int
	latencies                                []float64 // OK only, seconds
	codes                                    map[int]int
	errKinds                                 map[string]int

	// The open loop's own figures (AddSent): requests it sent in the
	// window by send time, how late each left against the pacer's
	// schedule, and how many answers came with the in-flight cap reached.
	// paced is false in a closed loop, where none of them is known.
	paced bool
	Sent  int
	late  []float64 // seconds
	AtCap int
}

// AddSent counts a request the open loop sent in this window, late behind
// the pacer's schedule.
func (s *Step) AddSent(late time.Duration) {
	s.paced = true
	s.Sent++
	s.late = append(s.late, late.Seconds())
}

// Add counts r.
func (s *Step) Add(r *vegeta.Result) {
	s.Requests++
	if s.codes == nil {
		s.codes = map[int]int{}
	}
	s.codes[int(r.Code)]++
	if r.Code == 0 && r.Error != "" {
		if s.errKinds == nil {
			s.errKinds = map[string]int{}
		}
		s.errKinds[ErrorKind(r.Error)]++
	}
	switch Classify(r) {
	case OK:
		s.OK++
		s.latencies = append(s.latencies, r.Latency.Seconds())
	case Rejected:
		s.Rejected++
	case Timeout:
		s.Timeouts++
	default:
		s.Errors++
	}
}

// Merge adds o's results to s, as when several machines hit the same API.
func (s *Step) Merge(o *Step) {
	s.Requests += o.Requests
	s.OK += o.OK
	s.Rejected += o.Rejected
	s.Timeouts += o.Timeouts
	s.Errors += o.Errors
	s.latencies = append(s.latencies, o.latencies...)
	s.paced = s.paced || o.paced
	s.Sent += o.Sent
	s.late = append(s.late, o.late...)
	s.AtCap += o.AtCap
	for c, n := range o.codes {
		if s.codes == nil {
			s.codes = map[int]int{}
		}
		s.codes[c] += n
	}
	for k, n := range o.errKinds {
		if s.errKinds == nil {
			s.errKinds = map[string]int{}
		}
		s.errKinds[k] += n
	}
}

// ErrorKind names a transport error without its addresses and ports, so
// that a thousand refused connections count as one kind: the text after
// the last ": " of Go's wrapped error ("connection refused", "timeout
// awaiting response headers", "EOF").
func ErrorKind(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	msg = strings.TrimSpace(msg)
	if len(msg) > 60 {
		msg = msg[:60]
	}
	if msg == "" {
		return "unknown"
	}
	return msg
}

// Stats are a window's figures; latencies are of OK results, in seconds.
type Stats struct {
	Requests, OK, Rejected, Timeouts, Errors int
	// Codes counts responses by status code (0: no response), and
	// ErrorKinds the transport errors of those without one (ErrorKind).
	Codes                           map[int]int
	ErrorKinds                      map[string]int
	ThroughputRPS                   float64 // OK completions per second
	RejectedRPS                     float64
	LatencyMean, P50, P95, P99, Max float64
	// Open loop only (Paced): the rate requests were sent at, by send
	// time; the rate answers (any status) came at; the pacer's lateness;
	// the answers that came with the in-flight cap reached.
	Paced                     bool
	SentRPS, AnsweredRPS      float64
	LateP50, LateP99, LateMax float64
	AtCap                     int
}

// Stats computes the figures over a window of length window.
func (s *Step) Stats(window time.Duration) Stats {
	st := Stats{Requests: s.Requests, OK: s.OK, Rejected: s.Rejected, Timeouts: s.Timeouts, Errors: s.Errors,
		Codes: maps.Clone(s.codes), ErrorKinds: maps.Clone(s.errKinds)}
	if secs := window.Seconds(); secs > 0 {
		st.ThroughputRPS = float64(s.OK) / secs
		st.RejectedRPS = float64(s.Rejected) / secs
		if s.paced {
			st.SentRPS = float64(s.Sent) / secs
			st.AnsweredRPS = float64(s.Requests-s.codes[0]) / secs
		}
	}
	if s.paced {
		st.Paced, st.AtCap = true, s.AtCap
		late := slices.Clone(s.late)
		slices.Sort(late)
		st.LateP50, st.LateP99 = Percentile(late, 0.50), Percentile(late, 0.99)
		if len(late) > 0 {
			st.LateMax = late[len(late)-1]
		}
	}
	if len(s.latencies) == 0 {
		return st
	}
	lat := slices.Clone(s.latencies)
	slices.Sort(lat)
	var sum float64
	for _, l := range lat {
		sum += l
	}
	st.LatencyMean = sum / float64(len(lat))
	st.P50 = Percentile(lat, 0.50)
	st.P95 = Percentile(lat, 0.95)
	st.P99 = Percentile(lat, 0.99)
	st.Max = lat[len(lat)-1]
	return st
}

// Percentile returns the nearest-rank q-quantile (0 < q <= 1) of sorted
// values: the smallest value with at least q of the values at or below it.
func Percentile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(q*float64(len(sorted)))) - 1
	rank = min(max(rank, 0), len(sorted)-1)
	return sorted[rank]
}

// Server are the /metrics figures over a window. The figures read through
// the user's selectors are nil when no sample in the window had them (a
// typo, an absent gauge, a failed scrape): unknown, not zero.
type Server struct {
	Samples         int
	QueueLengthMax  *float64
	WorkersBusyMean *float64
	Workers         *float64
	RejectedDelta   *float64 // pool rejections counted by the server; nil when it exports no count
	// RSSBytesMax and GoroutinesMax are the highest sampled; nil when no
	// sample in the window had the metric (scrape.Sample.Absent).
	RSSBytesMax   *float64
	GoroutinesMax *float64
	// CPUCores is the API process's CPU seconds per second between the
	// first and last samples; nil with fewer than two, or when either
	// lacks the CPU counter.
	CPUCores *float64
	// Blocked is the blocking watcher's figure between the first and last
	// samples (BlockedBetween).
	Blocked Blocked
}

// MinWatcherSamples is the fewest blocking-watcher samples a window's
// blocked figure rests on, the watcher's own rule for its report windows
// (blockwatch.DefaultMinSamples). With fewer it is unknown, and says why:
// a few samples, each standing for up to seconds on a busy host, decide a
// mean as much by where they fell as by what they saw.
const MinWatcherSamples = 10

// Blocked is the blocking watcher's figure for a window: the mean number of
// request goroutines parked in I/O while holding a worker.
type Blocked struct {
	// Mean is nil when the API has no watcher, or, with Missing saying
	// so, when the window rests on too few samples.
	Mean *float64
	// Samples is how many samples the figure rests on; nil when the API
	// does not export the count.
	Samples *float64
	Missing string
}

// BlockedBetween is the watcher's figure between two scrapes. The blocked
// counter's increase is divided by the increase of the wall time its
// samples stand for (scrape.MetricWatched), not by the wall time between
// the scrapes: on a host busy enough to slow sampling to a sample every
// second or two, a 2 s window that one sample standing for 3.6 s fell in
// read 3.6 workers blocked of 2 (the same window over its watched time
// reads 2), and one that no sample fell in read 0. An API whose watcher
// predates that counter gets the wall-time mean.
func BlockedBetween(first, last scrape.Sample) Blocked {
	var out Blocked
	if !first.Blockwatch || !last.Blockwatch {
		return out
	}
	delta := last.BlockedHoldingWorkerS - first.BlockedHoldingWorkerS
	if !first.Watched || !last.Watched {
		if secs := last.Time.Sub(first.Time).Seconds(); secs > 0 {
			out.Mean = ptr(delta / secs)
		}
		return out
	}
	n := last.WatcherSamples - first.WatcherSamples
	out.Samples = ptr(n)
	watched := last.WatchedS - first.WatchedS
	if n < MinWatcherSamples || watched <= 0 {
		out.Missing = fmt.Sprintf("%.0f blocking-watcher samples in the window, %d needed: measure longer, or give the API's watcher more CPU budget",
			n, MinWatcherSamples)
		return out
	}
	out.Mean = ptr(delta / watched)
	return out
}

// ServerStats summarises the samples taken in [from, to]. The rejected
// delta is taken from the last sample before the window when there is one.
func ServerStats(samples []scrape.Sample, from, to time.Time) Server {
	var out Server
	var busy float64
	var busyN int
	var first, last *scrape.Sample
	for i := range samples {
		smp := &samples[i]
		if smp.Time.Before(from) {
			first = smp
			continue
		}
		if smp.Time.After(to) {
			break
		}
		if first == nil {
			first = smp
		}
		last = smp
		out.Samples++
		if smp.Has(scrape.RoleBusy) {
			busy += smp.WorkersBusy
			busyN++
		}
		if smp.Has(scrape.RoleQueue) {
			out.QueueLengthMax = ptr(max(deref(out.QueueLengthMax), smp.QueueLength))
		}
		if smp.Has(scrape.RoleWorkers) {
			out.Workers = ptr(smp.Workers)
		}
		if smp.HasMetric(scrape.MetricRSS) {
			out.RSSBytesMax = ptr(max(deref(out.RSSBytesMax), smp.RSSBytes))
		}
		if smp.HasMetric(scrape.MetricGoroutines) {
			out.GoroutinesMax = ptr(max(deref(out.GoroutinesMax), smp.Goroutines))
		}
	}
	if busyN > 0 {
		out.WorkersBusyMean = ptr(busy / float64(busyN))
	}
	if out.Samples > 0 {
		out.Blocked = BlockedBetween(*first, *last)
		if !first.NoRejected && !last.NoRejected {
			out.RejectedDelta = ptr(last.Rejected - first.Rejected)
		}
		if secs := last.Time.Sub(first.Time).Seconds(); secs > 0 {
			if first.HasMetric(scrape.MetricCPU) && last.HasMetric(scrape.MetricCPU) {
				out.CPUCores = ptr((last.CPUSeconds - first.CPUSeconds) / secs)
			}
		}
	}
	return out
}

func ptr(v float64) *float64 { return &v }

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
