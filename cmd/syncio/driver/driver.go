package driver

import (
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/singlechecker"
	"golang.org/x/tools/go/packages"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/cmd/syncio/confirm"
	"github.com/syncio/syncio/cmd/syncio/sarifreport"
	"github.com/syncio/syncio/internal/stdtrim"
)

// Exit codes of Run.
const (
	ExitClean    = 0 // no findings
	ExitError    = 1 // a package failed to load or analyse (unless -partial), or output failed
	ExitUsage    = 2 // bad flags or arguments
	ExitFindings = 3 // findings were reported
)

// Config describes the tool that Run drives.
type Config struct {
	Analyzer *analysis.Analyzer
	// Rules is the rule catalogue written to SARIF; findings whose rule
	// is missing from it still get a rule entry.
	Rules []sarifreport.Rule
	// Catalogue, when set, is called for the SARIF rule catalogue after
	// the flags are parsed and wins over Rules: an analyzer flag (syncio's
	// -docs) may move the rules' help URLs.
	Catalogue func() []sarifreport.Rule
	// Dir is the working directory: packages are loaded from it and file
	// paths are shown relative to it. Empty means the process's.
	Dir    string
	Stdout io.Writer // -json output
	Stderr io.Writer // findings, errors and usage
	// Fresh returns a new analyzer with default flag values. Under go vet,
	// Main uses it to check the analyzer's flag values once, before
	// unitchecker would reject them once per package with the full usage
	// text. Nil skips that check.
	Fresh func() *analysis.Analyzer
}

// Main is the main function of a syncio-style command. It never returns.
func Main(cfg Config) {
	args := os.Args[1:]
	if IsVetProtocol(args) {
		if code, stop := checkVetFlags(cfg, args); stop {
			os.Exit(code)
		}
		singlechecker.Main(cfg.Analyzer)
	}
	code, delegate := run(cfg, args)
	if delegate {
		// -fix, -diff and the profiling flags: singlechecker re-parses
		// os.Args with the same flag names.
		singlechecker.Main(cfg.Analyzer)
	}
	os.Exit(code)
}

// IsVetProtocol reports whether args come from go vet (or a user speaking
// its protocol): a version query, a flag listing, or a single *.cfg file
// describing one compilation unit.
func IsVetProtocol(args []string) bool {
	for _, a := range args {
		name := strings.TrimLeft(a, "-")
		if len(name) == len(a) {
			continue // not a flag
		}
		if name == "V" || strings.HasPrefix(name, "V=") || name == "flags" || strings.HasPrefix(name, "flags=") {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// Run runs the command with args (without the program name) and returns the
// exit code. Flags that Main hands to singlechecker (-fix, -diff, -debug and
// the profiling flags) are a usage error here.
func Run(cfg Config, args []string) int {
	code, delegate := run(cfg, args)
	if delegate {
		fmt.Fprintf(stderrOf(cfg), "%s: -fix, -diff and the debug/profile flags are only available from the command line\n", cfg.Analyzer.Name)
		return ExitUsage
	}
	return code
}

// options are the parsed command-line flags.
type options struct {
	json         bool
	exitZero     bool
	context      int
	includeTests bool
	group        bool // fold the findings of one cause into one (group.go)
	sarif        string
	sarifRoot    string // -sarif-root; "" is the git work tree's top, else the working directory
	confirm      string
	report       blockwatch.Report // read from confirm before the analysis
	partial      bool
	baseline     string
	baseWrite    bool
	accepted     map[string]int // read from baseline before the analysis; nil writes it
	rootsReport  string         // -roots-report file
	strictRoots  bool
	// handed to singlechecker
	fix, diff                            bool
	debug, cpuprofile, memprofile, trace string
}

func (o *options) delegated() bool {
	return o.fix || o.diff || o.debug != "" || o.trace != ""
}

func stderrOf(cfg Config) io.Writer {
	if cfg.Stderr != nil {
		return cfg.Stderr
	}
	return os.Stderr
}

func stdoutOf(cfg Config) io.Writer {
	if cfg.Stdout != nil {
		return cfg.Stdout
	}
	return os.Stdout
}

func newFlagSet(cfg Config, o *options) *flag.FlagSet {
	a := cfg.Analyzer
	fs := flag.NewFlagSet(a.Name, flag.ContinueOnError)
	fs.SetOutput(stderrOf(cfg))
	fs.BoolVar(&o.json, "json", false, "emit JSON output (exit code 0 even with findings)")
	fs.BoolVar(&o.exitZero, "exit-zero", false, "report findings but exit 0 (report, don't block); a package that fails to load still exits 1 unless -partial")
	fs.BoolVar(&o.partial, "partial", false, "analyse the packages that load and name the others on stderr (and in -sarif) without failing the run for them: the exit code then depends on findings alone (still 1 when no package loaded)")
	fs.StringVar(&o.baseline, "baseline", "", "fail only on findings not in the baseline `file`; when the file does not exist, write it with the current findings and exit 0")
	fs.BoolVar(&o.baseWrite, "baseline-write", false, "with -baseline, (re)write the baseline file with the current findings and exit 0")
	fs.BoolVar(&o.group, "group", true, "report the findings that one place in the program causes for many request paths once, at that place, naming the paths (text and -sarif; -json keeps each path's finding and gives its \"cause\"); -group=false reports each path's finding")
	fs.IntVar(&o.context, "c", -1, "display offending line with this many lines of context")
	// false, not the true it falls back to, so that the flag package
	// adds no "(default true)" after the usage that tells the default.
	fs.BoolVar(&o.includeTests, "test", false, "load the packages' test variants too (default: the analyzer's -tests; without it they only repeat the package's findings, and a _test.go file that does not compile would fail the run)")
	fs.StringVar(&o.sarif, "sarif", "", "also write the findings as SARIF 2.1.0 to `file` (for GitHub code scanning)")
	fs.StringVar(&o.sarifRoot, "sarif-root", "", "write -sarif file locations relative to `dir` (default: the top of the git work tree around the working directory, else the working directory), so that code scanning finds the files of a module in a subdirectory")
	fs.StringVar(&o.rootsReport, "roots-report", "", "write every request root found (by framework and how it was found) and every route registration, with the handlers it resolved to or why it could not, as JSON to `file`")
	fs.BoolVar(&o.strictRoots, "strict-roots", false, fmt.Sprintf("exit %d when a package registers routes but no request root was found in it (its handlers were not analysed), instead of only warning", ExitBlind))
	fs.StringVar(&o.confirm, "confirm", "", "join the findings with a run-time blocking report (`file`: the JSON of /debug/syncio/blocking after a load): confirm each finding with its share of request time, or not seen, and list blocking sites no finding covers")
	fs.BoolVar(&o.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&o.diff, "diff", false, "with -fix, don't update the files, but print a unified diff")
	fs.StringVar(&o.debug, "debug", "", `debug flags, any subset of "fpstv" (as singlechecker)`)
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the whole run (load and analysis) to this `file`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a heap profile (what was allocated, and what is live once the analysis is done) to this `file`")
	fs.StringVar(&o.trace, "trace", "", "write trace log to this file")
	// The analyzer's own flags keep their plain names, as singlechecker
	// registers them, so command lines work with either driver; like
	// singlechecker, a name the driver already uses is skipped.
	a.Flags.VisitAll(func(f *flag.Flag) {
		if fs.Lookup(f.Name) == nil {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	fs.Usage = func() { usage(fs, a) }
	return fs
}

func usage(fs *flag.FlagSet, a *analysis.Analyzer) {
	w := fs.Output()
	paras := strings.Split(strings.TrimSpace(a.Doc), "\n\n")
	fmt.Fprintf(w, "%s: %s\n\n", a.Name, paras[0])
	fmt.Fprintf(w, `Usage:
  %[1]s [flags] packages                 report findings (exit 3 when there are any)
  %[1]s -sarif out.sarif ./...           also write SARIF 2.1.0 for code scanning
  %[1]s -exit-zero ./...                 report findings, exit 0 (report, don't block)
  %[1]s -baseline syncio-baseline.json ./...   fail only on findings not in the baseline
  %[1]s -partial ./...                   analyse what loads; a package that does not load is no failure
  %[1]s -confirm blocking.json ./...     join with what a load saw blocking (blockwatch)
  %[1]s -roots-report roots.json ./...   list every request root and route registration seen
  %[1]s -strict-roots ./...              fail (exit 4) when a package's routes led to no root
  %[1]s -fix [-diff] packages            apply (or show) the suggested fixes
  go vet -vettool="$(command -v %[1]s || echo /%[1]s-not-installed)" ./...
                                          run as a go vet tool (fails if %[1]s is missing)

Exit codes: 0 no findings (or -exit-zero, or none new with -baseline),
3 findings, 1 a package failed to load or type-check (the others are still
analysed and their findings printed; 1 wins over 3; -partial makes it no
failure), 2 bad usage, 4 with -strict-roots: a package registers routes but
no request root was found in it (1 wins over 4, 4 over 3).

The last line on stderr says how many request handlers were found, by
framework and by how, and apart from them the middleware and the
functions of a handler's shape the program only calls (dispatch
branches), which are roots too; and which registration calls had a
handler that could not be followed; -roots-report writes them all as
JSON, each root with its kind.

Flags:
`, a.Name)
	fs.PrintDefaults()
}

// parseFlags parses args into fs, leaving the report of an error to the
// caller: the flag package prints the error and then the whole usage text
// (some 80 lines), so that the one line that says what is wrong scrolls
// out of sight.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() {
		fs.SetOutput(out)
		fs.Usage = usage
	}()
	return fs.Parse(args)
}

// testsFollow makes -test default to the analyzer's -tests, or to true
// for an analyzer without one (as singlechecker). Test variants are a
// second type-check of every package with tests (about a tenth of the CPU
// of a run), and with -tests off they can only repeat the findings of the
// package's own files. Off, go list runs without -test and is not asked
// for the test files' names, so a _test.go file that does not compile is
// never seen: the run cannot say what it skipped without a second load,
// and says nothing (issue 36).
func testsFollow(fs *flag.FlagSet, a *analysis.Analyzer, o *options) {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "test" })
	if !set {
		tests := a.Flags.Lookup("tests")
		o.includeTests = tests == nil || tests.Value.String() == "true"
	}
}

// run does the work of Run; delegate reports that singlechecker must take
// over because a flag it owns was given.
func run(cfg Config, args []string) (code int, delegate bool) {
	var o options
	stderr := stderrOf(cfg)
	fs := newFlagSet(cfg, &o)
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return ExitClean, false
		}
		fmt.Fprintf(stderr, "%s: %v; run %s -help for the flags\n", cfg.Analyzer.Name, err, cfg.Analyzer.Name)
		return ExitUsage, false
	}
	testsFollow(fs, cfg.Analyzer, &o)
	if o.delegated() {
		// singlechecker knows neither flag: it would drop them silently.
		var given []string
		for _, f := range []struct {
			name string
			set  bool
		}{{"-sarif", o.sarif != ""}, {"-sarif-root", o.sarifRoot != ""}, {"-confirm", o.confirm != ""}, {"-roots-report", o.rootsReport != ""}, {"-strict-roots", o.strictRoots}} {
			if f.set {
				given = append(given, f.name)
			}
		}
		if len(given) > 0 {
			fmt.Fprintf(stderr, "%s: %s cannot be combined with -fix, -diff or the debug/profile flags\n", cfg.Analyzer.Name, strings.Join(given, " and "))
			return ExitUsage, false
		}
		return 0, true
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return ExitUsage, false
	}
	if o.sarifRoot != "" && o.sarif == "" {
		fmt.Fprintf(stderr, "%s: -sarif-root says where -sarif's file paths start; give -sarif too\n", cfg.Analyzer.Name)
		return ExitUsage, false
	}
	if o.confirm != "" {
		// Read before the analysis, which takes a while, so that a wrong
		// file is a usage error at once.
		rep, err := confirm.Load(o.confirm)
		if err != nil {
			fmt.Fprintf(stderr, "%s: -confirm %s: %v\n", cfg.Analyzer.Name, o.confirm, err)
			return ExitUsage, false
		}
		o.report = rep
	}
	if o.baseWrite && o.baseline == "" {
		fmt.Fprintf(stderr, "%s: -baseline-write needs -baseline FILE\n", cfg.Analyzer.Name)
		return ExitUsage, false
	}
	if o.baseline != "" && o.json {
		fmt.Fprintf(stderr, "%s: -baseline cannot be combined with -json (the JSON output lists every finding)\n", cfg.Analyzer.Name)
		return ExitUsage, false
	}
	if o.baseline != "" && !o.baseWrite {
		path := o.baseline
		if d, err := workDir(cfg.Dir); err == nil && !filepath.IsAbs(path) {
			path = filepath.Join(d, path) // as the analysis resolves it
		}
		acc, err := readBaseline(path)
		if err != nil {
			fmt.Fprintf(stderr, "%s: -baseline %s: %v\n", cfg.Analyzer.Name, o.baseline, err)
			return ExitUsage, false
		}
		o.accepted = acc
	}
	stop, err := startProfiles(o)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cfg.Analyzer.Name, err)
		return ExitUsage, false
	}
	code = analyze(cfg, o, fs.Args())
	if err := stop(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cfg.Analyzer.Name, err)
		code = ExitError
	}
	return code, false
}

// analyze loads the packages, runs the analyzer and prints the results.
func analyze(cfg Config, o options, patterns []string) int {
	// Every package of the graph is loaded from source before the first
	// is analysed, so the live heap is large, and parsing and
	// type-checking garbage nearly doubles the peak under GOGC=100. A
	// tighter target trades CPU for a peak that fits CI runners (measured
	// in docs/precision.md, "Speed and memory"): 80 since the load trims
	// package-level tables (on Cloudreve 0.89× the CPU of 50 for 1.09× the
	// peak, which the trim had cut to 0.80×); GOGC in the environment
	// wins. After the load, releasing and capAtLoad keep the analysis
	// under the load's own peak. Both are the process's settings: they are
	// put back when the run ends, so that a caller running several
	// analyses in one process (the tests) does not load the next under the
	// last one's limit.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(80))
	}
	stderr := stderrOf(cfg)
	name := cfg.Analyzer.Name
	dir, err := workDir(cfg.Dir)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitError
	}

	mode := packages.LoadSyntax | packages.NeedModule | packages.NeedEmbedPatterns
	if needsFacts(cfg.Analyzer) {
		// Facts are computed on every dependency, so those need syntax too.
		mode = packages.LoadAllSyntax | packages.NeedModule | packages.NeedEmbedPatterns
	}
	// The analyzer reads no function body of the standard library, so
	// the load leaves them out (stdtrim): about half the peak and the wall.
	initial, retried, err := stdtrim.Load(&packages.Config{Mode: mode, Dir: dir, Tests: o.includeTests}, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "%s: loading packages: %s\n", name, withAdvice(strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")))
		return ExitError
	}
	if retried != "" {
		// Findings are unaffected, the cost is not: say so, or a doubled
		// run looks like the analyzer's.
		fmt.Fprintf(stderr, "%s: note: the standard library without bodies did not type-check (%s), so every package was loaded again with them: about twice the time and memory; please report it with your Go version\n", name, retried)
	}
	if len(initial) == 0 {
		fmt.Fprintf(stderr, "%s: %s matched no packages\n", name, strings.Join(patterns, " "))
		return ExitError
	}

	capAtLoad()
	problems := packageProblems(initial, dir)
	problems = append(problems, embedProblems(initial, problems)...)

	graph, err := checker.Analyze([]*analysis.Analyzer{releasing(cfg.Analyzer, initial)}, initial, nil)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitError
	}
	if o.memprofile != "" {
		if err := writeHeapProfile(o.memprofile); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitError
		}
	}
	problems = append(problems, actionProblems(graph)...)
	for _, p := range problems {
		fmt.Fprintf(stderr, "%s: %s\n", name, p)
	}
	roots, sawRoots := rootsSeen(graph, dir)

	found := collect(graph)
	var at []string
	for _, f := range found {
		at = append(at, shortPath(dir, f.pos.String()))
	}
	roots.ClearReached(at)
	shown := found
	var baselineNote string
	if o.baseline != "" {
		path := o.baseline
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if o.accepted == nil {
			if err := writeBaseline(path, name, found); err != nil {
				fmt.Fprintf(stderr, "%s: -baseline %s: %v\n", name, o.baseline, err)
				return ExitError
			}
			for i := range found {
				found[i].state = stateUnchanged
			}
			shown = nil
			baselineNote = fmt.Sprintf("wrote the baseline %s with %d findings, not shown; later runs with -baseline %[1]s fail only on findings not in it", o.baseline, len(found))
		} else {
			fresh, gone := applyBaseline(found, o.accepted)
			shown = slices.DeleteFunc(slices.Clone(found), func(f finding) bool { return f.state != stateNew })
			baselineNote = fmt.Sprintf("%d new findings; %d more are in the baseline %s and not shown (run without -baseline to see them)", fresh, len(found)-fresh, o.baseline)
			if gone > 0 {
				baselineNote += fmt.Sprintf("; %d baselined findings were not seen (fixed, or changed): -baseline-write rewrites the file", gone)
			}
		}
	}

	prog := program(initial)
	if o.group {
		shown = grouped(shown, prog)
	}
	code := ExitClean
	if o.json {
		if err := writeJSON(stdoutOf(cfg), graph, causes(found, prog)); err != nil {
			fmt.Fprintf(stderr, "%s: writing JSON: %v\n", name, err)
			code = ExitError
		}
	} else {
		if err := printText(stderr, dir, shown, o.context); err != nil {
			fmt.Fprintf(stderr, "%s: writing findings: %v\n", name, err)
			code = ExitError
		}
		if err := printFixPages(stderr, name, shown); err != nil {
			fmt.Fprintf(stderr, "%s: writing findings: %v\n", name, err)
			code = ExitError
		}
		if baselineNote != "" {
			fmt.Fprintf(stderr, "%s: %s\n", name, baselineNote)
		}
		if len(shown) > 0 && !o.exitZero {
			code = ExitFindings
		}
	}

	var joined *confirm.Result
	if o.confirm != "" {
		sf := sarifFindings(found)
		res := confirm.Join(dir, sf, o.report)
		joined = &res
		if err := res.Print(stderr, sf, func(p string) string { return shortPath(dir, p) }); err != nil {
			fmt.Fprintf(stderr, "%s: writing confirmation: %v\n", name, err)
			code = ExitError
		}
	}

	if o.sarif != "" {
		var notices []string
		if sawRoots {
			// What the run saw, for a reader of the log alone.
			notices = append(notices, roots.Line(nil))
			if note := ginNote(roots); note != "" {
				notices = append(notices, note)
			}
		}
		inSARIF := found
		if o.group && joined == nil {
			// -confirm's verdicts are per finding as the analyzer made it.
			inSARIF = grouped(found, prog)
		}
		if err := writeSARIF(cfg, o.sarif, dir, sarifRoot(dir, o.sarifRoot), inSARIF, problems, blindWarnings(roots), notices, joined); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			code = ExitError
		}
	}
	if len(problems) > 0 {
		if o.partial && loadedClean(initial, problems) == 0 {
			// Nothing was analysed: an exit by findings would pass a run
			// that judged nothing.
			fmt.Fprintf(stderr, "%s: exit 1: -partial, but none of the %d packages loaded without errors, so there is nothing to judge; generate or fix what they need (see above)\n", name, len(initial))
			code = ExitError
		} else if o.partial {
			fmt.Fprintf(stderr, "%s: -partial: the packages above were not (fully) analysed; their findings are missing, and the exit code does not count them\n", name)
		} else {
			// An incomplete run must not pass for a clean one, and a
			// partial list of findings is not the whole story either.
			fmt.Fprintf(stderr, "%s: exit 1: some packages could not be loaded (see above); generate or fix what they need, or pass -partial to analyse what loads without failing for the rest\n", name)
			code = ExitError
		}
	}
	if sawRoots {
		if o.rootsReport != "" {
			if err := writeRootsReport(o.rootsReport, dir, roots); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", name, err)
				code = ExitError
			}
		}
		if o.strictRoots && len(roots.Blind) > 0 && code != ExitError {
			code = ExitBlind
		}
		printRoots(stderr, name, roots)
	}
	return code
}

func workDir(dir string) (string, error) {
	if dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("working directory: %w", err)
		}
		return d, nil
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("working directory %s: %w", dir, err)
	}
	return d, nil
}

// needsFacts reports whether a or anything it requires uses facts.
func needsFacts(a *analysis.Analyzer) bool {
	seen := map[*analysis.Analyzer]bool{}
	var visit func(*analysis.Analyzer) bool
	visit = func(a *analysis.Analyzer) bool {
		if seen[a] {
			return false
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			return true
		}
		for _, r := range a.Requires {
			if visit(r) {
				return true
			}
		}
		return false
	}
	return visit(a)
}

// packageProblems returns one line per distinct load, parse or type error
// in the packages and their dependencies, each naming its package.
func packageProblems(initial []*packages.Package, dir string) []string {
	var out []string
	seen := map[string]bool{}
	packages.Visit(initial, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			line := fmt.Sprintf("package %s: %s", pkgName(p), describeError(e, dir))
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		}
	})
	return out
}

// embedProblems returns one line per //go:embed pattern of a root package
// that matches no file. go build and go vet reject such a package, but
// go/packages reports the error only when it builds export data, which
// the fact-based load (LoadAllSyntax) never does: without this check the
// run would pass for a package that does not build. Patterns are matched
// as go:embed does for files (path.Match syntax, an "all:" prefix); a
// directory pattern counts as a match.
func embedProblems(initial []*packages.Package, known []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range initial {
		for _, abs := range p.EmbedPatterns {
			rel, err := filepath.Rel(p.Dir, abs)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			glob := filepath.Join(p.Dir, filepath.FromSlash(strings.TrimPrefix(rel, "all:")))
			if m, err := filepath.Glob(glob); err != nil || len(m) > 0 {
				continue // a bad pattern is go list's to report
			}
			msg := fmt.Sprintf("pattern %s: no matching files found", rel)
			line := fmt.Sprintf("package %s: embed error: %s", pkgName(p), msg)
			if seen[line] || slices.ContainsFunc(known, func(k string) bool { return strings.Contains(k, msg) }) {
				continue
			}
			seen[line] = true
			out = append(out, line)
		}
	}
	return out
}

func describeError(e packages.Error, dir string) string {
	kind := "error"
	switch e.Kind {
	case packages.ListError:
		kind = "load error"
	case packages.ParseError:
		kind = "parse error"
	case packages.TypeError:
		kind = "type error"
	}
	msg := withAdvice(strings.ReplaceAll(strings.TrimSpace(e.Msg), "\n", "; "))
	if e.Pos == "" || e.Pos == "-" {
		return kind + ": " + msg
	}
	return fmt.Sprintf("%s: %s: %s", kind, shortPath(dir, e.Pos), msg)
}

// pkgName is the import path, without the test-variant suffix that would
// make the same error appear once per variant.
func pkgName(p *packages.Package) string {
	if p.PkgPath != "" {
		return p.PkgPath
	}
	return p.ID
}

// actionProblems returns one line per root package that the analyzer could
// not run on (type errors, failed dependencies, analyzer errors).
func actionProblems(g *checker.Graph) []string {
	var out []string
	seen := map[string]bool{}
	for _, act := range g.Roots {
		if act.Err == nil {
			continue
		}
		line := fmt.Sprintf("package %s not analysed: %v", pkgName(act.Package), act.Err)
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	}
	sort.Strings(out)
	return out
}

// finding is a diagnostic of a root package with its file set.
type finding struct {
	diag  analysis.Diagnostic
	fset  *token.FileSet
	pos   token.Position
	base  baselineEntry // the finding's key in a baseline
	state string        // with -baseline: stateNew or stateUnchanged
	// paths counts the request paths' findings folded into this one by
	// their cause (group.go), 0 for a finding of its own; roots are the
	// others' root calls.
	paths int
	roots []rootRef
}

// collect returns the root diagnostics, de-duplicated (a file in both a
// package and its test variant is analysed twice) and sorted by position.
func collect(g *checker.Graph) []finding {
	type key struct {
		pos, end string
		msg      string
	}
	seen := map[key]bool{}
	var out []finding
	ix := newDeclIndex(g)
	for _, act := range g.Roots {
		if act.Err != nil {
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			p := fset.Position(d.Pos)
			k := key{p.String(), fset.Position(d.End).String(), d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			base := ix.entry(fset, pkgName(act.Package), d.Pos, ruleOf(d.Category, d.Message), d.Message)
			out = append(out, finding{diag: d, fset: fset, pos: p, base: base})
		}
	}
	sortFindings(out)
	return out
}

// sortFindings orders findings by position, then message.
func sortFindings(out []finding) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].pos, out[j].pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return out[i].diag.Message < out[j].diag.Message
	})
}

// printText prints findings as singlechecker does, "file:line:col: message"
// followed by one indented line per Related entry (the call chain), but
// with paths relative to dir so the output is the same on every machine.
func printText(w io.Writer, dir string, found []finding, contextLines int) error {
	var b strings.Builder
	for _, f := range found {
		fset := f.fset
		printOne(&b, dir, fset.Position(f.diag.Pos), fset.Position(f.diag.End), f.diag.Message, contextLines)
		for _, r := range f.diag.Related {
			printOne(&b, dir, fset.Position(r.Pos), fset.Position(r.End), "\t"+r.Message, contextLines)
		}
		for _, line := range rootLines(f, func(p string) string { return shortPath(dir, p) }) {
			fmt.Fprintf(&b, "\t%s\n", line)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func printOne(b *strings.Builder, dir string, pos, end token.Position, msg string, contextLines int) {
	posn := pos
	posn.Filename = shortPath(dir, pos.Filename)
	fmt.Fprintf(b, "%s: %s\n", posn, msg)
	if contextLines < 0 {
		return
	}
	if !end.IsValid() {
		end = pos
	}
	data, err := os.ReadFile(pos.Filename)
	if err != nil {
		return // context is a convenience; the finding itself is printed
	}
	lines := strings.Split(string(data), "\n")
	for i := max(1, pos.Line-contextLines); i <= end.Line+contextLines && i <= len(lines); i++ {
		fmt.Fprintf(b, "%d\t%s\n", i, lines[i-1])
	}
}

// shortPath returns path relative to dir when it lies inside dir. The path
// may carry a ":line:col" suffix.
func shortPath(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && filepath.IsAbs(path) &&
		rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return path
}

// sarifRoot is the directory SARIF file URIs are relative to. Code
// scanning resolves them against the repository's root, so a module in a
// subdirectory (backend/) must say backend/x.go, not x.go: the default is
// the top of the git work tree, found by its .git entry (a directory, or
// a file in a worktree or submodule), and the working directory outside
// one.
func sarifRoot(dir, flagged string) string {
	if flagged != "" {
		if !filepath.IsAbs(flagged) {
			flagged = filepath.Join(dir, flagged)
		}
		return filepath.Clean(flagged)
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// loadedClean counts the packages asked for that no problem line names
// (each begins "package <name>:" or "package <name> not analysed").
func loadedClean(initial []*packages.Package, problems []string) int {
	n := 0
	for _, p := range initial {
		named := "package " + pkgName(p)
		clean := len(p.Errors) == 0
		for _, line := range problems {
			if strings.HasPrefix(line, named+":") || strings.HasPrefix(line, named+" ") {
				clean = false
			}
		}
		if clean {
			n++
		}
	}
	return n
}

func sarifFindings(found []finding) []sarifreport.Finding {
	out := make([]sarifreport.Finding, 0, len(found))
	for _, f := range found {
		sf := sarifreport.FromDiagnostic(f.fset, f.diag)
		sf.BaselineState = f.state
		for _, r := range f.roots {
			sf.Roots = append(sf.Roots, sarifreport.Hop{Pos: r.pos, Message: strings.TrimSpace("also reached from " + r.name)})
		}
		out = append(out, sf)
	}
	return out
}

// writeSARIF writes the findings, with the run-time verdicts of joined
// (nil without -confirm) as properties and its uncovered sites as notes.
func writeSARIF(cfg Config, path, dir, root string, found []finding, problems, warnings, notices []string, joined *confirm.Result) error {
	run := sarifreport.Run{SrcRoot: root, Problems: problems, Warnings: warnings, Notices: notices, Findings: sarifFindings(found)}
	if joined != nil {
		props, notes := joined.SARIF(func(p string) string { return shortPath(root, p) })
		for i := range run.Findings {
			run.Findings[i].Properties = props[i]
		}
		run.Notes = notes
	}
	rules := cfg.Rules
	if cfg.Catalogue != nil {
		rules = cfg.Catalogue()
	}
	tool := sarifreport.Tool{
		Name:           cfg.Analyzer.Name,
		Version:        version(),
		InformationURI: cfg.Analyzer.URL,
		Rules:          rules,
		FallbackRule:   cfg.Analyzer.Name,
	}
	rep, err := sarifreport.Build(tool, run)
	if err != nil {
		return fmt.Errorf("building SARIF: %w", err)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return sarifreport.WriteFile(path, rep)
}

// version is the main module's version: a tag for `go install`ed builds,
// "(devel)" for builds from a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
