package loadtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syncio/syncio/loadtest/report"
)

// A run that measured correctly ends 0 even when vegeta's plot cannot be
// drawn: summary.md and summary.json are written, plot.html and a warning
// say why the plot is missing.
func TestWriteOutputsSurvivesAPlotThatCannotBeDrawn(t *testing.T) {
	dir := t.TempDir()
	bogus := filepath.Join(dir, "bogus.bin")
	if err := os.WriteFile(bogus, []byte("not vegeta results"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := &report.Summary{Profile: "quick", Scenarios: []report.Scenario{{Name: "profile-sync",
		Steps: []report.Step{{Users: 1, DurationS: 1, Requests: 1, OK: 1}}}}}
	if err := WriteOutputs(dir, sum, []report.PlotSource{{Path: bogus}}, nil); err != nil {
		t.Fatalf("WriteOutputs failed on an undrawable plot: %v", err)
	}
	for _, f := range []string{"summary.md", report.SummaryFile, "steps.csv", "plot.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, "plot.html"))
	if !strings.Contains(string(page), "could not be drawn") {
		t.Errorf("plot.html does not say why it is empty: %q", page)
	}
	back, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Warnings) != 1 || !strings.Contains(back.Warnings[0], "plot.html") {
		t.Errorf("summary.json warnings %q, want the plot's", back.Warnings)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	if !strings.Contains(string(md), "could not be drawn") {
		t.Error("summary.md does not carry the plot's warning")
	}
}
