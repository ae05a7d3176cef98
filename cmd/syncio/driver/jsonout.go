package driver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// writeJSON writes the diagnostics of g's root packages, and the errors of
// every package, in the JSON tree of singlechecker -json
// ({"pkg": {"analyzer": [diagnostic...] or {"error": "..."}}}), with one
// field more per diagnostic: "url", its Diagnostic.URL (the finding's fix
// page), which checker.Graph.PrintJSON drops, and, where a finding is
// fixed elsewhere than at its position, "cause" and "paths" (group.go).
func writeJSON(w io.Writer, g *checker.Graph, causes map[[2]string]jsonCause) error {
	tree := map[string]map[string]any{}
	for act := range g.All() {
		var v any
		switch {
		case act.Err != nil:
			v = jsonError{act.Err.Error()}
		case act.IsRoot && len(act.Diagnostics) > 0:
			diags := make([]jsonDiagnostic, 0, len(act.Diagnostics))
			for _, d := range act.Diagnostics {
				jd := toJSON(act, d)
				if c, ok := causes[[2]string{jd.Posn, jd.Message}]; ok && c.Cause != jd.Posn {
					jd.Cause, jd.Paths = c.Cause, c.Paths
				}
				diags = append(diags, jd)
			}
			v = diags
		default:
			continue
		}
		m := tree[act.Package.ID]
		if m == nil {
			m = map[string]any{}
			tree[act.Package.ID] = m
		}
		m[act.Analyzer.Name] = v
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return fmt.Errorf("encoding JSON: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

type jsonError struct {
	Err string `json:"error"`
}

// jsonDiagnostic is x/tools' JSONDiagnostic with the URL.
type jsonDiagnostic struct {
	Category       string        `json:"category,omitempty"`
	URL            string        `json:"url,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated `json:"related,omitempty"`
	// Cause is where the finding is fixed when that is not its own
	// position (group.go), and Paths how many request paths' findings
	// share it.
	Cause string `json:"cause,omitempty"`
	Paths int    `json:"paths,omitempty"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

func toJSON(act *checker.Action, d analysis.Diagnostic) jsonDiagnostic {
	fset := act.Package.Fset
	jd := jsonDiagnostic{
		Category: d.Category,
		URL:      d.URL,
		Posn:     fset.Position(d.Pos).String(),
		End:      fset.Position(cmp.Or(d.End, d.Pos)).String(),
		Message:  d.Message,
	}
	for _, fix := range d.SuggestedFixes {
		jf := jsonFix{Message: fix.Message}
		for _, e := range fix.TextEdits {
			jf.Edits = append(jf.Edits, jsonEdit{
				Filename: fset.Position(e.Pos).Filename,
				Start:    fset.Position(e.Pos).Offset,
				End:      fset.Position(e.End).Offset,
				New:      string(e.NewText),
			})
		}
		jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
	}
	for _, r := range d.Related {
		jd.Related = append(jd.Related, jsonRelated{
			Posn:    fset.Position(r.Pos).String(),
			End:     fset.Position(cmp.Or(r.End, r.Pos)).String(),
			Message: r.Message,
		})
	}
	return jd
}
