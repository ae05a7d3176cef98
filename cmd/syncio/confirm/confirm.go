package confirm

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/cmd/syncio/sarifreport"
)

// Load reads a blockwatch report (the JSON that /debug/syncio/blocking
// serves) from path.
func Load(path string) (blockwatch.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return blockwatch.Report{}, fmt.Errorf("read blocking report: %w", err)
	}
	var rep blockwatch.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return blockwatch.Report{}, fmt.Errorf("not a blocking report (the JSON of /debug/syncio/blocking): %w", err)
	}
	if rep.Sites == nil || rep.Samples == 0 {
		return blockwatch.Report{}, errors.New("not a blocking report, or one with no samples (the JSON of /debug/syncio/blocking after a load)")
	}
	return rep, nil
}

// Verdict is what the run saw of one finding.
type Verdict struct {
	Seen bool
	// Ran is, for a finding not seen blocking, the request time sampled at
	// its lines, running or parked: 0 means the load never exercised it
	// (no traffic to its routes, or too few samples), which is not a
	// clean bill.
	Ran float64
	// BlockedS is the time goroutines were blocked in stacks through the
	// finding, HoldingWorkerS the part of it holding a worker; Share is
	// BlockedS over the report's request time.
	BlockedS, HoldingWorkerS, Share float64
	// Sites are the matched sites, most blocked first.
	Sites []blockwatch.Site
	// Routes are the finding's time on each route it was seen on, as a
	// share of that route's own time, most blocked first (empty with a
	// report that has no per-route times).
	Routes []RouteShare
}

// RouteShare is a finding's blocked time on one route.
type RouteShare struct {
	Route string
	// BlockedS is the blocked time at the finding's sites on the route,
	// HoldingWorkerS the part of it holding a worker.
	BlockedS, HoldingWorkerS float64
	// Share is BlockedS over the route's request time; SlotShare is
	// HoldingWorkerS over the time the route held a worker (its slot
	// time), nil when it never held one.
	Share     float64
	SlotShare *float64
	// Samples is how many samples saw the route; Margin the half-width of
	// Share's 95% interval, at most (the sum of the matched sites' own
	// margins, the bound when their errors line up), nil when a site's is
	// unknown (under two samples).
	Samples int64
	Margin  *float64
}

// Result is the join of findings with a report.
type Result struct {
	Verdicts  []Verdict         // one per finding, in the findings' order
	Uncovered []blockwatch.Site // sampled sites no finding covers, most blocked first
	Report    blockwatch.Report
	// Blind says, in words, why the report cannot confirm anything (no
	// request time was counted at all), or is empty. With it, a finding
	// not seen is unknown, not cleared.
	Blind string
}

// blind says why rep counted no request time, or "" when it did.
func blind(rep blockwatch.Report) string {
	if rep.RequestS > 0 {
		return ""
	}
	for _, w := range rep.Warnings {
		if strings.Contains(w, "own-code filter") {
			return w
		}
	}
	if rep.OutsideOwnCodeS > 0 {
		return fmt.Sprintf("labelled requests ran (%.1f goroutine-seconds) but none ran code under the own-code filter %q: name your handlers' import path with blockwatch.WithModule", rep.OutsideOwnCodeS, rep.Module)
	}
	return "no labelled request was seen: label the service's requests (blockwatch.Label, LabelFunc or ginwatch.Middleware) and load it while the watcher runs"
}

// Join matches rep's sites to findings. dir is the directory the finding
// paths are relative to when a stack's paths differ from them (a binary
// built elsewhere or with -trimpath): a frame matches when its file ends
// with the finding's path relative to dir.
func Join(dir string, findings []sarifreport.Finding, rep blockwatch.Report) Result {
	res := Result{Verdicts: make([]Verdict, len(findings)), Report: rep, Blind: blind(rep)}
	routes := map[string]blockwatch.Route{}
	for _, r := range rep.Routes {
		routes[r.Route] = r
	}
	covered := make([]bool, len(rep.Sites))
	for i, f := range findings {
		v := &res.Verdicts[i]
		for j, s := range rep.Sites {
			if !passesThrough(dir, f, s) {
				continue
			}
			covered[j] = true
			v.Seen = true
			v.BlockedS += s.BlockedS
			if s.HoldingWorker {
				v.HoldingWorkerS += s.BlockedS
			}
			v.Sites = append(v.Sites, s)
		}
		if rep.RequestS > 0 {
			v.Share = v.BlockedS / rep.RequestS
		}
		v.Routes = routeShares(v.Sites, routes)
		if !v.Seen {
			v.Ran = ranAt(dir, f, rep.Lines)
		}
	}
	for j, s := range rep.Sites {
		if !covered[j] {
			res.Uncovered = append(res.Uncovered, s)
		}
	}
	return res
}

// routeShares sums sites by route, over each route's own time.
func routeShares(sites []blockwatch.Site, routes map[string]blockwatch.Route) []RouteShare {
	by := map[string]*RouteShare{}
	for _, s := range sites {
		for route, secs := range s.Routes {
			rs := by[route]
			if rs == nil {
				rs = &RouteShare{Route: route, Margin: new(float64)}
				by[route] = rs
			}
			rs.BlockedS += secs
			if s.HoldingWorker {
				rs.HoldingWorkerS += secs
			}
			if m, ok := s.RouteShareMargins[route]; ok && rs.Margin != nil {
				*rs.Margin = min(*rs.Margin+m, 1)
			} else {
				rs.Margin = nil // a report from before margins, or a site with one sample
			}
		}
	}
	var out []RouteShare
	for _, name := range slices.Sorted(maps.Keys(by)) {
		rs := *by[name]
		r, ok := routes[name]
		if !ok || r.RequestS <= 0 {
			continue // a report without per-route times: no denominator
		}
		rs.Share = rs.BlockedS / r.RequestS
		rs.Samples = r.Samples
		if r.HoldingWorkerS > 0 {
			slot := rs.HoldingWorkerS / r.HoldingWorkerS
			rs.SlotShare = &slot
		}
		out = append(out, rs)
	}
	slices.SortStableFunc(out, func(a, b RouteShare) int { return cmp.Compare(b.BlockedS, a.BlockedS) })
	return out
}

// lockedAt finds the lock an SIO003 message names: "(locked at file.go:12)".
var lockedAt = regexp.MustCompile(`\(locked at ([^ :()]+):(\d+)\)`)

// passesThrough says whether one of s's frames is at f's call site, or, for
// a lock wait, at the Lock call of the lock an SIO003 finding says is held
// across I/O: waiting for that lock is what the finding costs, and the
// waiters need not pass through the call that does the I/O.
func passesThrough(dir string, f sarifreport.Finding, s blockwatch.Site) bool {
	if s.Kind == blockwatch.Lock && f.RuleID == "SIO003" {
		if m := lockedAt.FindStringSubmatch(f.Message); m != nil {
			for _, fr := range s.Frames {
				if filepath.Base(fr.File) == m[1] && strconv.FormatInt(fr.Line, 10) == m[2] {
					return true
				}
			}
		}
	}
	last, rel := span(dir, f)
	for _, fr := range s.Frames {
		if int(fr.Line) < f.Pos.Line || int(fr.Line) > last {
			continue
		}
		if fr.File == f.Pos.Filename || strings.HasSuffix("/"+fr.File, rel) {
			return true
		}
	}
	return false
}

// ranAt is the request time sampled at f's lines, from a report's Lines
// (0 when the report has none or no sample was there).
func ranAt(dir string, f sarifreport.Finding, lines map[string]float64) float64 {
	last, rel := span(dir, f)
	var secs float64
	for at, s := range lines {
		i := strings.LastIndexByte(at, ':')
		if i < 0 {
			continue
		}
		file := at[:i]
		line, err := strconv.Atoi(at[i+1:])
		if err != nil || line < f.Pos.Line || line > last {
			continue
		}
		if file == f.Pos.Filename || strings.HasSuffix("/"+file, rel) {
			secs += s
		}
	}
	return secs
}

// span is the last line of f's call and its file as a "/"-led suffix a
// stack's file path ends with: relative to dir when it lies under it.
func span(dir string, f sarifreport.Finding) (last int, rel string) {
	last = max(f.End.Line, f.Pos.Line)
	if f.End.Filename != "" && f.End.Filename != f.Pos.Filename {
		last = f.Pos.Line
	}
	rel = f.Pos.Filename
	if r, err := filepath.Rel(dir, f.Pos.Filename); err == nil && !strings.HasPrefix(r, "..") {
		rel = r
	}
	return last, "/" + filepath.ToSlash(rel)
}

// Print writes the verdicts, one line per finding, and the uncovered
// sites. short shortens file paths for display.
func (r Result) Print(w io.Writer, findings []sarifreport.Finding, short func(string) string) error {
	seen := 0
	for _, v := range r.Verdicts {
		if v.Seen {
			seen++
		}
	}
	var b strings.Builder
	achieved := 0.0
	if r.Report.WatchedS > 0 {
		achieved = float64(r.Report.Samples) / r.Report.WatchedS
	}
	if r.Blind != "" {
		fmt.Fprintf(&b, "confirm: cannot confirm or clear any of the %d findings: the report counted no request time (%d samples over %.0f s): %s\n",
			len(r.Verdicts), r.Report.Samples, r.Report.WatchedS, r.Blind)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "confirm: %d of %d findings seen blocking under load (%d samples over %.0f s, %.1f Hz; %.1f s of request time, %.1f s blocked, %.1f s of it holding a worker)\n",
		seen, len(r.Verdicts), r.Report.Samples, r.Report.WatchedS, achieved, r.Report.RequestS, r.Report.BlockedS, r.Report.BlockedHoldingWorkerS)
	for _, warning := range r.Report.Warnings {
		fmt.Fprintf(&b, "confirm: warning: %s\n", warning)
	}
	for i, f := range findings {
		v := r.Verdicts[i]
		pos := f.Pos
		pos.Filename = short(pos.Filename)
		if !v.Seen {
			switch {
			case v.Ran > 0:
				fmt.Fprintf(&b, "%s: %s not seen blocking under load: requests ran through it (%.2f s sampled there) and never waited in it\n", pos, f.RuleID, v.Ran)
			case r.Report.Lines != nil:
				fmt.Fprintf(&b, "%s: %s not exercised: no sampled request ran through it (no traffic to its routes, or too few samples), so the run says nothing of it\n", pos, f.RuleID)
			default:
				fmt.Fprintf(&b, "%s: %s not seen under load (the report does not say which lines ran, so this may also mean no traffic reached it)\n", pos, f.RuleID)
			}
			continue
		}
		top := v.Sites[0]
		fmt.Fprintf(&b, "%s: %s confirmed: blocked %.1f%% of request time (%.2f s, %.2f s holding a worker), most at %s (%s)%s\n",
			pos, f.RuleID, 100*v.Share, v.BlockedS, v.HoldingWorkerS, top.Site, top.Kind, describeRoutes(v.Routes))
	}
	for _, s := range r.Uncovered {
		fmt.Fprintf(&b, "uncovered: %s\n", Describe(s, short))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// minSamples is the fewest samples of a route its share is printed from:
// blockwatch's own rule for a window's figures (DefaultMinSamples).
const minSamples = blockwatch.DefaultMinSamples

// margin formats a share's 95% margin in points, "" when unknown.
func margin(m *float64) string {
	if m == nil {
		return " (margin unknown)"
	}
	return fmt.Sprintf(" ± %.1f", 100**m)
}

// maxRoutes is how many routes a verdict line names.
const maxRoutes = 3

// describeRoutes is the per-route part of a verdict line: the share of
// overall request time hides a route that spent all its slot time blocked
// when other routes carry most of the traffic.
func describeRoutes(routes []RouteShare) string {
	var b strings.Builder
	for i, rs := range routes {
		if i == maxRoutes {
			fmt.Fprintf(&b, "; and %d more routes", len(routes)-maxRoutes)
			break
		}
		if rs.Samples < minSamples {
			// The lab's rule: a share from a handful of samples reads as
			// exact ("100.0 %") and is not.
			fmt.Fprintf(&b, "; on %s –: %d samples of the route, fewer than the %d a share needs", rs.Route, rs.Samples, minSamples)
			continue
		}
		fmt.Fprintf(&b, "; on %s blocked %.1f%%%s of this route's request time", rs.Route, 100*rs.Share, margin(rs.Margin))
		if rs.SlotShare != nil {
			fmt.Fprintf(&b, " and %.1f%% of its slot time (holding a worker)", 100**rs.SlotShare)
		}
		fmt.Fprintf(&b, " (%d samples)", rs.Samples)
	}
	return b.String()
}

// Describe is one line about an uncovered site.
func Describe(s blockwatch.Site, short func(string) string) string {
	holding := "holding nothing"
	if s.Holding != "" {
		holding = "holding " + s.Holding
	}
	routes := make([]string, 0, len(s.Routes))
	for r := range s.Routes {
		routes = append(routes, r)
	}
	slices.Sort(routes)
	at := ""
	if f, ok := siteFrame(s); ok {
		at = fmt.Sprintf(" at %s:%d", short(f.File), f.Line)
	}
	return fmt.Sprintf("%s blocked in %s (%s, %s) for %.1f%% of request time (%.2f s)%s, on %s; no finding covers it",
		s.Site, s.Blocking, s.Kind, holding, 100*s.Share, s.BlockedS, at, strings.Join(routes, ", "))
}

// siteFrame is the frame of s.Site in its stack.
func siteFrame(s blockwatch.Site) (blockwatch.Frame, bool) {
	i := slices.IndexFunc(s.Frames, func(f blockwatch.Frame) bool { return f.Func == s.Func })
	if i < 0 {
		return blockwatch.Frame{}, false
	}
	return s.Frames[i], true
}

// SARIF returns the SARIF extras of the join: the properties of each
// finding (in order) and one note per uncovered site.
func (r Result) SARIF(short func(string) string) (props []map[string]any, notes []sarifreport.Note) {
	for _, v := range r.Verdicts {
		if r.Blind != "" {
			props = append(props, map[string]any{"syncio/confirmUnknown": r.Blind})
			continue
		}
		p := map[string]any{"syncio/confirmed": v.Seen}
		if !v.Seen && r.Report.Lines != nil {
			p["syncio/exercised"] = v.Ran > 0
		}
		if v.Seen {
			p["syncio/requestShare"] = v.Share
			p["syncio/blockedSeconds"] = v.BlockedS
			p["syncio/blockedHoldingWorkerSeconds"] = v.HoldingWorkerS
			if len(v.Routes) > 0 {
				shares, margins, samples := map[string]any{}, map[string]any{}, map[string]any{}
				for _, rs := range v.Routes {
					shares[rs.Route] = rs.Share
					samples[rs.Route] = rs.Samples
					if rs.Margin != nil {
						margins[rs.Route] = *rs.Margin
					}
				}
				p["syncio/routeShares"] = shares
				p["syncio/routeSamples"] = samples
				p["syncio/routeShareMargins"] = margins
			}
		}
		props = append(props, p)
	}
	for _, s := range r.Uncovered {
		f, ok := siteFrame(s)
		if !ok {
			continue // no source position to put the note at
		}
		notes = append(notes, sarifreport.Note{
			Message: Describe(s, short),
			File:    f.File,
			Line:    int(f.Line),
			Properties: map[string]any{
				"syncio/requestShare":   s.Share,
				"syncio/blockedSeconds": s.BlockedS,
				"syncio/holdingWorker":  s.HoldingWorker,
				"syncio/kind":           string(s.Kind),
			},
		})
	}
	return props, notes
}
