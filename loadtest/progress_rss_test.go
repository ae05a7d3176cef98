package loadtest

import (
	"strings"
	"testing"

	"github.com/syncio/syncio/loadtest/report"
)

// TestProgressHeadlinesUnknownRSS: the done line's upload headline says
// why the API's RSS is unknown instead of "API RSS max 0 MB".
func TestProgressHeadlinesUnknownRSS(t *testing.T) {
	ratio := 1.4
	sum := &report.Summary{UploadHeadline: &report.UploadHeadline{Headline: report.Headline{ThroughputRatio: &ratio}}}
	got := progressHeadlines(sum)
	if strings.Contains(got, "0 MB") || !strings.Contains(got, "API RSS max – (no process_resident_memory_bytes") {
		t.Errorf("headlines %q", got)
	}
	mb := 212.0
	sum.UploadHeadline.APIRSSMaxMB = &mb
	if got := progressHeadlines(sum); !strings.Contains(got, "API RSS max 212 MB") {
		t.Errorf("headlines %q", got)
	}
}
