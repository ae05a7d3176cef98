package sarifreport

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf16"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"golang.org/x/tools/go/analysis"
)

// SrcRoot is the uriBaseId under which file locations are written.
const SrcRoot = "%SRCROOT%"

// Rule is one entry of the tool's rule catalogue as SARIF shows it.
type Rule struct {
	ID      string // stable ID, e.g. SIO001; results refer to it
	Name    string // short kebab-case name
	Short   string // one-line description
	HelpURI string // the page a result of this rule links: how to fix it
	// RuleURI, when set, is a second page the help text names: what the
	// rule flags, and why.
	RuleURI string
	// Disabled marks a rule the run did not report (an opt-in rule not
	// switched on, or one that -rules left out): its defaultConfiguration
	// says enabled false, so that no result does not read as none found.
	Disabled bool
}

// Hop is one step of a finding's call chain.
type Hop struct {
	Pos     token.Position
	Message string
}

// Finding is one diagnostic with its positions resolved to files.
type Finding struct {
	RuleID  string
	Message string
	Pos     token.Position
	End     token.Position // may be invalid when the analyzer gave no end
	Chain   []Hop
	// Roots are the other request paths' calls that reach the same cause,
	// when the finding stands for several (syncio's grouping): SARIF's
	// relatedLocations.
	Roots []Hop
	// Properties, when set, become the result's property bag (syncio
	// -confirm puts a finding's run-time verdict there).
	Properties map[string]any
	// BaselineState, when set, is the result's baselineState ("new" or
	// "unchanged" against syncio -baseline).
	BaselineState string
}

// Note is a result of level "note" under NoteRule: something seen at run
// time that no finding covers.
type Note struct {
	Message    string
	File       string
	Line       int
	Properties map[string]any
}

// NoteRule is the rule that notes are results of.
var NoteRule = Rule{
	ID:    "blocked-at-run-time",
	Name:  "blocked-at-run-time",
	Short: "A request goroutine was seen blocked here under load (syncio -confirm), and no finding covers it",
}

// ruleSuffix matches the rule ID that syncio messages end with; it is only
// a fallback for diagnostics whose Category is empty.
var ruleSuffix = regexp.MustCompile(`\((SIO\d{3})\)$`)

// FromDiagnostic resolves d's positions with fset. The rule ID is d.Category,
// or, when that is empty, the "(SIOnnn)" suffix of the message.
func FromDiagnostic(fset *token.FileSet, d analysis.Diagnostic) Finding {
	f := Finding{
		RuleID:  d.Category,
		Message: d.Message,
		Pos:     fset.Position(d.Pos),
	}
	if d.End.IsValid() {
		f.End = fset.Position(d.End)
	}
	if f.RuleID == "" {
		if m := ruleSuffix.FindStringSubmatch(d.Message); m != nil {
			f.RuleID = m[1]
		}
	}
	for _, r := range d.Related {
		f.Chain = append(f.Chain, Hop{Pos: fset.Position(r.Pos), Message: r.Message})
	}
	return f
}

// Tool describes the analysis tool that produced the findings.
type Tool struct {
	Name           string // driver name, e.g. "syncio"
	Version        string // optional
	InformationURI string // optional
	Rules          []Rule
	// FallbackRule is the rule ID used for findings without one. It is
	// added to the driver's rules on first use.
	FallbackRule string
}

// Run is the outcome of one analysis run.
type Run struct {
	// SrcRoot is the directory that relative file URIs are resolved
	// against, normally the working directory. It must be absolute.
	SrcRoot  string
	Findings []Finding
	// Notes are added after the findings, under NoteRule.
	Notes []Note
	// Problems are errors that made the run incomplete (packages that did
	// not load or type-check). They become tool execution notifications and
	// mark the invocation as unsuccessful.
	Problems []string
	// Warnings are things the run could not see that do not make it
	// incomplete by themselves (a package whose routes led to no request
	// root). They become tool execution notifications of level warning.
	Warnings []string
	// Notices say what the run looked at (the roots line: the request
	// roots found, and what could not be followed), so that a log with no
	// result still says whether anything was seen. They become tool
	// execution notifications of level note.
	Notices []string
	// ReadFile reads source files to convert go/token's byte columns into
	// the UTF-16 columns SARIF viewers count in. Nil means os.ReadFile; a
	// file that cannot be read keeps its byte columns.
	ReadFile func(name string) ([]byte, error)
}

// Build returns the SARIF 2.1.0 log of run as produced by tool.
func Build(tool Tool, run Run) (*sarif.Report, error) {
	if tool.Name == "" {
		return nil, errors.New("sarifreport: tool name is empty")
	}
	if !filepath.IsAbs(run.SrcRoot) {
		return nil, fmt.Errorf("sarifreport: source root %q is not absolute", run.SrcRoot)
	}
	b := &builder{
		run:       sarif.NewRun(),
		root:      filepath.Clean(run.SrcRoot),
		artifacts: map[string]int{},
		readFile:  run.ReadFile,
		lines:     map[string][][]byte{},
	}
	if b.readFile == nil {
		b.readFile = os.ReadFile
	}
	// Stated explicitly because go/token columns are bytes; location
	// converts them.
	b.run.WithColumnKind("utf16CodeUnits")
	driver := sarif.NewToolComponent().WithName(tool.Name)
	if tool.Version != "" {
		driver.WithVersion(tool.Version)
	}
	if tool.InformationURI != "" {
		driver.WithInformationURI(tool.InformationURI)
	}
	b.run.WithTool(sarif.NewTool().WithDriver(driver))
	for _, r := range tool.Rules {
		b.addRule(r, sarif.LevelWarning)
	}
	b.run.WithOriginalUriBaseIds(map[string]sarif.ArtifactLocation{
		SrcRoot: *sarif.NewArtifactLocation().WithURI(dirURI(b.root)),
	})

	for _, f := range run.Findings {
		id := f.RuleID
		if id == "" {
			id = tool.FallbackRule
		}
		if id == "" {
			return nil, fmt.Errorf("sarifreport: finding at %s has no rule ID and the tool has no fallback rule", f.Pos)
		}
		if b.run.GetRuleIndex(id) < 0 {
			// Unknown IDs still need a driver rule, or the result's ruleId
			// would not resolve and code scanning rejects the log.
			b.addRule(Rule{ID: id, Name: id, Short: id}, sarif.LevelWarning)
		}
		if err := b.addResult(id, f); err != nil {
			return nil, err
		}
	}

	if len(run.Notes) > 0 && b.run.GetRuleIndex(NoteRule.ID) < 0 {
		b.addRule(NoteRule, sarif.LevelNote)
	}
	for _, n := range run.Notes {
		loc, err := b.location(token.Position{Filename: n.File, Line: n.Line}, token.Position{})
		if err != nil {
			return nil, err
		}
		res := b.run.CreateResultForRule(NoteRule.ID).
			WithLevel(sarif.LevelNote).
			WithMessage(sarif.NewTextMessage(n.Message)).
			AddLocation(loc)
		withProperties(res, n.Properties)
	}

	inv := sarif.NewInvocation().WithExecutionSuccessful(len(run.Problems) == 0)
	for _, p := range run.Problems {
		inv.AddToolExecutionNotification(sarif.NewNotification().
			WithLevel(sarif.LevelError).
			WithMessage(sarif.NewTextMessage(p)))
	}
	for _, w := range run.Warnings {
		inv.AddToolExecutionNotification(sarif.NewNotification().
			WithLevel(sarif.LevelWarning).
			WithMessage(sarif.NewTextMessage(w)))
	}
	for _, n := range run.Notices {
		inv.AddToolExecutionNotification(sarif.NewNotification().
			WithLevel(sarif.LevelNote).
			WithMessage(sarif.NewTextMessage(n)))
	}
	b.run.AddInvocation(inv)

	rep := sarif.NewReport()
	rep.AddRun(b.run)
	return rep, nil
}

// WriteFile writes rep as indented JSON to path.
func WriteFile(path string, rep *sarif.Report) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create SARIF file: %w", err)
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close SARIF file: %w", cerr)
		}
	}()
	if err := rep.PrettyWrite(f); err != nil {
		return fmt.Errorf("write SARIF file %s: %w", path, err)
	}
	return nil
}

type builder struct {
	run       *sarif.Run
	root      string
	artifacts map[string]int // artifact URI → index in run.Artifacts
	readFile  func(string) ([]byte, error)
	lines     map[string][][]byte // file → its lines; nil when unreadable
}

// column converts a 1-based byte column on a line of file into a 1-based
// UTF-16 column. It returns col unchanged when the file cannot be read.
func (b *builder) column(file string, line, col int) int {
	lines, ok := b.lines[file]
	if !ok {
		if data, err := b.readFile(file); err == nil {
			lines = bytes.Split(data, []byte("\n"))
		}
		b.lines[file] = lines
	}
	if line < 1 || line > len(lines) || col < 1 {
		return col
	}
	text := lines[line-1]
	if col-1 > len(text) {
		return col
	}
	units := 0
	for _, r := range string(text[:col-1]) {
		units += utf16.RuneLen(r)
	}
	return units + 1
}

func (b *builder) addRule(r Rule, level string) {
	rule := b.run.AddRule(r.ID)
	if r.Name != "" {
		rule.WithName(r.Name)
	}
	if r.Short != "" {
		rule.WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.Short))
		help, md := r.Short, r.Short
		if r.HelpURI != "" {
			help += "\n\nHow to fix it: " + r.HelpURI
			md += "\n\n[How to fix it](" + r.HelpURI + ")"
		}
		if r.RuleURI != "" {
			help += "\nWhat the rule flags, and why: " + r.RuleURI
			md += " · [what the rule flags, and why](" + r.RuleURI + ")"
		}
		rule.WithHelp(sarif.NewMultiformatMessageString().WithText(help).WithMarkdown(md))
	}
	if r.HelpURI != "" {
		rule.WithHelpURI(r.HelpURI)
	}
	rule.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(level).WithEnabled(!r.Disabled))
}

func (b *builder) addResult(ruleID string, f Finding) error {
	loc, err := b.location(f.Pos, f.End)
	if err != nil {
		return err
	}
	res := b.run.CreateResultForRule(ruleID).
		WithLevel(sarif.LevelWarning).
		WithMessage(sarif.NewTextMessage(f.Message)).
		AddLocation(loc)
	withProperties(res, f.Properties)
	if f.BaselineState != "" {
		res.WithBaselineState(f.BaselineState)
	}
	for i, r := range f.Roots {
		rl, err := b.location(r.Pos, token.Position{})
		if err != nil {
			return err
		}
		res.AddRelatedLocation(rl.WithID(i + 1).WithMessage(sarif.NewTextMessage(r.Message)))
	}
	if len(f.Chain) == 0 {
		return nil
	}
	flow := sarif.NewThreadFlow()
	for i, h := range f.Chain {
		hl, err := b.location(h.Pos, token.Position{})
		if err != nil {
			return err
		}
		hl.WithMessage(sarif.NewTextMessage(h.Message))
		tfl := sarif.NewThreadFlowLocation().
			WithLocation(hl).
			WithExecutionOrder(i).
			WithNestingLevel(i)
		if strings.HasPrefix(h.Message, "calls ") {
			tfl.AddKind("call") // the last hop is the blocking operation itself
		}
		flow.AddLocation(tfl)
	}
	res.AddCodeFlow(sarif.NewCodeFlow().
		WithMessage(sarif.NewTextMessage("call chain from the request handler to the blocking operation")).
		AddThreadFlow(flow))
	return nil
}

func withProperties(res *sarif.Result, props map[string]any) {
	if len(props) == 0 {
		return
	}
	bag := sarif.NewPropertyBag()
	for k, v := range props {
		bag.Add(k, v)
	}
	res.WithProperties(bag)
}

// location builds a SARIF location for a source range. Positions without a
// line (e.g. from a file the analyzer could not place) are an error, since
// SARIF regions need startLine ≥ 1.
func (b *builder) location(pos, end token.Position) (*sarif.Location, error) {
	if pos.Filename == "" || pos.Line < 1 {
		return nil, fmt.Errorf("sarifreport: position %q has no file or line", pos)
	}
	uri, base := b.fileURI(pos.Filename)
	al := sarif.NewArtifactLocation().WithURI(uri)
	if base != "" {
		al.WithURIBaseID(base)
	}
	al.WithIndex(b.artifact(uri, base))

	region := sarif.NewRegion().WithStartLine(pos.Line)
	if pos.Column > 0 {
		region.WithStartColumn(b.column(pos.Filename, pos.Line, pos.Column))
	}
	if end.IsValid() && end.Filename == pos.Filename && end.Line >= pos.Line {
		region.WithEndLine(end.Line)
		if end.Column > 0 && (end.Line > pos.Line || end.Column > pos.Column) {
			region.WithEndColumn(b.column(end.Filename, end.Line, end.Column))
		}
	}
	return sarif.NewLocationWithPhysicalLocation(
		sarif.NewPhysicalLocation().WithArtifactLocation(al).WithRegion(region)), nil
}

// artifact returns the index of the run artifact for uri, adding it if new,
// so that every artifactLocation.index points at a real artifact.
func (b *builder) artifact(uri, base string) int {
	key := base + "|" + uri
	if i, ok := b.artifacts[key]; ok {
		return i
	}
	al := sarif.NewArtifactLocation().WithURI(uri)
	if base != "" {
		al.WithURIBaseID(base)
	}
	a := sarif.NewArtifact().WithLocation(al)
	// -1 is the schema's "unknown" for length and parentIndex; the zero
	// values would claim an empty file nested in artifact 0.
	a.WithLength(-1)
	a.WithParentIndex(-1)
	b.run.AddArtifact(a)
	i := len(b.run.Artifacts) - 1
	b.artifacts[key] = i
	return i
}

// fileURI returns the URI of filename relative to the source root with the
// SrcRoot base id, or an absolute file URI (and no base id) for files
// outside the root, such as dependencies in the module cache.
func (b *builder) fileURI(filename string) (uri, base string) {
	abs := filename
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(b.root, abs)
	}
	rel, err := filepath.Rel(b.root, abs)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return (&url.URL{Path: filepath.ToSlash(rel)}).String(), SrcRoot
	}
	return fileURL(abs), ""
}

func fileURL(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive letters: file:///C:/...
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// dirURI is the absolute file URI of a directory; SARIF requires base URIs
// to end with a slash.
func dirURI(dir string) string {
	u := fileURL(dir)
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}
