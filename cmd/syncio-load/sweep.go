package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/syncio/syncio/loadtest/charts"
	"github.com/syncio/syncio/loadtest/report"
)

// runSweep is `syncio-load sweep`: the upload pair once per storage latency,
// each against a fresh API, then a table and a chart of the async ÷ sync
// throughput ratio against the latency. Every other flag is a run flag.
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("syncio-load sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lats := fs.String("storage-latencies", "0,5ms,20ms,50ms,100ms,200ms", "comma-separated storage latencies, one run each")
	out := fs.String("out", "", "results `folder` (default results/sweep-<timestamp>); each run writes a subfolder")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: syncio-load sweep [-storage-latencies LIST] [-out DIR] [-- run flags]\n\nRuns the upload pair (or -scenarios) once per storage latency against a fresh API,\nthen writes sweep.json, sweep.md and sweep-ratio.png/svg: async ÷ sync throughput vs latency.\nArguments after -- are passed to each run (e.g. -users 4000 -top-measure 20s).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var latencies []time.Duration
	for _, f := range strings.Split(*lats, ",") {
		f = strings.TrimSpace(f)
		if f == "0" {
			latencies = append(latencies, 0)
			continue
		}
		d, err := time.ParseDuration(f)
		if err != nil || d < 0 {
			fmt.Fprintf(stderr, "syncio-load sweep: -storage-latencies: %q is not a duration\n", f)
			return 2
		}
		latencies = append(latencies, d)
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("results", "sweep-"+time.Now().Format("20060102-150405"))
	}
	runArgs := fs.Args()
	if !hasFlag(runArgs, "scenarios") {
		runArgs = append([]string{"-scenarios", "upload"}, runArgs...)
	}
	sw := &report.Sweep{Command: "syncio-load sweep " + strings.Join(args, " ")}
	for _, lat := range latencies {
		sub := filepath.Join(dir, fmt.Sprintf("latency-%gms", float64(lat)/float64(time.Millisecond)))
		a := append(append([]string(nil), runArgs...), "-storage-latency", lat.String(), "-out", sub)
		o, err := parseRun(a, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "syncio-load sweep: %v\n", err)
			return 2
		}
		if err := attack(ctx, o, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "syncio-load sweep: latency %s: %v\n", lat, err)
			return 1
		}
		sum, err := report.ReadJSON(filepath.Join(sub, report.SummaryFile))
		if err != nil {
			fmt.Fprintf(stderr, "syncio-load sweep: %v\n", err)
			return 1
		}
		sw.Points = append(sw.Points, report.SweepPoint{
			StorageLatencyS: lat.Seconds(), Folder: sub, Upload: uploadHeadline(sum),
			LoadAvgBefore: sum.Machine.LoadAvgBefore, LoadAvgAfter: sum.Machine.LoadAvgAfter,
		})
	}
	if err := writeSweep(dir, sw); err != nil {
		fmt.Fprintf(stderr, "syncio-load sweep: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, report.SweepTable(sw.Points))
	fmt.Fprintf(stdout, "Sweep: %s (sweep.md, sweep.json, sweep-ratio.png/svg)\n", dir)
	return 0
}

func writeSweep(dir string, sw *report.Sweep) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results folder: %w", err)
	}
	if err := sw.WriteJSON(filepath.Join(dir, "sweep.json")); err != nil {
		return err
	}
	for _, format := range []string{"png", "svg"} {
		b, err := charts.Sweep(sw.Points, format)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "sweep-ratio."+format), b, 0o644); err != nil {
			return fmt.Errorf("writing the sweep chart: %w", err)
		}
	}
	return report.WriteFile(filepath.Join(dir, "sweep.md"), func(w io.Writer) error {
		return sw.WriteMarkdown(w, "sweep-ratio.png")
	})
}

// hasFlag reports whether args set -name or --name.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// uploadHeadline is the sweep point's upload headline; a run that measured
// no upload (cut short) has an empty one, with its note.
func uploadHeadline(sum *report.Summary) report.UploadHeadline {
	if sum.UploadHeadline == nil {
		return report.UploadHeadline{Headline: report.Headline{Note: "no upload scenario was measured"}}
	}
	return *sum.UploadHeadline
}
