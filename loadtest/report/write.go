package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
)

// csvHeader is steps.csv's header; one row per scenario and step.
var csvHeader = []string{
	"scenario", "path", "step", "users", "duration_s", "requests", "ok", "status_503", "errors", "timeouts",
	"throughput_rps", "status_503_rps", "latency_mean_s", "latency_p50_s", "latency_p95_s", "latency_p99_s", "latency_max_s",
	"queue_length_max", "workers_busy_mean", "server_rejected", "server_rss_bytes", "server_goroutines",
	"server_cpu_cores", "generator_rss_bytes", "blocked_holding_worker_mean", "statuses", "generator_cpu", "host_cpu_idle",
	"api_cpu_us_per_ok", "storage_cpu_us_per_ok", "generator_cpu_us_per_ok", "total_cpu_us_per_ok",
}

// WriteCSV writes steps.csv.
func (s *Summary) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	// An unknown figure is an empty cell, as blocked_holding_worker_mean's.
	opt := func(v *float64) string {
		if v == nil {
			return ""
		}
		return f(*v)
	}
	for _, sc := range s.Scenarios {
		for _, st := range sc.Steps {
			row := []string{
				sc.Name, sc.Path, strconv.Itoa(st.Index), strconv.Itoa(st.Users), f(st.DurationS),
				strconv.Itoa(st.Requests), strconv.Itoa(st.OK), strconv.Itoa(st.Status503), strconv.Itoa(st.Errors), strconv.Itoa(st.Timeouts),
				f(st.ThroughputRPS), f(st.Status503RPS), opt(st.LatencyMeanS), opt(st.LatencyP50S), opt(st.LatencyP95S), opt(st.LatencyP99S), opt(st.LatencyMaxS),
				opt(st.QueueLengthMax), opt(st.WorkersBusyMean), opt(st.Rejected), opt(st.ServerRSSBytes), opt(st.ServerGoroutines),
				opt(st.ServerCPUCores), f(st.GeneratorRSSBytes), opt(st.BlockedHoldingWorker), st.Breakdown(), opt(st.GeneratorCPU), opt(st.HostCPUIdle),
				opt(st.CPUPerOK.APIUS), opt(st.CPUPerOK.StorageUS), opt(st.CPUPerOK.GeneratorUS), opt(st.CPUPerOK.TotalUS),
			}
			if err := cw.Write(row); err != nil {
				return fmt.Errorf("writing csv: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	return nil
}

// WriteTable writes the human-readable per-step table.
func (s *Summary) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "scenario\tstep\t%s\twindow s\trequests\tok\t503\terrors\ttimeouts\tOK/s\tmean s\tp50 s\tp95 s\tp99 s\tmax s\tqueue max\tbusy mean\tblocked+worker\t%s\tAPI cores\tgoroutines\tgen RSS MB\tgen CPU %%\thost idle %%\tAPI µs/OK\tstorage µs/OK\tgen µs/OK\ttotal µs/OK\tcodes\t\n", s.loadLabel(), s.rssLabel())
	for _, sc := range s.Scenarios {
		for _, st := range sc.Steps {
			srv := s.serverCells(st)
			api, storage, gen, total := st.cpuCells()
			fmt.Fprintf(tw, "%s\t%d\t%s\t%.0f\t%d\t%d\t%d\t%d\t%d\t%.1f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
				sc.Name, st.Index, s.loadCell(st), st.DurationS, st.Requests, st.OK, st.Status503, st.Errors, st.Timeouts,
				st.ThroughputRPS, Fig(st.LatencyMeanS, 3), Fig(st.LatencyP50S, 3), Fig(st.LatencyP95S, 3), Fig(st.LatencyP99S, 3), Fig(st.LatencyMaxS, 3),
				srv.queueMax, srv.busyMean, st.blockedCol(), srv.rssMB, srv.cores, srv.goroutines, st.GeneratorRSSBytes/1e6, pct(st.GeneratorCPU), pct(st.HostCPUIdle),
				api, storage, gen, total, st.Breakdown())
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing table: %w", err)
	}
	for _, g := range append(s.ShortSteps(), s.cpuGaps()...) {
		if _, err := fmt.Fprintln(w, g); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(w, s.HeadlineText()); err != nil {
		return err
	}
	if s.HasUploadHeadline() {
		if _, err := fmt.Fprintln(w, s.UploadHeadlineText()); err != nil {
			return err
		}
	}
	return nil
}

// serverFigures are a step's figures read from the server's /metrics, as
// table cells.
type serverFigures struct{ queueMax, busyMean, rssMB, cores, goroutines string }

// serverCells formats st's server figures, or "–" for each when nothing was
// read from the server, and for each that /metrics did not have (a
// selector that matched nothing, a process metric without its collector):
// a 0 there would read as measured. Summary.Warnings says which and why.
func (s *Summary) serverCells(st Step) serverFigures {
	if s.NoServerMetrics || st.ServerMissing != "" {
		return serverFigures{"–", "–", "–", "–", "–"}
	}
	return serverFigures{
		queueMax:   Fig(st.QueueLengthMax, 0),
		busyMean:   Fig(st.WorkersBusyMean, 1),
		rssMB:      Fig(scaled(st.ServerRSSBytes, 1e-6), 0),
		cores:      Fig(st.ServerCPUCores, 2),
		goroutines: Fig(st.ServerGoroutines, 0),
	}
}

// scaled is v×k, or nil when v is unknown.
func scaled(v *float64, k float64) *float64 {
	if v == nil {
		return nil
	}
	return ptr(*v * k)
}

// loadLabel names the load column: users in a closed loop, the arrival
// rate in an open one (-rate).
func (s *Summary) loadLabel() string {
	if s.OpenLoopRate > 0 {
		return "rate/s"
	}
	return "users"
}

func (s *Summary) loadCell(st Step) string {
	if s.OpenLoopRate > 0 {
		return st.sentCell()
	}
	return strconv.Itoa(st.Users)
}

// rssLabel names the RSS column: the API's own unless it shared the load
// generator's process.
func (s *Summary) rssLabel() string {
	if s.InProcess {
		return "RSS MB (API+gen)"
	}
	return "API RSS MB"
}

// HeadlineText is the one-paragraph verdict on the profile pair.
func (s *Summary) HeadlineText() string {
	if p := s.Pair; p != nil {
		return headlineText("Headline", s.Headline, p.LittlesLawLatencyS, p.Candidate+"'s mean latency at the first step", "", sides{p.Baseline, p.Candidate})
	}
	return headlineText("Headline", s.Headline, s.BackendLatencyS, "backend latency", "", sides{"sync", "async"})
}

// sides names the two scenarios of a headline in its text.
type sides struct{ baseline, candidate string }

// UploadHeadlineText is the one-paragraph verdict on the upload pair.
func (s *Summary) UploadHeadlineText() string {
	if s.UploadHeadline == nil {
		return "Upload headline: no sync-upload or async-upload scenario ran"
	}
	rss := ""
	if mb := s.UploadHeadline.APIRSSMaxMB; mb != nil {
		rss = fmt.Sprintf(" The API's own RSS peaked at %.0f MB.", *mb)
		if s.InProcess {
			rss = fmt.Sprintf(" RSS peaked at %.0f MB (API and load generator in one process).", *mb)
		}
	}
	return headlineText("Upload headline", s.UploadHeadline.Headline, s.UploadBackendLatencyS, "storage time per upload", rss+s.uploadCPUText(), sides{"sync", "async"})
}

func headlineText(title string, h Headline, latencyS float64, latencyName, extra string, n sides) string {
	if h.Note != "" && h.ThroughputRatio == nil && h.RatioMissing == "" {
		return title + ": " + h.Note
	}
	ratio := func(v *float64) string {
		if v == nil {
			return "–"
		}
		return strconv.FormatFloat(*v, 'f', 1, 64) + "x"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s at %d users: %s %.1f OK/s vs %s %.1f OK/s (throughput ratio %s); mean latency %s %s s vs %s %s s (ratio %s); %s reaches %s of the Little's-law limit (%d users / %.3g s %s) with %d non-OK responses; %s got %d 503s.",
		title, h.Users, n.candidate, h.AsyncThroughputRPS, n.baseline, h.SyncThroughputRPS, ratio(h.ThroughputRatio), n.baseline, Fig(h.SyncLatencyMeanS, 2), n.candidate, Fig(h.AsyncLatencyMeanS, 3), ratio(h.MeanLatencyRatio),
		n.candidate, Fig(h.AsyncLittlesLawEfficiency, 3), h.Users, latencyS, latencyName, h.AsyncErrors, n.baseline, h.Sync503)
	if h.RatioMissing != "" {
		fmt.Fprintf(&b, " – means unknown: %s.", h.RatioMissing)
	}
	b.WriteString(extra)
	if h.Saturated != "" {
		fmt.Fprintf(&b, " WARNING: %s.", h.Saturated)
	}
	if h.Note != "" {
		fmt.Fprintf(&b, " Note: %s.", h.Note)
	}
	return b.String()
}

// WriteMarkdown writes summary.md; charts are the chart file base names
// (PNG) to embed.
func (s *Summary) WriteMarkdown(w io.Writer, charts []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# syncio load results: profile %s\n\n", s.Profile)
	if p := s.Pair; p != nil {
		fmt.Fprintf(&b, "Started %s against %s; baseline %s, candidate %s (the headline's sync and async sides).", s.StartedAt.Format("2006-01-02 15:04:05 MST"), s.Target, p.Baseline, p.Candidate)
	} else {
		fmt.Fprintf(&b, "Started %s against %s; backend latency %g s.", s.StartedAt.Format("2006-01-02 15:04:05 MST"), s.Target, s.BackendLatencyS)
	}
	if s.Server != nil {
		fmt.Fprintf(&b, " Pool: %d workers, queue %d.", s.Server.Workers, s.Server.Queue)
	}
	if m := s.Storage; m != nil {
		fmt.Fprintf(&b, " Blob storage model: %g s per request", m.LatencyS)
		if m.JitterS > 0 {
			fmt.Fprintf(&b, " + up to %g s jitter", m.JitterS)
		}
		if m.BandwidthBytesPerS > 0 {
			fmt.Fprintf(&b, " + bytes at %d B/s", m.BandwidthBytesPerS)
		}
		fmt.Fprintf(&b, " (%g s per upload).", s.UploadBackendLatencyS)
	}
	fmt.Fprintf(&b, " Load generator: %d CPUs, load average before %q, after %q.\n\n", s.Machine.CPUs, s.Machine.LoadAvgBefore, s.Machine.LoadAvgAfter)
	if s.Command != "" {
		fmt.Fprintf(&b, "Command: `%s`\n\n", s.Command)
	}
	if len(s.Sources) > 0 {
		fmt.Fprintf(&b, "Merged from: %s\n\n", strings.Join(s.Sources, ", "))
	}
	b.WriteString(s.coldStartMarkdown())
	if len(s.Scenarios) == 0 {
		_, err := io.WriteString(w, b.String())
		if err != nil {
			return fmt.Errorf("writing markdown: %w", err)
		}
		return nil
	}
	fmt.Fprintf(&b, "## Headline\n\n%s\n\n", s.HeadlineText())
	if len(s.Warnings) > 0 {
		b.WriteString("## Warnings\n\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(&b, "- %s\n", w)
		}
		b.WriteString("\n")
	}
	if s.HasUploadHeadline() {
		fmt.Fprintf(&b, "%s\n\n", s.UploadHeadlineText())
	}
	if s.OpenLoopRate > 0 {
		fmt.Fprintf(&b, "Open loop (-rate): requests arrive at %g a second at the top step, whatever the answers; each step's rate is in summary.json's rate_per_s, and the users column only shaped the ramp.\n\n", s.OpenLoopRate)
	}
	b.WriteString("## Steps\n\nFigures are over each step's measured window, after settling; latencies are of OK responses only, and time spent waiting out a 503's Retry-After is not latency.\n\n")
	switch {
	case s.InProcess:
		b.WriteString("The API ran in the load generator's process, so RSS, API cores and goroutines cover both (each user adds a goroutine and a connection on each side).\n\n")
	case s.APIProcess == "child":
		b.WriteString("The API ran as a separate child process: RSS, API cores and goroutines are the API's own, read from its /metrics; gen RSS is the load generator's.\n\n")
	}
	b.WriteString("gen CPU % is the load generator's own CPU time over the window as a share of all the machine's cores; host idle % the machine's idle CPU (/proc/stat). Under 10% idle, or a generator above 90%, the machine and not the service may have set the figures; the headline says so.\n\n")
	b.WriteString("API, storage and gen µs/OK are the CPU time each process spent in the window ÷ the window's OK responses, in microseconds: the API child's and the storage child's (the blob fake in a process of its own) from /proc/PID/stat, or an API the lab did not start from its /metrics' process_cpu_seconds_total; gen the load generator's own. total is their sum, only when all three are known. At low load fixed costs (sampling, scrapes, timers) dominate them. – means unknown; the lines under the table say why.\n\n")
	b.WriteString("codes counts the window's responses by status code; 0(...) are requests with no response, by transport error.\n\n")
	b.WriteString("blocked+worker is the mean number of request goroutines the API's blocking watcher (GET /debug/syncio/blocking) saw parked in I/O while holding a pool worker; – when the API runs without it.\n\n")
	b.WriteString("The vegeta result files (`*.bin`) also read with `vegeta report FILE`, and `syncio-load report DIR...` merges folders from several machines.\n\n")
	fmt.Fprintf(&b, "| scenario | %s | window s | requests | ok | 503 | errors | timeouts | OK/s | mean s | p50 s | p95 s | p99 s | max s | queue max | busy mean | blocked+worker | %s | API cores | goroutines | gen RSS MB | gen CPU %% | host idle %% | API µs/OK | storage µs/OK | gen µs/OK | total µs/OK | codes |\n", s.loadLabel(), s.rssLabel())
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, sc := range s.Scenarios {
		for _, st := range sc.Steps {
			srv := s.serverCells(st)
			api, storage, gen, total := st.cpuCells()
			fmt.Fprintf(&b, "| %s | %s | %.0f | %d | %d | %d | %d | %d | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s |\n",
				sc.Name, s.loadCell(st), st.DurationS, st.Requests, st.OK, st.Status503, st.Errors, st.Timeouts, st.ThroughputRPS,
				Fig(st.LatencyMeanS, 3), Fig(st.LatencyP50S, 3), Fig(st.LatencyP95S, 3), Fig(st.LatencyP99S, 3), Fig(st.LatencyMaxS, 3), srv.queueMax, srv.busyMean, st.blockedCol(), srv.rssMB,
				srv.cores, srv.goroutines, st.GeneratorRSSBytes/1e6, pct(st.GeneratorCPU), pct(st.HostCPUIdle), api, storage, gen, total, st.Breakdown())
		}
	}
	if gaps := append(s.ShortSteps(), s.cpuGaps()...); len(gaps) > 0 {
		b.WriteString("\n")
		for _, g := range gaps {
			fmt.Fprintf(&b, "- %s\n", g)
		}
	}
	var cpu []string
	for _, sc := range s.Scenarios {
		if sc.ProcessCPUS > 0 || sc.APICPUS != nil || sc.APIRSSMaxBytes != nil {
			line := fmt.Sprintf("%s: load generator %.0f s (%.2f cores, RSS max %.0f MB)", sc.Name, sc.ProcessCPUS, sc.ProcessCores, sc.GeneratorRSSMaxBytes/1e6)
			if !s.InProcess && (sc.APICPUS != nil || sc.APIRSSMaxBytes != nil) {
				line += fmt.Sprintf(", API %s s (%s cores, RSS max %s MB)", Fig(sc.APICPUS, 0), Fig(sc.APICores, 2), Fig(scaled(sc.APIRSSMaxBytes, 1e-6), 0))
			}
			cpu = append(cpu, line)
		}
	}
	if len(cpu) > 0 {
		fmt.Fprintf(&b, "\nCPU and memory per scenario, whole scenario: %s.\n", strings.Join(cpu, "; "))
		if s.InProcess {
			b.WriteString("(The load generator's figures include the in-process API.)\n")
		}
	}
	if len(charts) > 0 {
		b.WriteString("\n## Charts\n\n")
		for _, c := range charts {
			fmt.Fprintf(&b, "![%s](%s)\n\n", strings.TrimSuffix(c, ".png"), c)
		}
		b.WriteString("Each chart is also an SVG next to its PNG. `plot.html` is vegeta's latency-over-time plot.\n")
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("writing markdown: %w", err)
	}
	return nil
}

// WriteFile creates path and runs write on it.
func WriteFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", path, err)
	}
	return nil
}

// pct formats a share as a percentage, or "–" when not measured.
func pct(v *float64) string {
	if v == nil {
		return "–"
	}
	return strconv.FormatFloat(100**v, 'f', 0, 64)
}
