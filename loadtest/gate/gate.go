package gate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/syncio/syncio/loadtest/report"
)

// Fields are the names an expression may read after `baseline.` or
// `candidate.`, each a figure of that side's top (last) measured step.
// status_NNN (any three-digit code) is read from the step's statuses.
var Fields = map[string]string{
	"users":          "users in the top step",
	"requests":       "responses completed in the top step's window",
	"ok":             "OK (2xx/3xx) responses",
	"ok_per_s":       "OK responses per second",
	"status_503":     "503 responses",
	"errors":         "responses neither OK nor 503 (timeouts included)",
	"timeouts":       "requests with no response in -timeout",
	"non_ok":         "every response that was not OK (503s, errors, timeouts)",
	"latency_mean_s": "mean latency of OK responses, seconds",
	"latency_p50_s":  "median latency of OK responses, seconds",
	"latency_p95_s":  "95th percentile latency of OK responses, seconds",
	"latency_p99_s":  "99th percentile latency of OK responses, seconds",
	"latency_max_s":  "highest latency of an OK response, seconds",
	"sent_rate":      "requests sent per second in an open loop (-rate), by send time",
	"rate":           "requests per second asked of an open loop (-rate)",
}

// Sides are the names before the dot.
var Sides = []string{"baseline", "candidate"}

var statusField = regexp.MustCompile(`^status_[1-5][0-9][0-9]$`)

// Assertion is one parsed expression.
type Assertion struct {
	Src  string
	expr ast.Expr
	refs []string // side.field, in order of first use
}

// Reads reports whether the assertion reads a figure of side.
func (a Assertion) Reads(side string) bool {
	return slices.ContainsFunc(a.refs, func(ref string) bool { return strings.HasPrefix(ref, side+".") })
}

// Parse checks src: an expression of numbers, side.field references,
// + - * /, parentheses, comparisons, && || and !, whose value is a truth.
func Parse(src string) (Assertion, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return Assertion{}, fmt.Errorf("%q: %w", src, err)
	}
	a := Assertion{Src: src, expr: e}
	isBool, err := a.check(e)
	if err != nil {
		return Assertion{}, fmt.Errorf("%q: %w", src, err)
	}
	if !isBool {
		return Assertion{}, fmt.Errorf("%q: is a number, not a condition (compare it: >=, ==, ...)", src)
	}
	return a, nil
}

// check walks e, collects its references and says whether it is a truth
// (true) or a number (false).
func (a *Assertion) check(e ast.Expr) (bool, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return a.check(e.X)
	case *ast.BasicLit:
		if e.Kind != token.INT && e.Kind != token.FLOAT {
			return false, fmt.Errorf("%s: only numbers are allowed", e.Value)
		}
		return false, nil
	case *ast.SelectorExpr:
		side, ok := e.X.(*ast.Ident)
		if !ok || !slices.Contains(Sides, side.Name) {
			return false, fmt.Errorf("unknown name %s: want baseline.FIELD or candidate.FIELD", exprString(e))
		}
		f := e.Sel.Name
		if _, known := Fields[f]; !known && !statusField.MatchString(f) {
			return false, fmt.Errorf("unknown field %s.%s; fields are %s and status_NNN", side.Name, f, strings.Join(fieldNames(), ", "))
		}
		ref := side.Name + "." + f
		if !slices.Contains(a.refs, ref) {
			a.refs = append(a.refs, ref)
		}
		return false, nil
	case *ast.UnaryExpr:
		b, err := a.check(e.X)
		switch {
		case err != nil:
			return false, err
		case e.Op == token.SUB && !b, e.Op == token.ADD && !b:
			return false, nil
		case e.Op == token.NOT && b:
			return true, nil
		}
		return false, fmt.Errorf("%s cannot apply to %s", e.Op, exprString(e.X))
	case *ast.BinaryExpr:
		l, err := a.check(e.X)
		if err != nil {
			return false, err
		}
		r, err := a.check(e.Y)
		if err != nil {
			return false, err
		}
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			if l || r {
				return false, fmt.Errorf("%s needs numbers on both sides", e.Op)
			}
			return false, nil
		case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
			if l || r {
				return false, fmt.Errorf("%s compares numbers, not conditions", e.Op)
			}
			return true, nil
		case token.LAND, token.LOR:
			if !l || !r {
				return false, fmt.Errorf("%s joins conditions, not numbers", e.Op)
			}
			return true, nil
		}
		return false, fmt.Errorf("operator %s is not supported", e.Op)
	case *ast.Ident:
		return false, fmt.Errorf("unknown name %s: want baseline.FIELD or candidate.FIELD", e.Name)
	}
	return false, fmt.Errorf("%s is not supported (numbers, baseline.FIELD, candidate.FIELD, + - * /, comparisons, && || !)", exprString(e))
}

func fieldNames() []string {
	n := make([]string, 0, len(Fields))
	for f := range Fields {
		n = append(n, f)
	}
	sort.Strings(n)
	return n
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	case *ast.BasicLit:
		return e.Value
	}
	return fmt.Sprintf("%T", e)
}

// Values are the figures an assertion reads, by "side.field".
type Values map[string]float64

// Eval evaluates a on vals, which must hold every field a refers to.
func (a Assertion) Eval(vals Values) (bool, error) {
	v, err := eval(a.expr, vals)
	if err != nil {
		return false, err
	}
	return v.truth, nil
}

type value struct {
	num   float64
	truth bool
}

func eval(e ast.Expr, vals Values) (value, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return eval(e.X, vals)
	case *ast.BasicLit:
		f, err := strconv.ParseFloat(strings.ReplaceAll(e.Value, "_", ""), 64)
		return value{num: f}, err
	case *ast.SelectorExpr:
		ref := exprString(e)
		v, ok := vals[ref]
		if !ok {
			return value{}, fmt.Errorf("%s is not known for this run", ref)
		}
		return value{num: v}, nil
	case *ast.UnaryExpr:
		x, err := eval(e.X, vals)
		switch e.Op {
		case token.SUB:
			x.num = -x.num
		case token.NOT:
			x.truth = !x.truth
		}
		return x, err
	case *ast.BinaryExpr:
		l, err := eval(e.X, vals)
		if err != nil {
			return value{}, err
		}
		r, err := eval(e.Y, vals)
		if err != nil {
			return value{}, err
		}
		switch e.Op {
		case token.ADD:
			return value{num: l.num + r.num}, nil
		case token.SUB:
			return value{num: l.num - r.num}, nil
		case token.MUL:
			return value{num: l.num * r.num}, nil
		case token.QUO:
			return value{num: l.num / r.num}, nil
		case token.LSS:
			return value{truth: l.num < r.num}, nil
		case token.LEQ:
			return value{truth: l.num <= r.num}, nil
		case token.GTR:
			return value{truth: l.num > r.num}, nil
		case token.GEQ:
			return value{truth: l.num >= r.num}, nil
		case token.EQL:
			return value{truth: l.num == r.num}, nil
		case token.NEQ:
			return value{truth: l.num != r.num}, nil
		case token.LAND:
			return value{truth: l.truth && r.truth}, nil
		case token.LOR:
			return value{truth: l.truth || r.truth}, nil
		}
	}
	return value{}, fmt.Errorf("cannot evaluate %s", exprString(e))
}

// ErrFailed is wrapped by Check's error when an assertion is false.
var ErrFailed = errors.New("assertion failed")

// Check evaluates every assertion on sum's baseline and candidate (the
// headline's pair: -endpoint's first and second, or the demo's sync and
// async profile). The error names each false assertion and the values it
// read, and wraps ErrFailed; a side that did not run is an error too.
func Check(sum *report.Summary, as []Assertion) error {
	vals, missing := SideValues(sum)
	var errs []error
	for _, a := range as {
		for _, ref := range a.refs {
			side, _, _ := strings.Cut(ref, ".")
			if why, ok := missing[side]; ok {
				errs = append(errs, fmt.Errorf("%w: %s: %s", ErrFailed, a.Src, why))
				goto next
			}
			// An unknown figure is not compared as 0: that would pass
			// "latency below 1 s" on a step that answered nothing.
			if why, ok := missing[ref]; ok {
				errs = append(errs, fmt.Errorf("%w: %s: %s is unknown: %s", ErrFailed, a.Src, ref, why))
				goto next
			}
		}
		if ok, err := a.Eval(vals); err != nil || !ok {
			var read []string
			for _, ref := range a.refs {
				read = append(read, fmt.Sprintf("%s = %s", ref, strconv.FormatFloat(vals[ref], 'g', 6, 64)))
			}
			if err == nil {
				err = ErrFailed
			} else {
				err = fmt.Errorf("%w: %w", ErrFailed, err)
			}
			errs = append(errs, fmt.Errorf("%w: %s (%s)", err, a.Src, strings.Join(read, ", ")))
		}
	next:
	}
	return errors.Join(errs...)
}

// SideValues reads every field of the baseline's and candidate's top
// steps; missing says why a side has none (by side) or why one of its
// figures is unknown (by side.field).
func SideValues(sum *report.Summary) (Values, map[string]string) {
	base, cand := report.HeadlineSync, report.HeadlineAsync
	if p := sum.Pair; p != nil {
		base, cand = p.Baseline, p.Candidate
	}
	vals, missing := Values{}, map[string]string{}
	for side, name := range map[string]string{"baseline": base, "candidate": cand} {
		st, ok := topStep(sum, name)
		if !ok {
			missing[side] = fmt.Sprintf("the %s (%s) has no measured step", side, orNone(name))
			continue
		}
		put := func(f string, v float64) { vals[side+"."+f] = v }
		put("users", float64(st.Users))
		put("requests", float64(st.Requests))
		put("ok", float64(st.OK))
		put("ok_per_s", st.ThroughputRPS)
		put("status_503", float64(st.Status503))
		put("errors", float64(st.Errors+st.Timeouts))
		put("timeouts", float64(st.Timeouts))
		put("non_ok", float64(st.Requests-st.OK))
		unknown := func(f, why string) { missing[side+"."+f] = why }
		for f, v := range map[string]*float64{"latency_mean_s": st.LatencyMeanS, "latency_p50_s": st.LatencyP50S,
			"latency_p95_s": st.LatencyP95S, "latency_p99_s": st.LatencyP99S, "latency_max_s": st.LatencyMaxS} {
			if v == nil {
				unknown(f, fmt.Sprintf("the %s's top step had no OK response, so it has no latency", side))
				continue
			}
			put(f, *v)
		}
		if st.Sent != nil {
			put("sent_rate", st.Sent.RatePerS)
			put("rate", st.RatePerS)
		} else {
			unknown("sent_rate", "the run was a closed loop (users); only an open loop (-rate) has a sent rate")
			unknown("rate", "the run was a closed loop (users); only an open loop (-rate) has a rate")
		}
		for code := 100; code < 600; code++ {
			put(fmt.Sprintf("status_%d", code), float64(st.Statuses[strconv.Itoa(code)]))
		}
	}
	return vals, missing
}

func orNone(name string) string {
	if name == "" {
		return "none given"
	}
	return name
}

func topStep(sum *report.Summary, name string) (report.Step, bool) {
	for _, sc := range sum.Scenarios {
		if sc.Name == name && name != "" && len(sc.Steps) > 0 {
			return sc.Steps[len(sc.Steps)-1], true
		}
	}
	return report.Step{}, false
}
