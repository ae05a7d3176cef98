package loadtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/syncio/syncio/loadtest/charts"
	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/scrape"
)

// WriteOutputs writes vegeta's HTML plot of sources, summary.json,
// steps.csv, the charts and summary.md into dir. A plot that cannot be
// drawn does not fail the run: the figures were measured, and losing
// summary.md to a drawing would turn a good run into an exit 1 that no
// -assert can prevent. plot.html then says why it is empty, and so does a
// warning in the summary.
func WriteOutputs(dir string, sum *report.Summary, sources []report.PlotSource, log *slog.Logger) error {
	title := fmt.Sprintf("syncio load: %s profile", sum.Profile)
	plotPath := filepath.Join(dir, "plot.html")
	if err := report.WriteFile(plotPath, func(w io.Writer) error {
		return report.WritePlot(w, title, sources)
	}); err != nil {
		why := fmt.Sprintf("plot.html: vegeta's latency plot could not be drawn (%v); the tables, charts and JSON are complete", err)
		sum.Warnings = append(sum.Warnings, why)
		if log != nil {
			log.Warn(why)
		}
		if err := report.WriteFile(plotPath, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "<!doctype html><title>%s</title><p>%s</p>\n", html.EscapeString(title), html.EscapeString(why))
			return err
		}); err != nil {
			return err
		}
	}
	if err := sum.WriteJSON(filepath.Join(dir, report.SummaryFile)); err != nil {
		return err
	}
	if err := report.WriteFile(filepath.Join(dir, "steps.csv"), sum.WriteCSV); err != nil {
		return err
	}
	pngs, err := charts.WriteAll(dir, sum)
	if err != nil {
		return err
	}
	return report.WriteFile(filepath.Join(dir, "summary.md"), func(w io.Writer) error {
		return sum.WriteMarkdown(w, pngs)
	})
}

// writeSamples keeps the raw /metrics samples, one JSON object a line.
func writeSamples(path string, samples []scrape.Sample) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	for _, s := range samples {
		if err := enc.Encode(s); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// Report merges result folders into out (see report.Merge) and writes the
// same outputs as a run. out may be the only source folder, to redraw it.
func Report(dirs []string, out string, log *slog.Logger) error {
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	for _, d := range dirs {
		if len(dirs) > 1 && abs(d) == abs(out) {
			return fmt.Errorf("-out %s is one of the merged folders; pick a new folder", out)
		}
	}
	sum, err := report.Merge(dirs)
	if err != nil {
		return err
	}
	if len(dirs) == 1 && abs(dirs[0]) == abs(out) {
		// Redrawing in place: keep pointing at the folder's result files.
		src, err := report.ReadJSON(filepath.Join(out, report.SummaryFile))
		if err != nil {
			return err
		}
		for i := range sum.Scenarios {
			for _, sc := range src.Scenarios {
				if sc.Name == sum.Scenarios[i].Name {
					sum.Scenarios[i].ResultsFile = sc.ResultsFile
				}
			}
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("creating output folder: %w", err)
	}
	var sources []report.PlotSource
	for _, d := range dirs {
		src, err := report.ReadJSON(filepath.Join(d, report.SummaryFile))
		if err != nil {
			return err
		}
		for _, sc := range src.Scenarios {
			ps := report.PlotSource{Path: filepath.Join(d, sc.ResultsFile)}
			if len(dirs) > 1 {
				ps.Attack = filepath.Base(d) + ": " + sc.Name
			}
			sources = append(sources, ps)
		}
	}
	return WriteOutputs(out, sum, sources, log)
}
