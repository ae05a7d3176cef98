package sarifreport_test

import (
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/cmd/syncio/sarifreport"
)

var testRules = []sarifreport.Rule{
	{ID: "SIO001", Name: "blocking-call", Short: "blocking call", HelpURI: "https://example.test/SIO001.md"},
	{ID: "SIO002", Name: "dropped-context", Short: "dropped context", HelpURI: "https://example.test/SIO002.md"},
}

// sarifLog mirrors the parts of the SARIF 2.1.0 schema that code scanning
// needs. It is decoded with encoding/json rather than the go-sarif types so
// that the test checks the bytes on disk, not the library's view of them.
type sarifLog struct {
	Schema  *string `json:"$schema"`
	Version *string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  *string `json:"name"`
				Rules []struct {
					ID               *string `json:"id"`
					Name             string  `json:"name"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					HelpURI              string `json:"helpUri"`
					DefaultConfiguration struct {
						Enabled *bool `json:"enabled"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Artifacts []struct {
			Location struct {
				URI string `json:"uri"`
			} `json:"location"`
		} `json:"artifacts"`
		Results []struct {
			RuleID    *string `json:"ruleId"`
			RuleIndex *int    `json:"ruleIndex"`
			Level     string  `json:"level"`
			Message   struct {
				Text *string `json:"text"`
			} `json:"message"`
			Locations  []sarifLocation `json:"locations"`
			Properties map[string]any  `json:"properties"`
			CodeFlows  []struct {
				ThreadFlows []struct {
					Locations []struct {
						Location sarifLocation `json:"location"`
					} `json:"locations"`
				} `json:"threadFlows"`
			} `json:"codeFlows"`
		} `json:"results"`
		Invocations []struct {
			ExecutionSuccessful *bool `json:"executionSuccessful"`
			Notifications       []struct {
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
	} `json:"runs"`
}

type sarifLocation struct {
	Message *struct {
		Text string `json:"text"`
	} `json:"message"`
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       *string `json:"uri"`
			URIBaseID string  `json:"uriBaseId"`
			Index     *int    `json:"index"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   *int `json:"startLine"`
			StartColumn int  `json:"startColumn"`
			EndLine     int  `json:"endLine"`
			EndColumn   int  `json:"endColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

// writeAndParse builds the log, writes it with WriteFile, validates it
// against the embedded 2.1.0 schema and decodes it.
func writeAndParse(t *testing.T, tool sarifreport.Tool, run sarifreport.Run) sarifLog {
	t.Helper()
	rep, err := sarifreport.Build(tool, run)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	path := filepath.Join(t.TempDir(), "out.sarif")
	if err := sarifreport.WriteFile(path, rep); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	// Schema validation is offline: go-sarif embeds the 2.1.0 schema.
	reread, err := sarif.Open(path)
	if err != nil {
		t.Fatalf("re-open: %v", err)
	}
	if err := reread.Validate(); err != nil {
		t.Fatalf("schema validation: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("decode: %v", err)
	}
	checkRequired(t, log)
	return log
}

// checkRequired asserts the fields that SARIF 2.1.0 (and code scanning)
// require, for any log.
func checkRequired(t *testing.T, log sarifLog) {
	t.Helper()
	if log.Version == nil || *log.Version != "2.1.0" {
		t.Errorf("version = %v, want 2.1.0", log.Version)
	}
	if log.Schema == nil || !strings.Contains(*log.Schema, "sarif-schema-2.1.0") {
		t.Errorf("$schema = %v, want the 2.1.0 schema", log.Schema)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("runs = %d, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name == nil || *run.Tool.Driver.Name == "" {
		t.Errorf("runs[0].tool.driver.name missing")
	}
	ruleIdx := map[string]int{}
	for i, r := range run.Tool.Driver.Rules {
		if r.ID == nil || *r.ID == "" {
			t.Errorf("rule %d has no id", i)
			continue
		}
		ruleIdx[*r.ID] = i
	}
	checkLoc := func(what string, l sarifLocation) {
		al := l.PhysicalLocation.ArtifactLocation
		if al.URI == nil || *al.URI == "" {
			t.Errorf("%s: artifactLocation.uri missing", what)
		}
		if al.Index != nil && (*al.Index < -1 || *al.Index >= len(run.Artifacts)) {
			t.Errorf("%s: artifactLocation.index %d out of range (%d artifacts)", what, *al.Index, len(run.Artifacts))
		} else if al.Index != nil && *al.Index >= 0 && run.Artifacts[*al.Index].Location.URI != *al.URI {
			t.Errorf("%s: artifact %d is %q, location says %q", what, *al.Index, run.Artifacts[*al.Index].Location.URI, *al.URI)
		}
		if al.URIBaseID != "" {
			if _, ok := run.OriginalURIBaseIDs[al.URIBaseID]; !ok {
				t.Errorf("%s: uriBaseId %q not in originalUriBaseIds", what, al.URIBaseID)
			}
		}
		if sl := l.PhysicalLocation.Region.StartLine; sl == nil || *sl < 1 {
			t.Errorf("%s: region.startLine = %v, want ≥ 1", what, sl)
		}
	}
	for i, res := range run.Results {
		if res.Message.Text == nil || *res.Message.Text == "" {
			t.Errorf("result %d: message.text missing", i)
		}
		if res.RuleID == nil {
			t.Errorf("result %d: ruleId missing", i)
		} else if idx, ok := ruleIdx[*res.RuleID]; !ok {
			t.Errorf("result %d: ruleId %q is not a driver rule", i, *res.RuleID)
		} else if res.RuleIndex != nil && *res.RuleIndex != idx {
			t.Errorf("result %d: ruleIndex %d, but rule %q is at %d", i, *res.RuleIndex, *res.RuleID, idx)
		}
		if len(res.Locations) == 0 {
			t.Errorf("result %d: no locations", i)
		}
		for j, l := range res.Locations {
			checkLoc(fmt.Sprintf("result %d location %d", i, j), l)
		}
		for _, cf := range res.CodeFlows {
			for _, tf := range cf.ThreadFlows {
				if len(tf.Locations) == 0 {
					t.Errorf("result %d: empty threadFlow", i)
				}
				for j, l := range tf.Locations {
					checkLoc(fmt.Sprintf("result %d flow %d", i, j), l.Location)
				}
			}
		}
	}
}

func TestBuildWithChain(t *testing.T) {
	root := t.TempDir()
	handlers := filepath.Join(root, "api", "handlers.go")
	repo := filepath.Join(root, "repo", "fetch.go")
	outside := filepath.Join(filepath.Dir(root), "elsewhere", "dep.go")

	fset := token.NewFileSet()
	// Synthetic files: 100 bytes per line makes offsets easy to place.
	hf := fset.AddFile(handlers, -1, 2000)
	rf := fset.AddFile(repo, -1, 2000)
	lines := make([]int, 20)
	for i := range lines {
		lines[i] = i * 100
	}
	hf.SetLines(lines)
	rf.SetLines(lines)

	diag := analysis.Diagnostic{
		Pos:      hf.Pos(11*100 + 4), // line 12, column 5
		End:      hf.Pos(11*100 + 20),
		Category: "SIO001",
		Message:  "GetProfile calls repo.Fetch → net/http.Get, which blocks without the request context (SIO001)",
		Related: []analysis.RelatedInformation{
			{Pos: hf.Pos(11*100 + 4), Message: "calls repo.Fetch"},
			{Pos: rf.Pos(6*100 + 1), Message: "calls net/http.Get"},
		},
	}
	f := sarifreport.FromDiagnostic(fset, diag)
	if f.Pos.Line != 12 || f.Pos.Column != 5 || f.End.Column != 21 {
		t.Fatalf("FromDiagnostic positions = %v–%v, want 12:5–12:21", f.Pos, f.End)
	}
	// No Category: the rule ID comes from the message suffix.
	of := fset.AddFile(outside, -1, 2000)
	of.SetLines(lines)
	plain := sarifreport.FromDiagnostic(fset, analysis.Diagnostic{
		Pos:     of.Pos(2*100 + 1),
		Message: "time.Sleep on a request path cannot be cancelled (SIO005)",
	})
	if plain.RuleID != "SIO005" || plain.End.IsValid() {
		t.Fatalf("FromDiagnostic without Category: rule %q end %v, want SIO005 and no end", plain.RuleID, plain.End)
	}

	tool := sarifreport.Tool{Name: "syncio", Version: "test", Rules: testRules}
	log := writeAndParse(t, tool, sarifreport.Run{SrcRoot: root, Findings: []sarifreport.Finding{f, plain}})
	run := log.Runs[0]

	if got := *run.Tool.Driver.Name; got != "syncio" {
		t.Errorf("driver name = %q", got)
	}
	// The catalogue's rules are all present even without findings for
	// them; the fallback ID SIO005 was added for the second finding.
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, *r.ID)
	}
	if strings.Join(ids, ",") != "SIO001,SIO002,SIO005" {
		t.Errorf("rule ids = %v, want SIO001,SIO002,SIO005", ids)
	}
	r0 := run.Tool.Driver.Rules[0]
	if r0.Name != "blocking-call" || r0.ShortDescription.Text != "blocking call" || r0.HelpURI != "https://example.test/SIO001.md" {
		t.Errorf("rule 0 = %+v", r0)
	}

	if len(run.Results) != 2 {
		t.Fatalf("results = %d, want 2", len(run.Results))
	}
	res := run.Results[0]
	if *res.RuleID != "SIO001" || res.Level != "warning" || *res.Message.Text != diag.Message {
		t.Errorf("result 0 = ruleId %q level %q message %q", *res.RuleID, res.Level, *res.Message.Text)
	}
	pl := res.Locations[0].PhysicalLocation
	if *pl.ArtifactLocation.URI != "api/handlers.go" || pl.ArtifactLocation.URIBaseID != sarifreport.SrcRoot {
		t.Errorf("location uri = %q base %q, want api/handlers.go under %s",
			*pl.ArtifactLocation.URI, pl.ArtifactLocation.URIBaseID, sarifreport.SrcRoot)
	}
	if *pl.Region.StartLine != 12 || pl.Region.StartColumn != 5 || pl.Region.EndLine != 12 || pl.Region.EndColumn != 21 {
		t.Errorf("region = %+v, want 12:5–12:21", pl.Region)
	}
	if base := run.OriginalURIBaseIDs[sarifreport.SrcRoot].URI; !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/") {
		t.Errorf("%s = %q, want an absolute file URI ending in /", sarifreport.SrcRoot, base)
	}

	if len(res.CodeFlows) != 1 || len(res.CodeFlows[0].ThreadFlows) != 1 {
		t.Fatalf("codeFlows = %+v, want one flow with one threadFlow", res.CodeFlows)
	}
	hops := res.CodeFlows[0].ThreadFlows[0].Locations
	if len(hops) != 2 {
		t.Fatalf("threadFlow has %d locations, want 2", len(hops))
	}
	wantHops := []struct {
		uri  string
		line int
		msg  string
	}{{"api/handlers.go", 12, "calls repo.Fetch"}, {"repo/fetch.go", 7, "calls net/http.Get"}}
	for i, w := range wantHops {
		l := hops[i].Location
		if *l.PhysicalLocation.ArtifactLocation.URI != w.uri || *l.PhysicalLocation.Region.StartLine != w.line || l.Message == nil || l.Message.Text != w.msg {
			t.Errorf("hop %d = %s:%d %v, want %s:%d %q", i, *l.PhysicalLocation.ArtifactLocation.URI,
				*l.PhysicalLocation.Region.StartLine, l.Message, w.uri, w.line, w.msg)
		}
	}

	// Files outside the source root keep an absolute URI and no base id.
	res1 := run.Results[1]
	if len(res1.CodeFlows) != 0 {
		t.Errorf("finding without Related has codeFlows: %+v", res1.CodeFlows)
	}
	al := res1.Locations[0].PhysicalLocation.ArtifactLocation
	if !strings.HasPrefix(*al.URI, "file:///") || !strings.HasSuffix(*al.URI, "/elsewhere/dep.go") || al.URIBaseID != "" {
		t.Errorf("outside file: uri %q base %q", *al.URI, al.URIBaseID)
	}
	if inv := run.Invocations; len(inv) != 1 || inv[0].ExecutionSuccessful == nil || !*inv[0].ExecutionSuccessful {
		t.Errorf("invocation = %+v, want one successful", inv)
	}
}

func TestBuildEmptyRunAndProblems(t *testing.T) {
	root := t.TempDir()
	tool := sarifreport.Tool{Name: "syncio", Rules: testRules}
	log := writeAndParse(t, tool, sarifreport.Run{
		SrcRoot:  root,
		Problems: []string{"package example.com/bad: bad.go:3:9: undefined: nope"},
	})
	run := log.Runs[0]
	if run.Results == nil || len(run.Results) != 0 {
		t.Errorf("results = %v, want an empty (not missing) array", run.Results)
	}
	if len(run.Tool.Driver.Rules) != len(testRules) {
		t.Errorf("rules = %d, want %d", len(run.Tool.Driver.Rules), len(testRules))
	}
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful == nil || *inv.ExecutionSuccessful {
		t.Errorf("executionSuccessful = %v, want false", inv.ExecutionSuccessful)
	}
	if len(inv.Notifications) != 1 || inv.Notifications[0].Level != "error" ||
		!strings.Contains(inv.Notifications[0].Message.Text, "undefined: nope") {
		t.Errorf("notifications = %+v", inv.Notifications)
	}
}

// TestDisabledRule: a rule the run did not report is still in the
// catalogue, with enabled false written out (not omitted, which a reader
// may take as true); the others say true.
func TestDisabledRule(t *testing.T) {
	rules := append([]sarifreport.Rule{}, testRules...)
	rules[1].Disabled = true
	log := writeAndParse(t, sarifreport.Tool{Name: "syncio", Rules: rules}, sarifreport.Run{SrcRoot: t.TempDir()})
	got := log.Runs[0].Tool.Driver.Rules
	if len(got) != 2 {
		t.Fatalf("rules = %d, want 2", len(got))
	}
	for i, want := range []bool{true, false} {
		if e := got[i].DefaultConfiguration.Enabled; e == nil || *e != want {
			t.Errorf("rule %s enabled = %v, want %v", *got[i].ID, e, want)
		}
	}
}

// TestNoticesAfterWarnings: a notice (what the run looked at) is a tool
// execution notification of level note, after the warnings, and leaves
// the invocation successful: a run with no result still says what it saw.
func TestNoticesAfterWarnings(t *testing.T) {
	tool := sarifreport.Tool{Name: "syncio", Rules: testRules}
	log := writeAndParse(t, tool, sarifreport.Run{
		SrcRoot:  t.TempDir(),
		Warnings: []string{"warning: package example.com/web registers routes but no request root was found in it"},
		Notices:  []string{"roots: 2 request handlers (net/http 2; by signature 2); 2 registration calls, every handler resolved"},
	})
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful == nil || !*inv.ExecutionSuccessful {
		t.Errorf("executionSuccessful = %v, want true", inv.ExecutionSuccessful)
	}
	var got []string
	for _, n := range inv.Notifications {
		got = append(got, n.Level+": "+n.Message.Text)
	}
	want := []string{
		"warning: warning: package example.com/web registers routes but no request root was found in it",
		"note: roots: 2 request handlers (net/http 2; by signature 2); 2 registration calls, every handler resolved",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notifications:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPropertiesAndNotes: syncio -confirm's additions, a finding's property
// bag and a note (under NoteRule, level note) per uncovered site, are valid
// SARIF.
func TestPropertiesAndNotes(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "h.go")
	if err := os.WriteFile(file, []byte("package h\n\nfunc h() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tool := sarifreport.Tool{Name: "syncio", Rules: testRules}
	log := writeAndParse(t, tool, sarifreport.Run{
		SrcRoot: root,
		Findings: []sarifreport.Finding{{RuleID: "SIO001", Message: "m (SIO001)",
			Pos:        token.Position{Filename: file, Line: 3, Column: 1},
			Properties: map[string]any{"syncio/confirmed": true, "syncio/requestShare": 0.25}}},
		Notes: []sarifreport.Note{{Message: "seen blocked", File: file, Line: 3,
			Properties: map[string]any{"syncio/holdingWorker": true}}},
	})
	run := log.Runs[0]
	if len(run.Results) != 2 {
		t.Fatalf("%d results, want the finding and the note", len(run.Results))
	}
	f, n := run.Results[0], run.Results[1]
	if f.Properties["syncio/confirmed"] != true || f.Properties["syncio/requestShare"] != 0.25 {
		t.Errorf("finding properties %v", f.Properties)
	}
	if *n.RuleID != sarifreport.NoteRule.ID || n.Level != "note" || n.Properties["syncio/holdingWorker"] != true ||
		*n.Locations[0].PhysicalLocation.Region.StartLine != 3 {
		t.Errorf("note: rule %s level %s properties %v", *n.RuleID, n.Level, n.Properties)
	}
	rules := run.Tool.Driver.Rules
	if last := rules[len(rules)-1]; *last.ID != sarifreport.NoteRule.ID || *n.RuleIndex != len(rules)-1 {
		t.Errorf("note rule not in the driver's rules at the note's index")
	}
}

func TestBuildErrors(t *testing.T) {
	tool := sarifreport.Tool{Name: "syncio", Rules: testRules}
	if _, err := sarifreport.Build(tool, sarifreport.Run{SrcRoot: "relative/dir"}); err == nil {
		t.Error("relative source root accepted")
	}
	noRule := sarifreport.Finding{Message: "no id", Pos: token.Position{Filename: "/x/a.go", Line: 1, Column: 1}}
	if _, err := sarifreport.Build(tool, sarifreport.Run{SrcRoot: "/x", Findings: []sarifreport.Finding{noRule}}); err == nil {
		t.Error("finding without rule ID and no fallback accepted")
	}
	tool.FallbackRule = "syncio"
	rep, err := sarifreport.Build(tool, sarifreport.Run{SrcRoot: "/x", Findings: []sarifreport.Finding{noRule}})
	if err != nil {
		t.Fatalf("with fallback: %v", err)
	}
	if got := *rep.Runs[0].Results[0].RuleID; got != "syncio" {
		t.Errorf("fallback ruleId = %q", got)
	}
	noLine := sarifreport.Finding{RuleID: "SIO001", Message: "m", Pos: token.Position{Filename: "/x/a.go"}}
	if _, err := sarifreport.Build(tool, sarifreport.Run{SrcRoot: "/x", Findings: []sarifreport.Finding{noLine}}); err == nil {
		t.Error("finding without a line accepted")
	}
}

// TestSchemaValidationIsLive guards the schema check used above: a log with
// a level outside the schema's enum must fail validation, or a passing
// writeAndParse would prove nothing.
func TestSchemaValidationIsLive(t *testing.T) {
	f := sarifreport.Finding{RuleID: "SIO001", Message: "m", Pos: token.Position{Filename: "/x/a.go", Line: 1, Column: 1}}
	rep, err := sarifreport.Build(sarifreport.Tool{Name: "syncio", Rules: testRules},
		sarifreport.Run{SrcRoot: "/x", Findings: []sarifreport.Finding{f}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("valid log rejected: %v", err)
	}
	rep.Runs[0].Results[0].Level = "high"
	if err := rep.Validate(); err == nil {
		t.Error("log with level \"high\" passed schema validation")
	}
}

// go/token columns count bytes; SARIF viewers count UTF-16 code units.
func TestColumnsAreUTF16(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a.go")
	// "é" is 2 bytes and 1 unit; "𝄞" is 4 bytes and 2 units.
	line := "\tx := \"é𝄞\"; call()"
	if err := os.WriteFile(file, []byte("package a\n"+line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	byteCol := strings.Index(line, "call") + 1
	endByteCol := byteCol + len("call()")
	f := sarifreport.Finding{
		RuleID:  "SIO001",
		Message: "m (SIO001)",
		Pos:     token.Position{Filename: file, Line: 2, Column: byteCol},
		End:     token.Position{Filename: file, Line: 2, Column: endByteCol},
	}
	rep, err := sarifreport.Build(sarifreport.Tool{Name: "syncio", Rules: testRules},
		sarifreport.Run{SrcRoot: root, Findings: []sarifreport.Finding{f}})
	if err != nil {
		t.Fatal(err)
	}
	region := rep.Runs[0].Results[0].Locations[0].PhysicalLocation.Region
	// 16 bytes before "call" but 13 units: é saves one, 𝄞 saves two.
	if got, want := *region.StartColumn, 14; got != want || byteCol != 17 {
		t.Errorf("startColumn = %d (byte column %d), want %d", got, byteCol, want)
	}
	if got, want := *region.EndColumn, *region.StartColumn+len("call()"); got != want {
		t.Errorf("endColumn = %d, want %d", got, want)
	}
	if ck := rep.Runs[0].ColumnKind; ck == nil || *ck != "utf16CodeUnits" {
		t.Errorf("columnKind = %v, want utf16CodeUnits", ck)
	}
}
