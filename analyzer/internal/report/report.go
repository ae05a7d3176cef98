package report

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Reporter turns a root's findings into diagnostics: messages, related
// positions, chains and suggested fixes (fixes.go). The analyzer hands it
// what it needs and never the other way round, so the rules and call
// resolution do not depend on how a finding is worded.
type Reporter struct {
	pass *analysis.Pass
	opts Options
	dirs *directive.Index // the //syncio:ignore comments, shared with the analyzer
	// site is the analyzer's "file:line:col" of a position, the form of
	// Emitted's keys and of the facts' sites.
	site func(token.Pos) string
	// Emitted are the (site, rule, operation) triples reported so far:
	// the join does not report a root's call again for a rule its static
	// path showed.
	Emitted map[string]bool
	// Assigns are the assignments of single calls' results, recorded by
	// the analyzer as it turns a body into items: httpFix rewrites the
	// whole statement.
	Assigns map[*ast.CallExpr]*ast.AssignStmt
	src     map[string][]byte // file contents read for fixes, by name
	// Hold, when set, takes the diagnostics of the findings it selects
	// instead of the pass: the analyzer holds those that depend on a
	// setting a package above decides (internal/ginsetting).
	Hold *Hold
	// queue holds each call's findings until Flush, by extent: what the
	// join adds at a call whose static path was reported joins the same
	// diagnostic per rule instead of making a second one.
	queue   map[string]*queued
	order   []string
	flushed bool // a Report after Flush is made at once, not lost
	carried carried
}

// queued is one call's findings: the first report's root and item (the
// root's own, with what its fixes need), every report's findings.
type queued struct {
	s  *paths.Summary
	it paths.Item
	fs []*paths.Finding
}

// Hold selects findings (Finding) whose diagnostics go to Diag, not to
// the pass. A selected finding that is also held under a lock or in a
// transaction keeps those rules' diagnostics: only its own rule's is
// held.
type Hold struct {
	Finding func(*paths.Finding) bool
	Diag    func(analysis.Diagnostic)
}

// Options is what the reporter is told of the configuration and of
// the rules.
type Options struct {
	// ReportIgnored: what the ignores hide is reported too, and no
	// ignore is stale (the analyzer's Config.ReportIgnored).
	ReportIgnored bool
	// Enabled reports whether a rule is on; Known whether an ID is in the
	// rule catalogue.
	Enabled, Known func(id string) bool
	// FixURL is the URL a diagnostic of a rule carries; SuppressionURL
	// the one a diagnostic about a //syncio:ignore carries.
	FixURL         func(rule string) string
	SuppressionURL func() string
	// Short is the rule catalogue's one-line description of a rule: the
	// words of a diagnostic led by an operation kept by name only
	// (paths.BlocksFact.Ref), which has no detail of its own.
	Short func(rule string) string
	// Replacement is the context-aware method the SIO001 table gives for
	// a call's key, and the arguments it takes after the context.
	Replacement func(key string) (method, extraArgs string)
	// Once are the rules that do not count for an item that runs once
	// per process or key, not per request.
	Once map[string]bool
	// Held words a path reached under a lock (SIO003) or in a
	// transaction (SIO007): the clause after what it does, "" when it
	// holds neither for the rule, and the rule's hint (the rules').
	Held func(rule string, f *paths.Finding) (clause, hint string)
}

// New is the reporter of one pass.
func New(pass *analysis.Pass, opts Options, dirs *directive.Index, site func(token.Pos) string) *Reporter {
	return &Reporter{
		pass:    pass,
		opts:    opts,
		dirs:    dirs,
		site:    site,
		Emitted: map[string]bool{},
		queue:   map[string]*queued{},
		Assigns: map[*ast.CallExpr]*ast.AssignStmt{},
		src:     map[string][]byte{},
	}
}

// Suppressed reports whether rule is hidden at the root's item: by an
// ignore (marked used, for Stale) or because the item runs once,
// not per request. Resolution asks it before a path reaches Report.
func (r *Reporter) Suppressed(s *paths.Summary, it paths.Item, rule string) bool {
	if it.Once && r.opts.Once[rule] {
		return true // once per process or key, not per request
	}
	return !r.opts.ReportIgnored && (directive.FuncSuppressed(s.Ignores, rule) || r.dirs.Suppressed(it.Pos, rule))
}

// Report emits the diagnostics for a root's item: one per rule of the
// operations it leads to, and one for a lock held across them. Each is
// about the rule's first path; the rule's other distinct blocking
// operations (terminals) are listed in the same message ("also reaches"),
// so that every one is visible at once, in one diagnostic per rule.
//
// The diagnostics are made at Flush; Report marks what they will show
// (Emitted) and the root as reporting, as if they were made now.
func (r *Reporter) Report(s *paths.Summary, it paths.Item, fs []*paths.Finding) {
	site := r.site(it.Pos)
	shows := false
	for _, f := range fs {
		for _, rule := range []string{f.Rule, cond(f.Lock != "", "SIO003"), cond(f.Tx != "", "SIO007")} {
			if rule != "" {
				r.Emitted[site+"|"+rule+"|"+f.Terminal()] = true
				shows = true
			}
		}
	}
	if !shows {
		return
	}
	s.Reported++
	if r.flushed {
		r.reportNow(s, it, fs)
		return
	}
	// By the call's extent: a call and the call of its result
	// (exec.Command("ls").Run()) start at one position.
	key := fmt.Sprint(site, "|", it.End)
	q := r.queue[key]
	if q == nil {
		q = &queued{s: s, it: it}
		r.queue[key] = q
		r.order = append(r.order, key)
	}
	q.fs = append(q.fs, fs...)
}

func cond(ok bool, rule string) string {
	if ok {
		return rule
	}
	return ""
}

// Flush makes the diagnostics of the findings reported so far, one per
// call and rule, in the order their calls were first reported.
func (r *Reporter) Flush() {
	for _, key := range r.order {
		q := r.queue[key]
		r.reportNow(q.s, q.it, q.fs)
	}
	r.queue, r.order, r.flushed = map[string]*queued{}, nil, true
}

// reportNow is Report's diagnostics for one call.
func (r *Reporter) reportNow(s *paths.Summary, it paths.Item, fs []*paths.Finding) {
	if r.Hold == nil {
		r.report(s, it, fs, r.pass.Report)
		return
	}
	var now, held []*paths.Finding
	for _, f := range fs {
		if f.Rule == "" || !r.Hold.Finding(f) {
			now = append(now, f)
			continue
		}
		h := *f
		h.Lock, h.Tx = "", ""
		held = append(held, &h)
		if f.Lock != "" || f.Tx != "" {
			g := *f
			g.Rule = ""
			now = append(now, &g)
		}
	}
	r.report(s, it, now, r.pass.Report)
	r.report(s, it, held, r.Hold.Diag)
}

// report is Report with the diagnostics going to sink.
func (r *Reporter) report(s *paths.Summary, it paths.Item, fs []*paths.Finding, sink func(analysis.Diagnostic)) {
	type group struct {
		main *paths.Finding
		also []*paths.Finding
		seen map[string]bool
		over int // the most operations past those listed that one path counts (paths.BlocksFact.Over)
	}
	groups := map[string]*group{}
	var order []string
	add := func(rule string, f *paths.Finding) {
		g := groups[rule]
		if g == nil {
			g = &group{main: f, seen: map[string]bool{f.Terminal(): true}}
			groups[rule] = g
			order = append(order, rule)
		} else if k := f.Terminal(); !g.seen[k] {
			g.seen[k] = true
			g.also = append(g.also, f)
		}
		g.over = max(g.over, f.Over)
	}
	for _, f := range fs {
		if f.Rule != "" {
			add(f.Rule, f)
		}
		if f.Lock != "" {
			add("SIO003", f)
		}
		if f.Tx != "" {
			add("SIO007", f)
		}
	}
	for _, rule := range order {
		g := groups[rule]
		// The count of what the message does not name: exact for one
		// callee's paths of one rule; a lower bound where a count past
		// paths.MaxOps meets other paths (dispatch over several bindings, a lock
		// or transaction across several rules' operations).
		more := moreOps{n: max(0, len(g.also)-(paths.MaxTerminals-1)), atLeast: g.over > 0}
		if g.over > 0 && !it.Merged && rule != "SIO003" && rule != "SIO007" {
			more.n += g.over
		}
		if rule == "SIO003" || rule == "SIO007" {
			detail := g.main.Detail
			if detail == "" {
				detail = "does I/O"
			}
			clause, hint := r.opts.Held(rule, g.main)
			r.emit(s, it, g.main, rule, detail+clause, hint, g.also, more, sink)
			continue
		}
		r.emit(s, it, g.main, rule, g.main.Detail, g.main.Hint, g.also, more, sink)
	}
}

// moreOps is what a message says of the operations it does not name:
// "and N more", or "and at least N more" when N is a lower bound.
type moreOps struct {
	n       int
	atLeast bool
}

func (m moreOps) String() string {
	switch {
	case m.atLeast && m.n == 0:
		return "and possibly more"
	case m.atLeast:
		return fmt.Sprintf("and at least %d more", m.n)
	case m.n > 0:
		return fmt.Sprintf("and %d more", m.n)
	}
	return ""
}

// emit reports f under rule at the root's item; also are the paths to the
// rule's other blocking operations: the message names the first
// paths.MaxTerminals-1 after the hint and says how many more there are (more),
// and every one is attached as related information at its operation, so
// that -json and SARIF carry them all.
func (r *Reporter) emit(s *paths.Summary, it paths.Item, f *paths.Finding, rule, detail, hint string, also []*paths.Finding, more moreOps, sink func(analysis.Diagnostic)) {
	var msg string
	last := f.Chain[len(f.Chain)-1]
	if f.Ref && detail == "" {
		// Led by an operation past those a fact keeps with their paths:
		// what the rule flags, and where, instead of a chain.
		detail = "is on this request path (the calls between are not kept): " + r.opts.Short(rule)
		if n := len(f.Sites); n > 0 && f.Sites[n-1] != "" {
			last += " at " + paths.ShortSite(f.Sites[n-1])
		}
		msg = s.Name + " reaches " + last + ", which " + detail
	} else if len(f.Chain) == 1 {
		msg = last + " " + detail
	} else {
		msg = s.Name + " calls " + strings.Join(f.Chain, " → ") + ", which " + detail
	}
	if hint != "" || !f.Ref {
		msg += "; " + hint
	}
	if len(also) > 0 || more.String() != "" {
		var others []string
		for i, a := range also {
			if i >= paths.MaxTerminals-1 {
				break
			}
			o := strings.Join(a.Chain, " → ")
			if n := len(a.Sites); n > 0 {
				o += " at " + paths.ShortSite(a.Sites[n-1])
			}
			others = append(others, o)
		}
		if m := more.String(); m != "" && len(others) > 0 {
			others = append(others, m)
		} else if m != "" {
			// Only a count (past paths.MaxOps, nothing listed): "also reaches
			// 3 more operations".
			others = append(others, strings.TrimPrefix(m, "and ")+" operations")
		}
		msg += "; also reaches " + strings.Join(others, ", ")
	}
	msg += reachedText(it.Reached[rule]) + " (" + rule + ")"
	d := analysis.Diagnostic{
		Pos:      it.Pos,
		End:      it.End,
		Category: rule,
		URL:      r.opts.FixURL(rule),
		Message:  msg,
	}
	if len(f.Chain) > 1 {
		for i, name := range f.Chain {
			m := "calls " + name
			if i == len(f.Chain)-1 {
				m = name + " " + detail
			}
			pos, site := token.NoPos, ""
			if i < len(f.Poses) {
				pos = f.Poses[i]
			}
			if i < len(f.Sites) {
				site = f.Sites[i]
			}
			// A driver that compiles one package at a time (go vet) knows
			// other packages' files by line only, or not at all: keep the
			// hop, at the finding when its file is unknown, with its exact
			// place in the message.
			if site != "" && (!pos.IsValid() || r.pass.Fset.Position(pos).String() != site) {
				m += " (at " + site + ")"
				if !pos.IsValid() {
					pos = it.Pos
				}
			}
			if !pos.IsValid() {
				continue
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos, Message: m})
		}
	}
	for _, a := range also {
		if n := len(a.Chain); n > 0 && n <= len(a.Poses) && a.Poses[n-1].IsValid() {
			detail := a.Detail
			if detail == "" {
				detail = "does I/O"
			}
			msg := "also reaches " + a.Chain[n-1]
			if !a.Ref {
				msg += ", which " + detail
			}
			if rule == "SIO003" || rule == "SIO007" {
				clause, _ := r.opts.Held(rule, a)
				msg += clause
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: a.Poses[n-1], Message: msg})
		}
	}
	for _, rc := range it.Reached[rule] {
		if rc.Pos.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: rc.Pos, Message: ReachedPrefix + rc.Root + ", from this call"})
		}
	}
	if it.Term != nil && rule == it.Term.Rule && rule != "SIO003" && rule != "SIO007" {
		d.SuggestedFixes = r.Fixes(s, it)
	}
	if it.Fixes != nil && rule == "SIO002" {
		d.SuggestedFixes = it.Fixes
	}
	sink(d)
}

// ReachedPrefix starts the related entries of a finding reported away
// from its request roots' calls (paths.Item.Reached), one per root: they
// follow the chain and its "also reaches" entries, and are no hop of it
// (the standalone's grouping by cause stops there and counts them).
const ReachedPrefix = "on the request path of "

// maxReached bounds the request paths a relocated finding's message
// names; -json and SARIF list every one as related information.
const maxReached = 3

// reachedText names the request paths that lead to a finding reported away
// from their calls (paths.Item.Reached).
func reachedText(rs []paths.Reach) string {
	if len(rs) == 0 {
		return ""
	}
	var names []string
	for i, rc := range rs {
		if i == maxReached {
			names[len(names)-1] += fmt.Sprintf(" and %d more", len(rs)-maxReached)
			break
		}
		names = append(names, rc.Root+" ("+paths.ShortSite(rc.Site)+")")
	}
	if len(rs) == 1 {
		return "; on the request path of " + names[0]
	}
	return fmt.Sprintf("; on %d request paths: %s", len(rs), strings.Join(names, ", "))
}

// Site reports a finding that no request path leads to (SIO008's
// servers and dialers) at its own position, unless the rule is off or an
// ignore on its line hides it.
func (r *Reporter) Site(pos, end token.Pos, rule, msg string, fixes []analysis.SuggestedFix) {
	if !r.opts.Enabled(rule) || (!r.opts.ReportIgnored && r.dirs.Suppressed(pos, rule)) {
		return
	}
	r.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: rule, URL: r.opts.FixURL(rule), Message: msg, SuggestedFixes: fixes})
}

// Stale reports //syncio:ignore directives that hid nothing, once every
// item has been resolved and the join has dispatched the roots' interface
// calls (the analyzer's stale-ignores stage; Carried).
func (r *Reporter) Stale() {
	r.settleCarried()
	for _, ig := range r.dirs.All {
		if ig.Used || ig.Bad || r.opts.ReportIgnored {
			continue
		}
		judgeable := true
		for _, id := range ig.IDs {
			if !r.opts.Enabled(id) {
				judgeable = false // a disabled rule reports nothing to hide
			}
		}
		if !judgeable {
			continue
		}
		rule := ig.IDs[0]
		r.pass.Report(analysis.Diagnostic{
			Pos: ig.Pos, End: ig.End, Category: rule, URL: r.opts.SuppressionURL(),
			Message: "stale syncio:ignore: no " + strings.Join(ig.IDs, "/") + " finding here to suppress; remove it (" + rule + ")",
		})
	}
}

// BadIgnores reports //syncio:ignore comments without a reason or
// without valid rule IDs. They are reported under the first rule they
// name (SIO000 when they name none), so SARIF keeps one rule per ID.
func (r *Reporter) BadIgnores() {
	for _, ig := range r.dirs.All {
		rule := "SIO000"
		var unknown []string
		for _, id := range ig.IDs {
			if r.opts.Known(id) {
				if rule == "SIO000" {
					rule = id
				}
			} else {
				unknown = append(unknown, id)
			}
		}
		var problem string
		switch {
		case len(ig.IDs) == 0:
			problem = "syncio:ignore names no rule; write //syncio:ignore SIO001 -- why this is safe"
		case len(unknown) > 0:
			problem = "syncio:ignore names unknown rule " + strings.Join(unknown, ", ") + "; use IDs from docs/rules"
		case ig.Reason == "" && slices.ContainsFunc(ig.IDs, r.opts.Enabled):
			// Judged only under a rule the run reports: -rules that
			// switch it off have nothing to say about it.
			problem = "syncio:ignore needs a reason; write //syncio:ignore " + strings.Join(ig.IDs, ",") + " -- why this is safe"
		default:
			continue
		}
		ig.Bad = true
		r.pass.Report(analysis.Diagnostic{Pos: ig.Pos, End: ig.End, Category: rule, URL: r.opts.SuppressionURL(), Message: problem + " (" + rule + ")"})
	}
}
