package charts

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/syncio/syncio/loadtest/report"
)

// Chart is one figure drawn from a summary.
type Chart struct {
	Name   string // file base name
	Title  string
	YLabel string
	LogY   bool
	Value  func(report.Step) float64
}

// All lists the charts written for every run.
var All = []Chart{
	{Name: "throughput", Title: "Throughput (OK responses/s) vs users", YLabel: "OK/s (log)", LogY: true,
		Value: func(s report.Step) float64 { return s.ThroughputRPS }},
	{Name: "latency", Title: "Mean latency of OK responses vs users", YLabel: "seconds (log)", LogY: true,
		Value: func(s report.Step) float64 {
			if s.LatencyMeanS == nil {
				return math.NaN() // no OK response: no latency, no point
			}
			return *s.LatencyMeanS
		}},
	{Name: "rejections", Title: "503 responses/s vs users", YLabel: "503/s",
		Value: func(s report.Step) float64 { return s.Status503RPS }},
	{Name: "queue", Title: "Max pool queue length vs users", YLabel: "queued requests",
		Value: func(s report.Step) float64 {
			if s.QueueLengthMax == nil {
				return math.NaN() // unknown: no point, rather than a 0 that reads as an empty queue
			}
			return *s.QueueLengthMax
		}},
}

var palette = []color.Color{
	color.RGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}, // sync first: red
	color.RGBA{R: 0x27, G: 0x60, B: 0xae, A: 0xff},
	color.RGBA{R: 0x27, G: 0xae, B: 0x60, A: 0xff},
	color.RGBA{R: 0x8e, G: 0x44, B: 0xad, A: 0xff},
	color.RGBA{R: 0xe6, G: 0x7e, B: 0x22, A: 0xff},
	color.RGBA{R: 0x2c, G: 0x3e, B: 0x50, A: 0xff},
	color.RGBA{R: 0x16, G: 0xa0, B: 0x85, A: 0xff},
	color.RGBA{R: 0x7f, G: 0x8c, B: 0x8d, A: 0xff},
}

// Plot builds c's plot. A log axis cannot show zero, so non-positive
// points are left out there (a sync step with no OK response yet).
func (c Chart) Plot(s *report.Summary) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = "users"
	p.Y.Label.Text = c.YLabel
	// Bottom right: the lines climb towards the top right, and the first
	// step sits at the far left.
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.XOffs = -vg.Points(8)
	p.Legend.YOffs = vg.Points(8)
	p.Add(plotter.NewGrid())
	if c.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	drawn := 0
	for i, sc := range s.Scenarios {
		var xys plotter.XYs
		for _, st := range sc.Steps {
			v := c.Value(st)
			if math.IsNaN(v) || c.LogY && v <= 0 {
				continue
			}
			xys = append(xys, plotter.XY{X: float64(st.Users), Y: v})
		}
		if len(xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("chart %s, scenario %s: %w", c.Name, sc.Name, err)
		}
		col := palette[i%len(palette)]
		line.Color = col
		line.Width = vg.Points(1.5)
		points.Color = col
		points.Shape = draw.CircleGlyph{}
		p.Add(line, points)
		p.Legend.Add(sc.Name, line, points)
		drawn++
	}
	if drawn > 0 && c.LogY {
		// Headroom so the extreme points get a labelled tick (2 s, 50 OK/s).
		p.Y.Min /= 1.5
		p.Y.Max *= 1.5
	}
	if drawn == 0 && c.LogY {
		// An empty log axis has no valid range; draw it linear instead.
		p.Y.Scale = plot.LinearScale{}
		p.Y.Tick.Marker = plot.DefaultTicks{}
	}
	return p, nil
}

// logTicks labels a log axis at 1, 2 and 5 times each power of ten:
// plot.LogTicks labels powers of ten only, which leaves a 2 s..60 s
// latency axis with a single label.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= lo {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	var ticks []plot.Tick
	for exp := math.Floor(math.Log10(lo)); exp <= math.Ceil(math.Log10(hi)); exp++ {
		decade := math.Pow(10, exp)
		for _, m := range []float64{1, 2, 5} {
			v := m * decade
			if v < lo || v > hi {
				continue
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
	}
	if len(ticks) < 2 {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	return ticks
}

// Render draws c in format ("png" or "svg").
func (c Chart) Render(s *report.Summary, format string) ([]byte, error) {
	p, err := c.Plot(s)
	if err != nil {
		return nil, err
	}
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, format)
	if err != nil {
		return nil, fmt.Errorf("chart %s as %s: %w", c.Name, format, err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("drawing chart %s as %s: %w", c.Name, format, err)
	}
	return buf.Bytes(), nil
}

// WriteAll writes every chart as PNG and SVG into dir and returns the PNG
// file names.
func WriteAll(dir string, s *report.Summary) ([]string, error) {
	var pngs []string
	for _, c := range All {
		for _, format := range []string{"png", "svg"} {
			b, err := c.Render(s, format)
			if err != nil {
				return pngs, err
			}
			name := c.Name + "." + format
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				return pngs, fmt.Errorf("writing chart: %w", err)
			}
			if format == "png" {
				pngs = append(pngs, name)
			}
		}
	}
	return pngs, nil
}

// Sweep draws the async ÷ sync upload throughput ratio against the storage
// latency, one point per run of a sweep, as PNG or SVG.
func Sweep(points []report.SweepPoint, format string) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Upload: async ÷ sync throughput vs storage latency"
	p.X.Label.Text = "storage latency per request (ms)"
	p.Y.Label.Text = "async OK/s ÷ sync OK/s"
	p.Add(plotter.NewGrid())
	var xys plotter.XYs
	for _, pt := range points {
		if pt.Upload.ThroughputRatio != nil {
			xys = append(xys, plotter.XY{X: pt.StorageLatencyS * 1000, Y: *pt.Upload.ThroughputRatio})
		}
	}
	if len(xys) > 0 {
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("sweep chart: %w", err)
		}
		line.Color, pts.Color = palette[1], palette[1]
		line.Width = vg.Points(1.5)
		pts.Shape = draw.CircleGlyph{}
		p.Add(line, pts)
		// Ratio 1 is "no gain": draw it so the crossing is visible.
		one, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}, {X: xys[len(xys)-1].X, Y: 1}})
		if err == nil {
			one.Color = palette[7]
			one.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
			p.Add(one)
		}
		p.Y.Min = 0
	}
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, format)
	if err != nil {
		return nil, fmt.Errorf("sweep chart as %s: %w", format, err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("drawing the sweep chart as %s: %w", format, err)
	}
	return buf.Bytes(), nil
}
