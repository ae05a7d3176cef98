package charts

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syncio/syncio/loadtest/report"
)

func summary() *report.Summary {
	return &report.Summary{Scenarios: []report.Scenario{
		// The sync top step has no OK response yet: zero cannot go on a log axis.
		{Name: "sync-profile", Steps: []report.Step{{Users: 1, ThroughputRPS: 0.5, LatencyMeanS: ptr(2)}, {Users: 1000, ThroughputRPS: 50, LatencyMeanS: ptr(20), QueueLengthMax: ptr(900)}, {Users: 4000, Status503RPS: 900, QueueLengthMax: ptr(3000)}}},
		{Name: "async-profile", Steps: []report.Step{{Users: 1, ThroughputRPS: 0.5, LatencyMeanS: ptr(2)}, {Users: 1000, ThroughputRPS: 500, LatencyMeanS: ptr(2)}, {Users: 4000, ThroughputRPS: 1990, LatencyMeanS: ptr(2.01)}}},
	}}
}

// xmlRoot parses the whole document and returns its root element's name.
func xmlRoot(t *testing.T, b []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return root
		}
		if err != nil {
			t.Fatalf("invalid XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
}

func TestLogChartSkipsNonPositivePoints(t *testing.T) {
	p, err := All[0].Plot(summary())
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min <= 0 || p.Y.Min > 0.5 || p.Y.Max < 1990 || p.Y.Max > 4000 {
		t.Errorf("throughput axis %v..%v, want about 0.5..1990 (the zero left out)", p.Y.Min, p.Y.Max)
	}
}

func TestEmptySummaryStillDraws(t *testing.T) {
	// A log axis with no positive point has no valid range.
	if _, err := All[0].Render(&report.Summary{}, "png"); err != nil {
		t.Errorf("%s on no data: %v", All[0].Name, err)
	}
}

// TestWriteAll checks every chart is written as a valid PNG and SVG.
func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	pngs, err := WriteAll(dir, summary())
	if err != nil {
		t.Fatal(err)
	}
	if len(pngs) != len(All) {
		t.Errorf("pngs = %v", pngs)
	}
	for _, c := range All {
		b, err := os.ReadFile(filepath.Join(dir, c.Name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", c.Name, err)
		}
		if r := img.Bounds(); r.Dx() < 100 || r.Dy() < 100 {
			t.Errorf("%s: PNG is %v", c.Name, r)
		}
		b, err = os.ReadFile(filepath.Join(dir, c.Name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if root := xmlRoot(t, b); root != "svg" {
			t.Errorf("%s: SVG root element is %q", c.Name, root)
		}
	}
}
func TestLogTicks(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{}).Ticks(1.5, 61) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "2 5 10 20 50" {
		t.Errorf("ticks for 1.5..61 = %q, want 2 5 10 20 50", got)
	}
	if ticks := (logTicks{}).Ticks(3, 4); len(ticks) == 0 {
		t.Error("no ticks for a narrow range")
	}
}

func ptr(v float64) *float64 { return &v }
