package casetest

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"sort"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// RunWithFixes is Run, then applies every suggested fix of each root's
// diagnostics together and compares each changed file, gofmt'ed, with the
// file of the same name plus ".golden" (also gofmt'ed), as
// analysistest.RunWithSuggestedFixes does for golden files without
// sections. A file with a golden file and no fix must equal it too.
func (tr *Tree) RunWithFixes(t testing.TB, a *analysis.Analyzer, patterns ...string) []*Result {
	t.Helper()
	results := tr.Run(t, a, patterns...)
	for _, r := range results {
		edits := map[string][]analysis.TextEdit{}
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					name := r.Fset.File(e.Pos).Name()
					edits[name] = append(edits[name], e)
				}
			}
		}
		for _, name := range r.Action.Package.CompiledGoFiles {
			golden, err := os.ReadFile(name + ".golden")
			if os.IsNotExist(err) {
				if len(edits[name]) > 0 {
					t.Errorf("%s: %d fix edits and no %s.golden to compare them with", name, len(edits[name]), name)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := apply(r, src, edits[name])
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if g, err := format.Source(got); err == nil {
				got = g
			} else {
				t.Errorf("%s: the fixed file does not parse: %v\n%s", name, err, got)
				continue
			}
			if g, err := format.Source(golden); err == nil {
				golden = g
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("%s: fixed file differs from %s.golden:\n--- got\n%s\n--- golden\n%s", name, name, got, golden)
			}
		}
	}
	return results
}

// apply applies the edits to src, once each; two different edits that
// overlap are an error.
func apply(r *Result, src []byte, edits []analysis.TextEdit) ([]byte, error) {
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	seen := map[span]bool{}
	for _, e := range edits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		s := span{r.Fset.Position(e.Pos).Offset, r.Fset.Position(end).Offset, string(e.NewText)}
		if !seen[s] {
			seen[s] = true
			spans = append(spans, s)
		}
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end < spans[j].end
	})
	var out bytes.Buffer
	at := 0
	for _, s := range spans {
		if s.start < at {
			return nil, fmt.Errorf("fix edits overlap at offset %d", s.start)
		}
		out.Write(src[at:s.start])
		out.WriteString(s.text)
		at = s.end
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}
