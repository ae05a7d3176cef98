package analyzer

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFixPagesExist: every rule's fix page, and the suppression section
// that ignore diagnostics link, exist in this repository's docs/, so the
// URL a finding carries is not a dead link under the default base.
func TestFixPagesExist(t *testing.T) {
	t.Parallel()
	for _, r := range Rules {
		page := FixPage(r.ID)
		if _, err := os.Stat(filepath.Join("..", "docs", filepath.FromSlash(page))); err != nil {
			t.Errorf("%s: fix page docs/%s: %v", r.ID, page, err)
		}
		if !r.OptIn && !strings.HasPrefix(page, "remediation/") {
			t.Errorf("%s: fix page %s, want one under docs/remediation/", r.ID, page)
		}
	}
	file, anchor, _ := strings.Cut(SuppressionPage, "#")
	data, err := os.ReadFile(filepath.Join("..", "docs", file))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?mi)^#+ ` + anchor + `$`).Match(data) {
		t.Errorf("docs/%s has no heading for #%s", file, anchor)
	}
}

// TestDocsBase: -docs moves every diagnostic's URL under another base, the
// fix page for findings and the suppression section for ignores.
func TestDocsBase(t *testing.T) {
	t.Parallel()
	a := New(DefaultConfig())
	if err := a.Flags.Set("docs", "https://docs.example.test/syncio"); err != nil {
		t.Fatal(err)
	}
	results := cases.Run(t, a, "stale", "stale/dep")
	var findings, ignores int
	for _, res := range results {
		for _, d := range res.Diagnostics {
			want := "https://docs.example.test/syncio/" + FixPage(d.Category)
			if strings.Contains(d.Message, "syncio:ignore") {
				want = "https://docs.example.test/syncio/ci.md#suppression"
				ignores++
			} else {
				findings++
			}
			if d.URL != want {
				t.Errorf("%s: URL %q, want %q", d.Message, d.URL, want)
			}
		}
	}
	if findings == 0 || ignores == 0 {
		t.Errorf("%d findings and %d ignore diagnostics; the test needs both", findings, ignores)
	}
}

func TestDocsBaseRejected(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"docs/", "github.com/me/syncio/docs", "https://x.test/docs?ref=main", "https://x.test/docs#top", "mailto:a@b"} {
		if err := New(DefaultConfig()).Flags.Set("docs", bad); err == nil || !strings.Contains(err.Error(), "want the absolute URL of the docs/ directory") {
			t.Errorf("-docs %s: %v, want an error naming what to give", bad, err)
		}
		if _, err := (Settings{Docs: bad}).Config(); err == nil || !strings.HasPrefix(err.Error(), "docs: ") {
			t.Errorf("settings docs %s: %v, want an error naming the key", bad, err)
		}
	}
	cfg, err := Settings{Docs: "file:///srv/syncio/docs"}.Config()
	if err != nil || cfg.DocsBase != "file:///srv/syncio/docs/" {
		t.Errorf("file URL: %q %v", cfg.DocsBase, err)
	}
}
