package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/loadtest"
	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/schedule"
)

// TestMain lets this test binary play the API child: the lab starts
// os.Executable() with serveAPIArg, which under `go test` is this binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == serveAPIArg {
		os.Exit(serveAPI(os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == serveBlobArg {
		os.Exit(serveBlob(os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestParseRunDefaults(t *testing.T) {
	o, err := parseRun(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	q := schedule.Quick()
	if o.cfg.Profile.Name != "quick" || len(o.cfg.Profile.Users) != len(q.Users) || o.cfg.Profile.TopSettleBlocking != q.TopSettleBlocking {
		t.Errorf("profile = %+v", o.cfg.Profile)
	}
	// Steps of one's own are a custom plan, and the summary says so.
	if o, err := parseRun([]string{"-users", "1,5"}, &bytes.Buffer{}); err != nil || o.cfg.Profile.Name != "custom (from quick)" {
		t.Errorf("-users 1,5: profile %q, %v", o.cfg.Profile.Name, err)
	}
	var names []string
	for _, sc := range o.cfg.Scenarios {
		names = append(names, sc.Name)
	}
	if fmt.Sprint(names) != "[sync-profile async-profile sync-upload async-upload]" {
		t.Errorf("default scenarios = %v, want both headline pairs", names)
	}
	if o.cfg.InProcess || o.cfg.APIProcess != "child" || !strings.HasPrefix(o.cfg.OutDir, "results/") || o.cfg.BackendLatency != 2*time.Second {
		t.Errorf("cfg = %+v", o.cfg)
	}
	// The upload headline's Little's law uses the storage model: 50 ms plus 4 KiB at 60 MiB/s.
	if o.cfg.UploadBackendLatency != 50*time.Millisecond+65104*time.Nanosecond || o.storageLatency != 50*time.Millisecond {
		t.Errorf("upload backend latency %v, storage latency %v", o.cfg.UploadBackendLatency, o.storageLatency)
	}
	if acfg := apiConfig(o, time.Second); acfg.BlockwatchRate < 0 {
		t.Errorf("the started API runs without its watcher by default")
	}
	if o, err := parseRun([]string{"-blockwatch=false"}, &bytes.Buffer{}); err != nil || apiConfig(o, time.Second).BlockwatchRate >= 0 {
		t.Errorf("-blockwatch=false: the started API still watches (%v)", err)
	}
	o, err = parseRun([]string{"-storage-latency", "0", "-storage-bandwidth", "0", "-api", "in-process"}, &bytes.Buffer{})
	if err != nil || o.storageLatency >= 0 || o.storageBandwidth >= 0 || !o.cfg.InProcess || o.cfg.UploadBackendLatency != 0 {
		t.Errorf("instant storage in-process: %+v %v", o, err)
	}
}

func TestParseRunOverrides(t *testing.T) {
	o, err := parseRun([]string{"-profile", "full", "-max-users", "1200", "-top-settle", "7s", "-warmup", "0s", "-target", "http://127.0.0.1:9", "-scenarios", "upload"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	p := o.cfg.Profile
	if fmt.Sprint(p.Users) != "[1 400 800 1200]" {
		t.Errorf("users = %v, want the full profile's +400 ramp to 1200", p.Users)
	}
	if p.TopSettleBlocking != 7*time.Second || p.Warmup != 0 || p.Settle != schedule.Full().Settle {
		t.Errorf("profile = %+v", p)
	}
	if o.cfg.InProcess || o.cfg.BaseURL != "http://127.0.0.1:9" || o.cfg.Scenarios[0].Name != "sync-upload" {
		t.Errorf("cfg = %+v", o.cfg)
	}
	o, err = parseRun([]string{"-users", "1, 5,9"}, &bytes.Buffer{})
	if err != nil || fmt.Sprint(o.cfg.Profile.Users) != "[1 5 9]" {
		t.Errorf("-users: %v, %v", o.cfg.Profile.Users, err)
	}
}

// TestStorageCPUReason: where the storage is not a child process of its
// own, the run says why its CPU per OK reads –, naming the flag.
func TestStorageCPUReason(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""}, // the storage child: its CPU is read by PID
		{[]string{"-storage-child=false"}, "-storage-child=false"},
		{[]string{"-api", "in-process"}, "-api in-process"},
		{[]string{"-target", "http://127.0.0.1:9"}, "-target"},
		{[]string{"-target", "http://127.0.0.1:9", "-endpoint", "a=GET /a"}, "-endpoint"},
	} {
		o, err := parseRun(c.args, &bytes.Buffer{})
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := o.cfg.NoStorageCPU; c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%v: storage CPU reason %q, want one naming %q", c.args, got, c.want)
		}
	}
}

func TestParseRunErrors(t *testing.T) {
	cases := map[string][]string{
		"unknown profile":                    {"-profile", "medium"},
		"unknown scenario":                   {"-scenarios", "nope"},
		"decreasing users":                   {"-users", "10,5"},
		"not a number":                       {"-users", "1,x"},
		"bad target":                         {"-target", "127.0.0.1:8080"},
		"stray argument":                     {"extra"},
		"undefined flag":                     {"-frobnicate"},
		"negative upload":                    {"-upload-size", "-1"},
		"unknown api mode":                   {"-api", "thread"},
		"negative storage":                   {"-storage-latency", "-1s"},
		"zero top window":                    {"-top-measure", "0s"},
		"zero step users":                    {"-step-users", "0"},
		"bad duration":                       {"-settle", "soon"},
		"zero workers":                       {"-workers", "0"},
		"zero watcher budget":                {"-blockwatch-budget", "0"},
		"watcher budget over a core":         {"-blockwatch-budget", "1.5"},
		"zero backend wait":                  {"-backend-latency", "0s"},
		"temporal scenario without a server": {"-scenarios", "temporal-order"},
		"in-process async order on temporal": {"-temporal", "127.0.0.1:7233", "-scenarios", "async-order,temporal-order"},
		"temporal not host:port":             {"-temporal", "localhost", "-scenarios", "temporal-order"},
		"temporal with target":               {"-temporal", "127.0.0.1:7233", "-target", "http://127.0.0.1:9", "-scenarios", "temporal-order"},
	}
	for name, args := range cases {
		if _, err := parseRun(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%s: %v accepted", name, args)
		}
	}
}

func TestParseRunTemporal(t *testing.T) {
	o, err := parseRun([]string{"-temporal", "127.0.0.1:7233", "-scenarios", "sync-order,temporal-order"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if acfg := apiConfig(o, time.Second); acfg.Temporal != "127.0.0.1:7233" || acfg.BlockwatchBudget != 0.01 {
		t.Errorf("started API's Temporal = %q, watcher budget %g (want the default 0.01)", acfg.Temporal, acfg.BlockwatchBudget)
	}
}

func TestHelpDocumentsFlagsAndScenarios(t *testing.T) {
	var stderr bytes.Buffer
	_, err := parseRun([]string{"-h"}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"-profile", "-scenarios", "-target", "-out", "-upload-size", "-top-settle", "Retry-After", "async-upload-client-per-request", "report"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if code := run(context.Background(), []string{"-h"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Errorf("-h exits %d", code)
	}
}

func TestRunExitCodes(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"-profile", "medium"}, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "medium") {
		t.Errorf("bad flag: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"report"}, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "at least one results folder") {
		t.Errorf("report without folders: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"report", "-out", t.TempDir(), t.TempDir()}, &bytes.Buffer{}, &stderr); code != 1 || !strings.Contains(stderr.String(), "summary") {
		t.Errorf("report of an empty folder: exit %d, %q", code, stderr.String())
	}
}

func TestColdStartMode(t *testing.T) {
	for _, bad := range [][]string{
		{"-scenarios", "coldstart,headline"},
		{"-scenarios", "coldstart", "-target", "http://127.0.0.1:9"},
		{"-scenarios", "coldstart", "-coldstart-trials", "0"},
		{"-scenarios", "coldstart", "-endpoint", "a=GET /a"},
		{"-scenarios", "coldstart", "-dashboard", "127.0.0.1:0"},
	} {
		if _, err := parseRun(bad, &bytes.Buffer{}); err == nil {
			t.Errorf("parseRun(%q) accepted", bad)
		}
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", "coldstart", "-coldstart-trials", "1", "-coldstart-requests", "2",
		"-coldstart-latency", "1ms", "-workers", "2", "-queue", "4", "-upload-size", "128", "-out", dir}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	sum, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Profile != "coldstart" || len(sum.ColdStart) != len(loadtest.ColdStartScenarios) {
		t.Fatalf("summary = %+v", sum)
	}
	// Both load averages are recorded where the machine has one to read.
	if _, err := os.Stat("/proc/loadavg"); err == nil && (sum.Machine.LoadAvgBefore == "" || sum.Machine.LoadAvgAfter == "") {
		t.Errorf("load average before %q, after %q: want both", sum.Machine.LoadAvgBefore, sum.Machine.LoadAvgAfter)
	}
	for i, c := range sum.ColdStart {
		if c.Name != loadtest.ColdStartScenarios[i] || len(c.FirstS) != 1 || c.WarmMedianOfTrialsS <= 0 {
			t.Errorf("cold start %d = %+v", i, c)
		}
		if !strings.Contains(stdout.String(), c.Name) {
			t.Errorf("stdout lacks %s:\n%s", c.Name, stdout.String())
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "summary.md")); err != nil || !bytes.Contains(b, []byte("Cold start vs warm")) {
		t.Errorf("summary.md: %v\n%s", err, b)
	}
}

// failingWriter fails every write, like a closed pipe.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestReportSaysWhyItFails(t *testing.T) {
	src := t.TempDir()
	if err := (&report.Summary{Profile: "quick"}).WriteJSON(filepath.Join(src, report.SummaryFile)); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"report", "-out", t.TempDir(), src}, failingWriter{}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("report with a failing stdout: exit %d, stderr %q; want 1 and the reason", code, stderr.String())
	}
}

// A short upload run with the API in a child process: summary.json carries
// the upload headline with every key, and the API's own figures.
// runOK runs the command with args, which must succeed, and returns its
// output and the summary.json it wrote into dir.
func runOK(t *testing.T, args []string, dir string) (stdout, stderr *bytes.Buffer, summary []byte) {
	t.Helper()
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	if code := run(context.Background(), args, stdout, stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	raw, err := os.ReadFile(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	return stdout, stderr, raw
}

func TestUploadRunInChildProcess(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-scenarios", "upload", "-users", "1,8", "-warmup", "0s", "-settle", "1s", "-measure", "1s",
		"-top-settle", "1s", "-top-settle-async", "1s", "-top-measure", "3s", "-workers", "2", "-queue", "2",
		"-storage-latency", "20ms", "-drain", "10s", "-quiet", "-out", dir,
		// At the default 1% a race-built API samples about once in 2 s,
		// too few for a step's blocked figure.
		"-blockwatch-budget", "0.25"}
	stdout, stderr, raw := runOK(t, args, dir)
	if runtime.GOOS == "linux" && (!strings.Contains(stderr.String(), "the API child peaked at") || !strings.Contains(stderr.String(), "the storage child (the blob fake in a process of its own) peaked at")) {
		t.Errorf("no peak RSS of the API child and the storage child on stderr:\n%s", stderr.String())
	}
	var keys struct {
		Upload map[string]any `json:"upload_headline"`
	}
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"users", "throughput_ratio", "mean_latency_ratio", "async_littles_law_efficiency", "async_errors",
		"sync_throughput_rps", "async_throughput_rps", "sync_latency_mean_s", "async_latency_mean_s", "sync_status_503", "api_rss_max_mb"} {
		if _, ok := keys.Upload[k]; !ok {
			t.Errorf("upload_headline lacks %q: %v", k, keys.Upload)
		}
	}
	sum, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	h := sum.UploadHeadline
	if sum.APIProcess != "child" || sum.InProcess || h.Users != 8 || h.SyncThroughputRPS <= 0 || h.AsyncThroughputRPS <= 0 || h.APIRSSMaxMB == nil || *h.APIRSSMaxMB <= 0 {
		t.Errorf("api %q in-process %v, upload headline %+v", sum.APIProcess, sum.InProcess, h)
	}
	if m := sum.Storage; m == nil || m.LatencyS != 0.02 || m.BandwidthBytesPerS != 60<<20 {
		t.Errorf("storage model in summary.json: %+v", sum.Storage)
	}
	if e := h.AsyncLittlesLawEfficiency; sum.UploadBackendLatencyS <= 0.02 || e == nil || *e <= 0 {
		t.Errorf("upload Little's law basis %g s, efficiency %s", sum.UploadBackendLatencyS, report.Fig(h.AsyncLittlesLawEfficiency, 3))
	}
	for _, sc := range sum.Scenarios {
		if sc.APIRSSMaxBytes == nil || *sc.APIRSSMaxBytes <= 0 || sc.GeneratorRSSMaxBytes <= 0 || sc.EndedAt.Before(sc.StartedAt) {
			t.Errorf("%s: API RSS %s, generator RSS %g, %v..%v", sc.Name, report.Fig(sc.APIRSSMaxBytes, 0), sc.GeneratorRSSMaxBytes, sc.StartedAt, sc.EndedAt)
		}
	}
	for _, sc := range sum.Scenarios {
		top := sc.Steps[len(sc.Steps)-1]
		// The sync upload holds both workers through the storage call; the
		// async one gives them back. Never more than the 2 workers: the
		// mean is over the time the samples stand for, not the window's.
		b := top.BlockedHoldingWorker
		switch {
		case b == nil:
			t.Errorf("%s at %d users: no blocked figure: %s", sc.Name, top.Users, top.BlockedMissing)
		case *b > 2.0001 || (sc.Name == "sync-upload") != (*b > 1):
			t.Errorf("%s at %d users: blocked holding a worker %.3f over %s samples; want over 1 of the 2 workers for sync only",
				sc.Name, top.Users, *b, report.Fig(top.WatcherSamples, 0))
		}
	}
	// CPU per OK upload, by process, at the top steps (the first steps'
	// 1 s windows hold fewer than two of the once-a-second samples): the
	// API child and the storage child read by PID (on Linux), the
	// generator its own. Async's top step has the most uploads, so its
	// storage child cannot have slept through it.
	for _, sc := range sum.Scenarios {
		for _, st := range sc.Steps[len(sc.Steps)-1:] {
			c := st.CPUPerOK
			if runtime.GOOS != "linux" {
				if c.StorageUS != nil || !strings.Contains(c.Missing[report.ProcStorage], "unknown") {
					t.Errorf("%s step %d off Linux: storage %s µs/OK, reason %q", sc.Name, st.Index, report.Fig(c.StorageUS, 0), c.Missing[report.ProcStorage])
				}
				continue
			}
			if c.APIUS == nil || *c.APIUS <= 0 || c.APIFrom != "proc" || c.GeneratorUS == nil || *c.GeneratorUS <= 0 || c.StorageUS == nil || c.TotalUS == nil || *c.TotalUS <= 0 {
				t.Errorf("%s step %d: CPU per OK API %s (from %q), storage %s, generator %s, total %s µs; missing %v",
					sc.Name, st.Index, report.Fig(c.APIUS, 0), c.APIFrom, report.Fig(c.StorageUS, 0), report.Fig(c.GeneratorUS, 0), report.Fig(c.TotalUS, 0), c.Missing)
			}
		}
	}
	if runtime.GOOS == "linux" {
		if a := h.AsyncCPU; a == nil || a.StorageUS == nil || *a.StorageUS <= 0 {
			t.Errorf("async-upload's top step: no storage child CPU per upload: %+v", a)
		}
		if h.AsyncCPUCeilingOKPerS == nil || *h.AsyncCPUCeilingOKPerS <= 0 || h.HostCores != runtime.NumCPU() || h.AsyncTotalUSFor3xSync == nil {
			t.Errorf("upload headline ceiling %s OK/s on %d cores, 3x total %s", report.Fig(h.AsyncCPUCeilingOKPerS, 0), h.HostCores, report.Fig(h.AsyncTotalUSFor3xSync, 0))
		}
		if !strings.Contains(stdout.String(), "CPU per OK upload at 8 users") || !strings.Contains(stdout.String(), "Arithmetic from these measured figures") {
			t.Errorf("the upload headline lacks the CPU per upload:\n%s", stdout.String())
		}
	}
	for _, k := range []string{"sync_cpu_per_ok", "async_cpu_per_ok", "host_cores", "sync_cpu_ceiling_ok_per_s", "async_cpu_ceiling_ok_per_s", "async_total_us_for_3x_sync"} {
		if _, ok := keys.Upload[k]; !ok {
			t.Errorf("upload_headline lacks %q", k)
		}
	}
	var cpuKeys struct {
		Scenarios []struct {
			Steps []struct {
				CPU map[string]any `json:"cpu_per_ok"`
			} `json:"steps"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(raw, &cpuKeys); err != nil {
		t.Fatal(err)
	}
	for _, sc := range cpuKeys.Scenarios {
		for _, k := range []string{"api_us", "storage_us", "generator_us", "total_us", "api_cpu_s", "storage_cpu_s", "generator_cpu_s"} {
			if _, ok := sc.Steps[len(sc.Steps)-1].CPU[k]; !ok {
				t.Errorf("cpu_per_ok lacks %q: %v", k, sc.Steps[len(sc.Steps)-1].CPU)
			}
		}
	}
	if !strings.Contains(stdout.String(), "Upload headline at 8 users") || !strings.Contains(stdout.String(), "API RSS MB") || !strings.Contains(stdout.String(), "storage µs/OK") {
		t.Errorf("final table lacks the upload headline, the API's RSS column or the CPU per OK columns:\n%s", stdout.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "summary.md")); err != nil || !bytes.Contains(b, []byte("Upload headline at 8 users")) {
		t.Errorf("summary.md lacks the upload headline: %v", err)
	}
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"sweep", "-storage-latencies", "0,10ms", "-out", dir, "--", "-users", "1,4", "-warmup", "0s",
		"-settle", "1s", "-measure", "1s", "-top-settle-async", "1s", "-top-measure", "1s", "-workers", "2", "-queue", "2",
		"-drain", "10s", "-quiet"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sw report.Sweep
	if err := json.Unmarshal(b, &sw); err != nil {
		t.Fatal(err)
	}
	if len(sw.Points) != 2 || sw.Points[1].StorageLatencyS != 0.01 || sw.Points[1].Upload.Users != 4 || sw.Points[1].Upload.SyncThroughputRPS <= 0 {
		t.Fatalf("sweep = %+v", sw)
	}
	for _, f := range []string{"sweep.md", "sweep-ratio.png", "sweep-ratio.svg", "latency-0ms/summary.json", "latency-10ms/summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(stdout.String(), "| 10 | 4 |") {
		t.Errorf("stdout lacks the sweep table:\n%s", stdout.String())
	}
}
