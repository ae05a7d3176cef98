package pprofwalk_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syncio/syncio/docs/docblock"
)

const guidePath = "../../docs/remediation/pprof.md"

// A frame of a debug=1 profile: "#	0x4681c7	runtime.selectgo+0x707	/usr/local/go/src/runtime/select.go:535"
// as printed, "#	runtime.selectgo	runtime/select.go:535" as quoted (addresses
// and offsets dropped, paths relative).
type frame struct{ fn, loc string }

// stackHeadRE is the first line of a stack: "64 @ 0x..." (goroutine) or
// "1651100707213 3386 @ 0x..." (mutex, block), or "64 @ ..." as quoted.
var stackHeadRE = regexp.MustCompile(`^[0-9]+ ([0-9]+ )?@`)

var offsetRE = regexp.MustCompile(`\+0x[0-9a-f]+$`)

// parseFrame reads a "#" line of a stack, fresh or quoted.
func parseFrame(line string) (frame, bool) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "#" {
		return frame{}, false
	}
	f = f[1:]
	if strings.HasPrefix(f[0], "0x") { // fresh: the address first
		f = f[1:]
	}
	if len(f) < 2 {
		return frame{}, false
	}
	return frame{fn: offsetRE.ReplaceAllString(f[0], ""), loc: f[1]}, true
}

// parseStacks splits a debug=1 profile (or an excerpt of one) into stacks.
func parseStacks(text string) [][]frame {
	var stacks [][]frame
	for _, l := range strings.Split(text, "\n") {
		if stackHeadRE.MatchString(l) {
			stacks = append(stacks, nil)
			continue
		}
		if fr, ok := parseFrame(l); ok && len(stacks) > 0 {
			stacks[len(stacks)-1] = append(stacks[len(stacks)-1], fr)
		}
	}
	return stacks
}

// excerpt is a quote of the script's output in the guide: the text block
// after a "<!-- pprofwalk: DIR/FILE -->" marker, FILE being one the script
// writes (a debug=1 profile, or metrics.txt).
type excerpt struct {
	line int    // of the block in the guide, 1-based
	file string // e.g. "sync/goroutine.txt"
	text string
}

var markerRE = regexp.MustCompile(`^<!-- pprofwalk: (\S+) -->$`)

// guideExcerpts returns the guide's excerpts and the body of its
// "<!-- block: pprofwalk -->" block, the command the reader runs.
func guideExcerpts(t *testing.T) (ex []excerpt, command string) {
	t.Helper()
	data, err := os.ReadFile(guidePath)
	if err != nil {
		t.Fatal(err)
	}
	b, err := docblock.Find(string(data), "pprofwalk")
	if err != nil {
		t.Fatalf("docs/remediation/pprof.md: %v", err)
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		m := markerRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j == len(lines) || !strings.HasPrefix(lines[j], "```") {
			t.Fatalf("docs/remediation/pprof.md:%d: the marker must be followed by a code block", i+1)
		}
		end := j + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		if end == len(lines) {
			t.Fatalf("docs/remediation/pprof.md:%d: unterminated code block", j+1)
		}
		ex = append(ex, excerpt{line: j + 1, file: m[1], text: strings.Join(lines[j+1:end], "\n")})
		i = end
	}
	return ex, b.Body
}

// matches says whether the fresh frame f is the quoted frame q: the same
// function and, for a file of this repository, the same file and line (so a
// moved line fails); for a file outside it (the standard library, modules),
// the same file, whatever its line in this Go version.
func matches(root string, q, f frame) bool {
	if q.fn != f.fn {
		return false
	}
	qfile, _, _ := strings.Cut(q.loc, ":")
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(qfile))); err == nil {
		return strings.HasSuffix(f.loc, "/"+q.loc)
	}
	ffile, _, _ := strings.Cut(f.loc, ":")
	return strings.HasSuffix(ffile, "/"+qfile)
}

// contains says whether fresh holds every quoted frame, in order (the quote
// may drop frames).
func contains(root string, fresh, quoted []frame) bool {
	i := 0
	for _, f := range fresh {
		if i < len(quoted) && matches(root, quoted[i], f) {
			i++
		}
	}
	return i == len(quoted)
}

// TestWalkthrough runs tools/pprofwalk/run.sh, as the guide tells the reader
// to, and checks that each stack quoted from its output in the guide is in
// the fresh output: every function, in order, at the same file and line for
// this repository's files. Refactoring api/profile.go (or router.go, pool.go)
// fails it until the guide is re-quoted from a new run.
func TestWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three short load tests, about 30 s")
	}
	excerpts, command := guideExcerpts(t)
	if want := "tools/pprofwalk/run.sh /tmp/pprofwalk"; strings.TrimSpace(command) != want {
		t.Errorf("docs/remediation/pprof.md: the <!-- block: pprofwalk --> block is %q, want %q", command, want)
	}
	if len(excerpts) == 0 {
		t.Fatal("docs/remediation/pprof.md quotes no <!-- pprofwalk: FILE --> excerpt")
	}

	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "tools/pprofwalk/run.sh"), out)
	cmd.Env = append(os.Environ(), "PPROFWALK_BIN="+t.TempDir())
	// On timeout, SIGTERM lets the script's EXIT trap stop the API and the
	// load generator; SIGKILL (after WaitDelay) would orphan them.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("run.sh: %v\n%s", err, log.String())
	}
	t.Logf("run.sh took %v", time.Since(start).Round(time.Second))

	for _, ex := range excerpts {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(ex.file)))
		if err != nil {
			t.Errorf("docs/remediation/pprof.md:%d: %v", ex.line, err)
			continue
		}
		fresh := parseStacks(string(data))
		quoted := parseStacks(ex.text)
		if len(quoted) == 0 {
			// Not a profile (metrics.txt): each quoted series is there.
			series := map[string]bool{}
			for _, l := range strings.Split(string(data), "\n") {
				if f := strings.Fields(l); len(f) > 0 {
					series[f[0]] = true
				}
			}
			for _, l := range strings.Split(ex.text, "\n") {
				if f := strings.Fields(l); len(f) > 0 && !series[f[0]] {
					t.Errorf("docs/remediation/pprof.md:%d: %s has no %s\n%s", ex.line, ex.file, f[0], data)
				}
			}
			continue
		}
		for _, q := range quoted {
			if len(q) == 0 {
				t.Errorf("docs/remediation/pprof.md:%d: a stack quoted from %s has no frame", ex.line, ex.file)
				continue
			}
			found := false
			for _, f := range fresh {
				if contains(root, f, q) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("docs/remediation/pprof.md:%d: no stack of a fresh %s has the quoted frames %v; re-run tools/pprofwalk/run.sh and re-quote it\n%s",
					ex.line, ex.file, q, data)
			}
		}
	}
}

// TestMatchesQuote checks the comparison on a fresh stack: a moved line of
// this repository fails, a standard-library line may differ, frames may be
// dropped but not reordered.
func TestMatchesQuote(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fresh := parseStacks(`1 2 @ 0x1 0x2
#	0xd70a12	sync.(*Mutex).Unlock+0x12					/usr/local/go/src/sync/mutex.go:65
#	0xd70979	github.com/syncio/syncio/api.(*app).serializedBlocking+0xd9	/src/syncio/api/profile.go:115
#	0xb3751e	github.com/gin-gonic/gin.(*Context).Next+0x5e			/root/go/pkg/mod/github.com/gin-gonic/gin@v1.12.0/context.go:192
#	0xd72644	github.com/syncio/syncio/api.(*app).admit+0x144			/src/syncio/api/router.go:86
`)
	if len(fresh) != 1 || len(fresh[0]) != 4 {
		t.Fatalf("parsed %v", fresh)
	}
	for _, c := range []struct {
		quote string
		want  bool
	}{
		{"1 @ ...\n#\tsync.(*Mutex).Unlock\tsync/mutex.go:65\n#\tgithub.com/syncio/syncio/api.(*app).serializedBlocking\tapi/profile.go:115\n#\tgithub.com/syncio/syncio/api.(*app).admit\tapi/router.go:86", true},
		{"1 @ ...\n#\tsync.(*Mutex).Unlock\tsync/mutex.go:99\n#\tgithub.com/syncio/syncio/api.(*app).serializedBlocking\tapi/profile.go:115", true},
		{"1 @ ...\n#\tgithub.com/syncio/syncio/api.(*app).serializedBlocking\tapi/profile.go:114", false},
		{"1 @ ...\n#\tgithub.com/syncio/syncio/api.(*app).syncProfile\tapi/profile.go:115", false},
		{"1 @ ...\n#\tgithub.com/syncio/syncio/api.(*app).admit\tapi/router.go:86\n#\tsync.(*Mutex).Unlock\tsync/mutex.go:65", false},
	} {
		q := parseStacks(c.quote)
		if len(q) != 1 {
			t.Fatalf("parsed %q as %v", c.quote, q)
		}
		if got := contains(root, fresh[0], q[0]); got != c.want {
			t.Errorf("contains(%v) = %v, want %v", q[0], got, c.want)
		}
	}
}
