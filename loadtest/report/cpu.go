package report

import (
	"fmt"
	"maps"
	"strings"
)

// The processes of CPUPerOK, as its Missing map names them.
const (
	ProcAPI       = "api"
	ProcStorage   = "storage"
	ProcGenerator = "generator"
	ProcTotal     = "total"
)

// NoOK is the reason a per-OK figure is unknown in a window with no OK
// response: a CPU time over nothing is no cost per response.
const NoOK = "no OK response in the window"

// CPUPerOK is what each process that served a step spent of CPU in its
// measured window: the API, the storage (the blob fake's child) and the
// load generator, in seconds and in microseconds per OK response. A
// figure that could not be known is null, and Missing says why under the
// process's name (ProcAPI, ...); never a 0 that reads as free.
type CPUPerOK struct {
	APICPUS       *float64 `json:"api_cpu_s"`
	StorageCPUS   *float64 `json:"storage_cpu_s"`
	GeneratorCPUS *float64 `json:"generator_cpu_s"`

	APIUS       *float64 `json:"api_us"`
	StorageUS   *float64 `json:"storage_us"`
	GeneratorUS *float64 `json:"generator_us"`
	// TotalUS is the three's sum, known only when all three are.
	TotalUS *float64 `json:"total_us"`
	// APIFrom says where the API's CPU was read: "proc" (/proc/PID/stat of
	// the API child) or "metrics" (process_cpu_seconds_total in its
	// /metrics, for an API the lab did not start).
	APIFrom string            `json:"api_from,omitempty"`
	Missing map[string]string `json:"missing,omitempty"`
}

// Measured records one process's CPU seconds over the window, or, with s
// nil, why they are unknown.
func (c *CPUPerOK) Measured(proc string, s *float64, why string) {
	switch proc {
	case ProcAPI:
		c.APICPUS = s
	case ProcStorage:
		c.StorageCPUS = s
	case ProcGenerator:
		c.GeneratorCPUS = s
	}
	if s == nil {
		c.miss(proc, why)
	}
}

func (c *CPUPerOK) miss(proc, why string) {
	if why == "" {
		why = "not measured"
	}
	if c.Missing == nil {
		c.Missing = map[string]string{}
	}
	if _, set := c.Missing[proc]; !set {
		c.Missing[proc] = why
	}
}

// Derive computes the per-OK figures from the CPU seconds and the window's
// ok responses.
func (c *CPUPerOK) Derive(ok int) {
	per := func(proc string, s *float64) *float64 {
		switch {
		case s == nil:
			c.miss(proc, "")
			return nil
		case ok <= 0:
			c.miss(proc, NoOK)
			return nil
		}
		return ptr(*s / float64(ok) * 1e6)
	}
	c.APIUS = per(ProcAPI, c.APICPUS)
	c.StorageUS = per(ProcStorage, c.StorageCPUS)
	c.GeneratorUS = per(ProcGenerator, c.GeneratorCPUS)
	c.TotalUS = nil
	var unknown []string
	for _, p := range []struct {
		name string
		us   *float64
	}{{"API", c.APIUS}, {ProcStorage, c.StorageUS}, {ProcGenerator, c.GeneratorUS}} {
		if p.us == nil {
			unknown = append(unknown, p.name)
		}
	}
	switch {
	case len(unknown) == 0:
		c.TotalUS = ptr(*c.APIUS + *c.StorageUS + *c.GeneratorUS)
	case ok <= 0:
		c.miss(ProcTotal, NoOK)
	default:
		c.miss(ProcTotal, strings.Join(unknown, " and ")+" unknown, so no sum")
	}
}

// why is the reason proc's figure is unknown, or "".
func (c *CPUPerOK) why(proc string) string { return c.Missing[proc] }

// mergeCPU is one step's CPU figures over several load generators that
// attacked the same API: the API and storage are one process each, seen
// by every folder, so their seconds are the largest any folder read; each
// generator is a process of its own, so theirs add up, and one folder
// that could not read its own makes the sum unknown.
func mergeCPU(dst *CPUPerOK, src CPUPerOK, first bool) {
	if first {
		*dst = CPUPerOK{APIFrom: src.APIFrom}
		dst.Measured(ProcGenerator, src.GeneratorCPUS, src.why(ProcGenerator))
	} else if dst.GeneratorCPUS != nil {
		if src.GeneratorCPUS == nil {
			dst.GeneratorCPUS = nil
			dst.miss(ProcGenerator, src.why(ProcGenerator))
		} else {
			dst.GeneratorCPUS = ptr(*dst.GeneratorCPUS + *src.GeneratorCPUS)
		}
	}
	for _, p := range []struct {
		name     string
		dst, src **float64
	}{{ProcAPI, &dst.APICPUS, &src.APICPUS}, {ProcStorage, &dst.StorageCPUS, &src.StorageCPUS}} {
		*p.dst = maxKnown(*p.dst, *p.src)
		if *p.dst != nil {
			delete(dst.Missing, p.name)
		} else {
			dst.miss(p.name, src.why(p.name))
		}
	}
	// Derive adds the per-OK reasons again over the merged OK count.
	delete(dst.Missing, ProcTotal)
	if dst.APIFrom == "" {
		dst.APIFrom = src.APIFrom
	}
}

// cpuCells formats a step's CPU per OK for the tables: "–" where unknown
// (cpuGaps says why, under the table).
func (st Step) cpuCells() (api, storage, gen, total string) {
	c := st.CPUPerOK
	return Fig(c.APIUS, 0), Fig(c.StorageUS, 0), Fig(c.GeneratorUS, 0), Fig(c.TotalUS, 0)
}

// cpuGaps says, under the tables, why CPU µs/OK cells read "–": one line
// per column and reason, with the steps it holds for.
func (s *Summary) cpuGaps() []string {
	type key struct{ col, why string }
	var order []key
	where := map[key][]string{}
	var steps int
	for _, sc := range s.Scenarios {
		for _, st := range sc.Steps {
			steps++
			for _, p := range []struct {
				col, proc string
				us        *float64
			}{{"API", ProcAPI, st.CPUPerOK.APIUS}, {"storage", ProcStorage, st.CPUPerOK.StorageUS}, {"gen", ProcGenerator, st.CPUPerOK.GeneratorUS}, {"total", ProcTotal, st.CPUPerOK.TotalUS}} {
				if p.us != nil {
					continue
				}
				k := key{p.col, st.CPUPerOK.why(p.proc)}
				if k.why == "" {
					k.why = "not measured"
				}
				if _, seen := where[k]; !seen {
					order = append(order, k)
				}
				where[k] = append(where[k], fmt.Sprintf("%s step %d", sc.Name, st.Index))
			}
		}
	}
	var out []string
	for _, k := range order {
		at := "in " + strings.Join(where[k], ", ")
		if len(where[k]) == steps {
			at = "in every step"
		}
		out = append(out, fmt.Sprintf("%s µs/OK – %s: %s", k.col, at, k.why))
	}
	return out
}

// uploadCPUText is the upload headline's CPU sentence: each process's CPU
// per OK upload at the top step, and the arithmetic of a CPU-bound
// ceiling from it.
func (s *Summary) uploadCPUText() string {
	h := s.UploadHeadline
	if h == nil || h.SyncCPU == nil && h.AsyncCPU == nil {
		return ""
	}
	reasons := map[string]bool{}
	var reasonOrder []string
	fig := func(name string, v *float64, c *CPUPerOK, proc string) string {
		if v != nil {
			return fmt.Sprintf("%s %.0f µs", name, *v)
		}
		r := fmt.Sprintf("%s: %s", name, c.why(proc))
		if !reasons[r] {
			reasons[r] = true
			reasonOrder = append(reasonOrder, r)
		}
		return name + " –"
	}
	side := func(label string, c *CPUPerOK) string {
		if c == nil {
			return ""
		}
		return fmt.Sprintf("%s %s + %s + %s = %s", label, fig("API", c.APIUS, c, ProcAPI), fig("storage", c.StorageUS, c, ProcStorage),
			fig("generator", c.GeneratorUS, c, ProcGenerator), strings.TrimPrefix(fig("total", c.TotalUS, c, ProcTotal), "total "))
	}
	var parts []string
	for _, p := range []string{side("sync", h.SyncCPU), side("async", h.AsyncCPU)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, " CPU per OK upload at %d users (each process's CPU time in the top step's window ÷ its OK responses): %s.", h.Users, strings.Join(parts, "; "))
	if len(reasonOrder) > 0 {
		fmt.Fprintf(&b, " (– %s.)", strings.Join(reasonOrder, "; "))
	}
	b.WriteString(" Arithmetic from these measured figures, not a measurement:")
	if h.AsyncCPUCeilingOKPerS == nil {
		fmt.Fprintf(&b, " the CPU-bound ceiling (host cores ÷ total CPU per OK) is – (%s).", h.CPUCeilingMissing)
	} else {
		fmt.Fprintf(&b, " %d cores ÷ %.0f µs = %.0f OK/s is where async uploads would use every core of this machine; async did %.1f OK/s (%.2f of it).",
			h.HostCores, *h.AsyncCPU.TotalUS, *h.AsyncCPUCeilingOKPerS, h.AsyncThroughputRPS, h.AsyncThroughputRPS / *h.AsyncCPUCeilingOKPerS)
		if c := h.SyncCPUCeilingOKPerS; c != nil {
			fmt.Fprintf(&b, " Sync's ceiling is %.0f OK/s (it did %.1f).", *c, h.SyncThroughputRPS)
		}
	}
	if n := h.AsyncTotalUSFor3xSync; n != nil {
		fmt.Fprintf(&b, " 3× sync (%.0f OK/s) on %d cores would need at most %.0f µs of CPU per async upload, API, storage and generator together.", 3*h.SyncThroughputRPS, h.HostCores, *n)
	}
	return b.String()
}

// computeUploadCPU fills the upload headline's CPU figures from the top
// steps of the upload pair.
func (s *Summary) computeUploadCPU() {
	h := s.UploadHeadline
	h.SyncCPU, h.AsyncCPU, h.SyncCPUCeilingOKPerS, h.AsyncCPUCeilingOKPerS, h.AsyncTotalUSFor3xSync, h.CPUCeilingMissing = nil, nil, nil, nil, nil, ""
	h.HostCores = s.Machine.CPUs
	syncTop, okS := s.top(UploadHeadlineSync)
	asyncTop, okA := s.top(UploadHeadlineAsync)
	if okS {
		h.SyncCPU = ptrTo(syncTop.CPUPerOK)
	}
	if okA {
		h.AsyncCPU = ptrTo(asyncTop.CPUPerOK)
	}
	ceiling := func(c *CPUPerOK) *float64 {
		if c == nil || c.TotalUS == nil || *c.TotalUS <= 0 || h.HostCores <= 0 || len(s.Sources) > 1 {
			return nil
		}
		return ptr(float64(h.HostCores) / *c.TotalUS * 1e6)
	}
	h.SyncCPUCeilingOKPerS, h.AsyncCPUCeilingOKPerS = ceiling(h.SyncCPU), ceiling(h.AsyncCPU)
	switch {
	case !okA:
		h.CPUCeilingMissing = "no " + UploadHeadlineAsync + " scenario"
	case len(s.Sources) > 1:
		h.CPUCeilingMissing = fmt.Sprintf("merged from %d load generators, whose machines' cores are not one host's", len(s.Sources))
	case h.HostCores <= 0:
		h.CPUCeilingMissing = "the host's cores are not known"
	case h.AsyncCPU.TotalUS == nil:
		h.CPUCeilingMissing = "async's total CPU per OK is unknown: " + h.AsyncCPU.why(ProcTotal)
	}
	if h.HostCores > 0 && len(s.Sources) <= 1 && okS && syncTop.ThroughputRPS > 0 {
		h.AsyncTotalUSFor3xSync = ptr(float64(h.HostCores) / (3 * syncTop.ThroughputRPS) * 1e6)
	}
}

func ptrTo(c CPUPerOK) *CPUPerOK {
	c.Missing = maps.Clone(c.Missing)
	return &c
}
