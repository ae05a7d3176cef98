package remediation_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const guidePath = "../../docs/remediation.md"

// guidePages returns the guide's first page, its pages under
// docs/remediation/ (one per rule, pprof, the demo); rulePages are the
// rule pages, held to the same test.
func guidePages(t *testing.T) []string {
	t.Helper()
	more, err := filepath.Glob("../../docs/remediation/*.md")
	if err != nil || len(more) == 0 {
		t.Fatalf("no pages under docs/remediation/ (%v)", err)
	}
	return append([]string{guidePath}, more...)
}

// rulePages returns the rule pages, docs/rules/*.md: what each rule flags,
// with its before/after code, held to the same test as the guide.
func rulePages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/rules/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages under docs/rules/ (%v)", err)
	}
	return pages
}

// pageName is how a failure names a page: "docs/remediation/SIO002.md".
func pageName(path string) string { return strings.TrimPrefix(filepath.ToSlash(path), "../../") }

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}

// slugRE drops what GitHub drops when it turns a heading into an anchor.
var slugRE = regexp.MustCompile(`[^\p{L}\p{N} _-]`)

// anchors returns the anchors of a Markdown page's headings.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	inCode := false
	for _, l := range readLines(t, path) {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		out[strings.ReplaceAll(slugRE.ReplaceAllString(strings.ToLower(h), ""), " ", "-")] = true
	}
	return out
}

// sourceRE finds the file a code block quotes, named in a link on the line
// before the block: an example (built, vetted, linted by lint_test.go and
// tested), the demo API (api/, built, tested and clean under syncio), or
// the analyzer's test data, which analysistest checks against its // want
// comments (a fix's output is a .go.golden file there).
var sourceRE = regexp.MustCompile(`\((?:\.\./)+((?:examples/remediation|analyzer/testdata/src|api)/[^)#]+\.go(?:\.golden)?)\)`)

// TestGuideQuotesExamples checks that every Go block in the guide and in
// the rule pages is a verbatim excerpt of the file linked just before it,
// so the docs cannot drift from code that the linter test checks; and that
// every before and after package is quoted at least once.
func TestGuideQuotesExamples(t *testing.T) {
	quoted := map[string]bool{} // example dir, e.g. "locks/after"
	guide, rules := 0, 0
	for _, page := range guidePages(t) {
		guide += quotes(t, page, quoted)
	}
	for _, page := range rulePages(t) {
		rules += quotes(t, page, quoted)
	}
	t.Logf("Go blocks checked: %d in the guide, %d in docs/rules", guide, rules)
	if guide == 0 || rules == 0 {
		t.Fatal("the guide or the rule pages have no Go blocks")
	}
	for _, ex := range examples(t) {
		if !quoted[ex.dir] {
			t.Errorf("examples/remediation/%s is never quoted in the guide", ex.dir)
		}
	}
}

// linkRE finds relative Markdown links.
var linkRE = regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)

// codeSpanRE finds inline code, where "hooks[name](x)" is Go, not a link.
var codeSpanRE = regexp.MustCompile("`[^`]*`")

// anchorRE finds links to a heading of the same page.
var anchorRE = regexp.MustCompile(`\]\(#([^)]+)\)`)

// pendingNote marks a line whose link points at a page another part of the
// project has not written yet. The link may dangle while the note is
// there; once the page exists the note is stale and must go.
const pendingNote = "(not written yet)"

// TestDocsLinks checks that relative links in the guide, the rule pages
// and the docs index point at files (and Markdown headings) that exist, and that the
// index links every page under docs/.
func TestDocsLinks(t *testing.T) {
	for _, page := range append(append(guidePages(t), rulePages(t)...), "../../docs/README.md") {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(data), "\n") {
			line = codeSpanRE.ReplaceAllString(line, "``")
			pending := strings.Contains(line, pendingNote)
			missing := 0
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				target := filepath.Join(filepath.Dir(page), filepath.FromSlash(m[1]))
				if _, err := os.Stat(target); err != nil {
					missing++
					if !pending {
						t.Errorf("%s:%d links %s, which does not exist", page, n+1, m[1])
					}
					continue
				}
				if frag := strings.TrimPrefix(m[2], "#"); frag != "" && strings.HasSuffix(target, ".md") && !anchors(t, target)[frag] {
					t.Errorf("%s:%d links %s#%s, which is not a heading there", page, n+1, m[1], frag)
				}
			}
			for _, m := range anchorRE.FindAllStringSubmatch(line, -1) {
				if !anchors(t, page)[m[1]] {
					t.Errorf("%s:%d links #%s, which is not a heading of the page", page, n+1, m[1])
				}
			}
			if pending && missing == 0 {
				t.Errorf("%s:%d says %s, but every page it links exists: drop the note", page, n+1, pendingNote)
			}
		}
	}
	index, err := os.ReadFile("../../docs/README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := filepath.Glob("../../docs/rules/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(pages, rules...) {
		rel, err := filepath.Rel("../../docs", p)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if rel != "README.md" && !strings.Contains(string(index), "("+rel+")") {
			t.Errorf("docs/README.md does not link %s", rel)
		}
	}
}

// quotes checks the Go blocks of one page, marks the example directories
// they quote, and returns how many there are. A block inside a list item
// is indented; it is checked without its indentation.
func quotes(t *testing.T, page string, quoted map[string]bool) int {
	t.Helper()
	lines := readLines(t, page)
	name := pageName(page)
	blocks := 0
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimLeft(lines[i], " \t")
		indent := lines[i][:len(lines[i])-len(fence)]
		if fence != "```go" {
			if strings.HasPrefix(fence, "```") && strings.TrimPrefix(fence, "```") != "" &&
				strings.Contains(fence, "go") {
				t.Errorf("%s:%d: write Go blocks as ```go", name, i+1)
			}
			continue
		}
		start := i + 1
		end := start
		for end < len(lines) && lines[end] != indent+"```" {
			end++
		}
		if end == len(lines) {
			t.Fatalf("%s:%d: unterminated code block", name, i+1)
		}
		body := make([]string, 0, end-start)
		for _, l := range lines[start:end] {
			if l != "" && !strings.HasPrefix(l, indent) {
				t.Errorf("%s:%d: a line of an indented block is not indented as its fence", name, start)
			}
			body = append(body, strings.TrimPrefix(l, indent))
		}
		block := strings.Join(body, "\n") + "\n"
		i = end
		blocks++
		if strings.TrimSpace(block) == "" {
			// An empty block is an excerpt of every file: it would pass
			// while showing the reader nothing.
			t.Errorf("%s:%d: empty Go block", name, start)
			continue
		}

		// The link sits on the last non-empty line before the fence.
		j := start - 2
		for j >= 0 && strings.TrimSpace(lines[j]) == "" {
			j--
		}
		m := []string(nil)
		if j >= 0 {
			m = sourceRE.FindStringSubmatch(lines[j])
		}
		if m == nil {
			t.Errorf("%s:%d: the line before a Go block must link the file it quotes", name, start)
			continue
		}
		rel, example := strings.CutPrefix(m[1], "examples/remediation/")
		path := filepath.FromSlash(rel)
		if !example {
			path = filepath.Join("..", "..", filepath.FromSlash(m[1]))
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s:%d: %v", name, start, err)
			continue
		}
		if !strings.Contains(string(src), block) {
			t.Errorf("%s:%d: block is not a verbatim excerpt of %s:\n%s", name, start, m[1], block)
			continue
		}
		if example {
			quoted[filepath.ToSlash(filepath.Dir(rel))] = true
		}
	}
	return blocks
}
