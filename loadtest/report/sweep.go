package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Sweep is sweep.json: the upload headline at each storage latency of a
// `syncio-load sweep`, one run (and results folder) per latency.
type Sweep struct {
	Command string       `json:"command,omitempty"`
	Points  []SweepPoint `json:"points"`
}

// SweepPoint is one latency's run.
type SweepPoint struct {
	StorageLatencyS float64        `json:"storage_latency_s"`
	Folder          string         `json:"folder"`
	LoadAvgBefore   string         `json:"loadavg_before,omitempty"`
	LoadAvgAfter    string         `json:"loadavg_after,omitempty"`
	Upload          UploadHeadline `json:"upload_headline"`
}

// WriteJSON writes the sweep to path.
func (s *Sweep) WriteJSON(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding sweep: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing sweep: %w", err)
	}
	return nil
}

// WriteMarkdown writes the sweep's table; chart is the PNG to embed, if any.
func (s *Sweep) WriteMarkdown(w io.Writer, chart string) error {
	var b strings.Builder
	b.WriteString("# syncio upload sweep: async ÷ sync throughput vs storage latency\n\n")
	if s.Command != "" {
		fmt.Fprintf(&b, "Command: `%s`\n\n", s.Command)
	}
	b.WriteString(SweepTable(s.Points))
	if chart != "" {
		fmt.Fprintf(&b, "\n![async ÷ sync throughput vs storage latency](%s)\n", chart)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing sweep markdown: %w", err)
	}
	return nil
}

// SweepTable is the sweep as a markdown table.
func SweepTable(points []SweepPoint) string {
	var b strings.Builder
	b.WriteString("| storage latency ms | users | sync OK/s | async OK/s | async ÷ sync | sync mean s | async mean s | sync 503 | async non-OK | API RSS max MB | load avg before |\n")
	b.WriteString("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, p := range points {
		h := p.Upload
		fmt.Fprintf(&b, "| %g | %d | %.1f | %.1f | %s | %s | %s | %d | %d | %s | %s |\n",
			p.StorageLatencyS*1000, h.Users, h.SyncThroughputRPS, h.AsyncThroughputRPS, Fig(h.ThroughputRatio, 2),
			Fig(h.SyncLatencyMeanS, 3), Fig(h.AsyncLatencyMeanS, 3), h.Sync503, h.AsyncErrors, Fig(h.APIRSSMaxMB, 0), p.LoadAvgBefore)
	}
	return b.String()
}
