package report

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// cpuStep is a step of ok OK responses whose API, storage and generator
// used the given CPU seconds in the window (nil: unknown, for why).
func cpuStep(index, users, ok int, api, storage, gen *float64, why string) Step {
	st := Step{Index: index, Users: users, DurationS: 10, Requests: ok, OK: ok, ThroughputRPS: float64(ok) / 10}
	st.CPUPerOK.Measured(ProcAPI, api, why)
	st.CPUPerOK.Measured(ProcStorage, storage, why)
	st.CPUPerOK.Measured(ProcGenerator, gen, why)
	st.CPUPerOK.Derive(ok)
	return st
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

// TestCPUPerOKArithmetic: CPU seconds in the window ÷ OK responses, in µs,
// per process; the total is their sum.
func TestCPUPerOKArithmetic(t *testing.T) {
	st := cpuStep(1, 100, 4000, ptr(2), ptr(0.5), ptr(0.3), "")
	c := st.CPUPerOK
	for _, f := range []struct {
		name      string
		got, want *float64
	}{{"api", c.APIUS, ptr(500)}, {"storage", c.StorageUS, ptr(125)}, {"generator", c.GeneratorUS, ptr(75)}, {"total", c.TotalUS, ptr(700)}} {
		if f.got == nil || !near(*f.got, *f.want) {
			t.Errorf("%s µs/OK = %s, want %g", f.name, Fig(f.got, 3), *f.want)
		}
	}
	if len(c.Missing) != 0 {
		t.Errorf("every figure known, yet missing %v", c.Missing)
	}
}

// TestCPUPerOKUnknown: a window with no OK response, or a storage that is
// not a process of the lab's, gives null with the reason, never 0, and
// the total is then unknown too.
func TestCPUPerOKUnknown(t *testing.T) {
	noOK := cpuStep(1, 1, 0, ptr(0.1), ptr(0.1), ptr(0.1), "")
	c := noOK.CPUPerOK
	if c.APIUS != nil || c.StorageUS != nil || c.GeneratorUS != nil || c.TotalUS != nil {
		t.Errorf("no OK response, yet µs/OK %s %s %s %s", Fig(c.APIUS, 1), Fig(c.StorageUS, 1), Fig(c.GeneratorUS, 1), Fig(c.TotalUS, 1))
	}
	for _, p := range []string{ProcAPI, ProcStorage, ProcGenerator, ProcTotal} {
		if c.Missing[p] != NoOK {
			t.Errorf("no OK response: %s's reason %q, want %q", p, c.Missing[p], NoOK)
		}
	}
	if c.APICPUS == nil || *c.APICPUS != 0.1 {
		t.Errorf("the CPU seconds themselves were measured, yet api_cpu_s is %s", Fig(c.APICPUS, 3))
	}

	const inAPI = "the blob fake ran inside the API child (-storage-child=false): its CPU is in the API's"
	var st Step
	st.OK = 100
	st.CPUPerOK.Measured(ProcAPI, ptr(0.05), "")
	st.CPUPerOK.Measured(ProcStorage, nil, inAPI)
	st.CPUPerOK.Measured(ProcGenerator, ptr(0.01), "")
	st.CPUPerOK.Derive(st.OK)
	c = st.CPUPerOK
	if c.StorageUS != nil || c.StorageCPUS != nil || c.Missing[ProcStorage] != inAPI {
		t.Errorf("storage inside the API child: %s µs, reason %q", Fig(c.StorageUS, 1), c.Missing[ProcStorage])
	}
	if c.TotalUS != nil || c.Missing[ProcTotal] != "storage unknown, so no sum" {
		t.Errorf("total with the storage unknown: %s, reason %q", Fig(c.TotalUS, 1), c.Missing[ProcTotal])
	}
	if c.APIUS == nil || !near(*c.APIUS, 500) || c.GeneratorUS == nil || !near(*c.GeneratorUS, 100) {
		t.Errorf("the known figures: API %s, generator %s µs/OK", Fig(c.APIUS, 1), Fig(c.GeneratorUS, 1))
	}

	// A step with nothing recorded (a summary.json from before the figure)
	// says so.
	var old CPUPerOK
	old.Derive(10)
	if old.Missing[ProcAPI] != "not measured" || old.TotalUS != nil {
		t.Errorf("nothing recorded: %v", old.Missing)
	}
}

// TestCPUPerOKInOutputs: the table, summary.md and steps.csv carry the
// figures, "–" (or an empty CSV cell) where unknown with the reason under
// the tables, and summary.json has null and the reason.
func TestCPUPerOKInOutputs(t *testing.T) {
	const apart = "-target: the lab did not start the target's storage, so its CPU is not seen here"
	withStorage := func(st Step, storage *float64, why string) Step {
		st.CPUPerOK = CPUPerOK{}
		st.CPUPerOK.Measured(ProcAPI, ptr(0.2), "")
		st.CPUPerOK.Measured(ProcStorage, storage, why)
		st.CPUPerOK.Measured(ProcGenerator, ptr(0.1), "")
		st.CPUPerOK.Derive(st.OK)
		return st
	}
	s := &Summary{Machine: Machine{CPUs: 2}, Scenarios: []Scenario{{Name: "async-upload", Path: "/api/async/upload", Steps: []Step{
		withStorage(step(1, 0, 0, 3, 0), nil, apart),
		withStorage(step(100, 100, 0.05, 1000, 1000), nil, apart),
	}}}}
	s.Scenarios[0].Steps[0].Index, s.Scenarios[0].Steps[1].Index = 1, 2
	s.ComputeHeadline()

	var table strings.Builder
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(table.String(), "\n")
	head := strings.Fields(strings.ReplaceAll(lines[0], " µs/OK", "µs/OK"))
	col := slices.Index(head, "APIµs/OK")
	if col < 0 || head[col+1] != "storageµs/OK" || head[col+2] != "genµs/OK" || head[col+3] != "totalµs/OK" {
		t.Fatalf("table header %q lacks the µs/OK columns", lines[0])
	}
	// The header has two more fields than its names ("API RSS MB" and
	// such count once per word), so count from the end: codes is last.
	cells := func(line string) []string { f := strings.Fields(line); return f[len(f)-5 : len(f)-1] }
	if got := strings.Join(cells(lines[1]), " "); got != "– – – –" {
		t.Errorf("step without OK responses: µs/OK cells %q, want – – – –", got)
	}
	if got := strings.Join(cells(lines[2]), " "); got != "200 – 100 –" {
		t.Errorf("step with storage unseen: µs/OK cells %q, want 200 – 100 –", got)
	}
	for _, want := range []string{
		"API µs/OK – in async-upload step 1: " + NoOK,
		"storage µs/OK – in every step: " + apart,
		"total µs/OK – in async-upload step 2: storage unknown, so no sum",
	} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}

	var md strings.Builder
	if err := s.WriteMarkdown(&md, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| API µs/OK | storage µs/OK | gen µs/OK | total µs/OK | codes |") ||
		!strings.Contains(md.String(), "| 200 | – | 100 | – | – |") || // codes: none recorded in this test's steps
		!strings.Contains(md.String(), "- storage µs/OK – in every step: "+apart) {
		t.Errorf("summary.md:\n%s", md.String())
	}

	var buf strings.Builder
	if err := s.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"api_cpu_us_per_ok": "200", "storage_cpu_us_per_ok": "", "generator_cpu_us_per_ok": "100", "total_cpu_us_per_ok": ""} {
		if i := slices.Index(rows[0], name); i < 0 || rows[2][i] != want {
			t.Errorf("steps.csv %s: column %d, want %q in %v", name, i, want, rows[2])
		}
	}

	path := filepath.Join(t.TempDir(), SummaryFile)
	if err := s.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Scenarios []struct {
			Steps []struct {
				CPU map[string]json.RawMessage `json:"cpu_per_ok"`
			} `json:"steps"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	cpu := back.Scenarios[0].Steps[1].CPU
	for k, want := range map[string]string{"storage_us": "null", "total_us": "null", "storage_cpu_s": "null", "api_us": "200", "generator_us": "100"} {
		if got := string(cpu[k]); got != want {
			t.Errorf("summary.json cpu_per_ok.%s = %s, want %s", k, got, want)
		}
	}
	if !strings.Contains(string(cpu["missing"]), apart) {
		t.Errorf("summary.json cpu_per_ok.missing %s lacks the reason", cpu["missing"])
	}
}

// TestUploadHeadlineCPU: the upload headline carries each side's CPU per
// OK upload at the top step and the ceiling arithmetic: host cores ÷
// total CPU per OK, and the total that 3× sync would allow.
func TestUploadHeadlineCPU(t *testing.T) {
	s := &Summary{UploadBackendLatencyS: 0.05, Machine: Machine{CPUs: 2}, Scenarios: []Scenario{
		// sync: 10 000 OK over 10 s; 1 + 0.5 + 0.5 s of CPU = 200 µs/OK.
		{Name: UploadHeadlineSync, Steps: []Step{cpuStep(1, 4000, 10000, ptr(1), ptr(0.5), ptr(0.5), "")}},
		// async: 20 000 OK over 10 s; 4 + 2 + 2 s = 400 µs/OK.
		{Name: UploadHeadlineAsync, Steps: []Step{cpuStep(1, 4000, 20000, ptr(4), ptr(2), ptr(2), "")}},
	}}
	s.ComputeHeadline()
	h := s.UploadHeadline
	if h.AsyncCPU == nil || h.AsyncCPU.TotalUS == nil || !near(*h.AsyncCPU.TotalUS, 400) || h.SyncCPU == nil || !near(*h.SyncCPU.TotalUS, 200) {
		t.Fatalf("headline CPU per OK: sync %+v, async %+v", h.SyncCPU, h.AsyncCPU)
	}
	// 2 cores ÷ 400 µs = 5000 OK/s; ÷ 200 µs = 10 000; 3× sync's 1000 OK/s
	// on 2 cores leaves 2 ÷ 3000 s = 666.7 µs per upload.
	if h.HostCores != 2 || !near(deref(h.AsyncCPUCeilingOKPerS), 5000) || !near(deref(h.SyncCPUCeilingOKPerS), 10000) || !near(deref(h.AsyncTotalUSFor3xSync), 2e6/3000) {
		t.Errorf("ceilings: cores %d, async %s, sync %s, 3x total %s", h.HostCores, Fig(h.AsyncCPUCeilingOKPerS, 1), Fig(h.SyncCPUCeilingOKPerS, 1), Fig(h.AsyncTotalUSFor3xSync, 1))
	}
	text := s.UploadHeadlineText()
	for _, want := range []string{
		"sync API 100 µs + storage 50 µs + generator 50 µs = 200 µs",
		"async API 200 µs + storage 100 µs + generator 100 µs = 400 µs",
		"Arithmetic from these measured figures, not a measurement",
		"2 cores ÷ 400 µs = 5000 OK/s", "async did 2000.0 OK/s (0.40 of it)",
		"3× sync (3000 OK/s) on 2 cores would need at most 667 µs of CPU per async upload",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("upload headline lacks %q:\n%s", want, text)
		}
	}

	// Storage not a child: the storage figure and the ceiling are "–",
	// with the reason, never a ceiling over a partial total.
	const inAPI = "the blob fake ran inside the API child (-storage-child=false): its CPU is in the API's"
	for i := range s.Scenarios {
		st := &s.Scenarios[i].Steps[0]
		st.CPUPerOK = CPUPerOK{}
		st.CPUPerOK.Measured(ProcAPI, ptr(1), "")
		st.CPUPerOK.Measured(ProcStorage, nil, inAPI)
		st.CPUPerOK.Measured(ProcGenerator, ptr(1), "")
		st.CPUPerOK.Derive(st.OK)
	}
	s.ComputeHeadline()
	h = s.UploadHeadline
	if h.AsyncCPUCeilingOKPerS != nil || h.SyncCPUCeilingOKPerS != nil || !strings.Contains(h.CPUCeilingMissing, "storage unknown") {
		t.Errorf("storage unknown, yet ceilings %s / %s (reason %q)", Fig(h.AsyncCPUCeilingOKPerS, 0), Fig(h.SyncCPUCeilingOKPerS, 0), h.CPUCeilingMissing)
	}
	text = s.UploadHeadlineText()
	for _, want := range []string{"storage – + generator", "= –", "(– storage: " + inAPI, "total: storage unknown", "is – (async's total CPU per OK is unknown"} {
		if !strings.Contains(text, want) {
			t.Errorf("upload headline lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "storage 0 µs") {
		t.Errorf("upload headline shows an unknown storage as 0:\n%s", text)
	}

	// Merged from two load generators: their cores are not one host's.
	s.Sources = []string{"a", "b"}
	for i := range s.Scenarios {
		st := &s.Scenarios[i].Steps[0]
		st.CPUPerOK = CPUPerOK{}
		st.CPUPerOK.Measured(ProcAPI, ptr(1), "")
		st.CPUPerOK.Measured(ProcStorage, ptr(1), "")
		st.CPUPerOK.Measured(ProcGenerator, ptr(1), "")
		st.CPUPerOK.Derive(st.OK)
	}
	s.ComputeHeadline()
	h = s.UploadHeadline
	if h.AsyncCPU.TotalUS == nil || h.AsyncCPUCeilingOKPerS != nil || h.AsyncTotalUSFor3xSync != nil || !strings.Contains(h.CPUCeilingMissing, "merged from 2 load generators") {
		t.Errorf("merged: total %s, ceiling %s, 3x %s, reason %q", Fig(h.AsyncCPU.TotalUS, 0), Fig(h.AsyncCPUCeilingOKPerS, 0), Fig(h.AsyncTotalUSFor3xSync, 0), h.CPUCeilingMissing)
	}
}

// TestMergeCPUPerOK: merged folders keep the one API's and the one
// storage child's CPU (the largest any folder read), add the generators'
// (each its own process), and divide by the merged OK count; one
// generator that could not read its CPU makes the sum unknown.
func TestMergeCPUPerOK(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	writeRun(t, a, t0, 100, []time.Duration{time.Second, time.Second}, 0, 10)
	writeRun(t, b, t0, 100, []time.Duration{time.Second, time.Second}, 0, 10)
	setCPU := func(dir string, api, gen *float64) {
		s, err := ReadJSON(filepath.Join(dir, SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		c := &s.Scenarios[0].Steps[0].CPUPerOK
		*c = CPUPerOK{APIFrom: "proc"}
		c.Measured(ProcAPI, api, "")
		c.Measured(ProcStorage, ptr(0.001), "")
		c.Measured(ProcGenerator, gen, "the load generator's own CPU is not read on plan9")
		c.Derive(2)
		if err := s.WriteJSON(filepath.Join(dir, SummaryFile)); err != nil {
			t.Fatal(err)
		}
	}
	setCPU(a, ptr(0.004), ptr(0.001))
	setCPU(b, ptr(0.003), ptr(0.002))
	s, err := Merge([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Scenarios[0].Steps[0].CPUPerOK
	// 4 OK in all: API 4 ms, storage 1 ms, generators 1 + 2 ms.
	if !near(deref(c.APIUS), 1000) || !near(deref(c.StorageUS), 250) || !near(deref(c.GeneratorUS), 750) || !near(deref(c.TotalUS), 2000) || c.APIFrom != "proc" {
		t.Errorf("merged µs/OK: API %s, storage %s, gen %s, total %s (from %q)", Fig(c.APIUS, 1), Fig(c.StorageUS, 1), Fig(c.GeneratorUS, 1), Fig(c.TotalUS, 1), c.APIFrom)
	}

	setCPU(b, ptr(0.003), nil)
	s, err = Merge([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	c = s.Scenarios[0].Steps[0].CPUPerOK
	if c.GeneratorUS != nil || c.TotalUS != nil || !strings.Contains(c.Missing[ProcGenerator], "plan9") || c.APIUS == nil {
		t.Errorf("one generator unread: gen %s, total %s, missing %v", Fig(c.GeneratorUS, 1), Fig(c.TotalUS, 1), c.Missing)
	}
}
