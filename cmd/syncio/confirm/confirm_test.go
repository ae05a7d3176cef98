package confirm

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/cmd/syncio/sarifreport"
)

// site is a report's site; the report's request time is 10 s.
func site(name string, kind blockwatch.Kind, holding string, secs float64, frames ...blockwatch.Frame) blockwatch.Site {
	return blockwatch.Site{
		Site: name, Func: "example.com/svc/" + name, Blocking: "runtime." + string(kind), Kind: kind, Holding: holding,
		HoldingWorker: holding == "pool", BlockedS: secs, Share: secs / 10, Frames: frames,
		Routes: map[string]float64{"/r": secs},
	}
}

func TestJoin(t *testing.T) {
	dir := "/src/svc"
	handlers := func(line int64) blockwatch.Frame {
		// As a -trimpath build records it: module path, not the disk path.
		return blockwatch.Frame{Func: "example.com/svc/api.h", File: "example.com/svc/api/h.go", Line: line}
	}
	rep := blockwatch.Report{
		Samples: 10, RateHz: 10, WatchedS: 2, RequestS: 10,
		Sites: []blockwatch.Site{
			site("store.get", blockwatch.Network, "pool", 4,
				blockwatch.Frame{Func: "example.com/svc/store.get", File: "example.com/svc/store/s.go", Line: 30}, handlers(12)),
			site("api.h", blockwatch.Lock, "pool", 2,
				blockwatch.Frame{Func: "example.com/svc/api.h", File: "/src/svc/api/h.go", Line: 8}),
			site("cache.wait", blockwatch.Channel, "", 1,
				blockwatch.Frame{Func: "example.com/svc/cache.wait", File: "/src/svc/cache/c.go", Line: 5}, handlers(40)),
			// Same file name in another package: must not match api/h.go.
			site("other.h", blockwatch.Sleep, "pool", 0.5,
				blockwatch.Frame{Func: "example.com/svc/other.h", File: "example.com/svc/other/h.go", Line: 12}),
		},
	}
	pos := func(line int) token.Position {
		return token.Position{Filename: "/src/svc/api/h.go", Line: line, Column: 2}
	}
	findings := []sarifreport.Finding{
		{RuleID: "SIO001", Pos: pos(12)},
		{RuleID: "SIO003", Pos: pos(20), Message: "h calls store.get, which does I/O while mu (locked at h.go:8) is held (SIO003)"},
		{RuleID: "SIO005", Pos: pos(50)},
		// A finding spanning lines 39-41 covers a frame on line 40.
		{RuleID: "SIO002", Pos: pos(39), End: token.Position{Filename: "/src/svc/api/h.go", Line: 41}},
	}
	res := Join(dir, findings, rep)

	want := []struct {
		seen            bool
		blocked, holdin float64
	}{{true, 4, 4}, {true, 2, 2}, {false, 0, 0}, {true, 1, 0}}
	for i, w := range want {
		v := res.Verdicts[i]
		if v.Seen != w.seen || v.BlockedS != w.blocked || v.HoldingWorkerS != w.holdin || v.Share != w.blocked/10 {
			t.Errorf("finding %d (%s line %d): %+v, want seen %v blocked %v holding %v share %v",
				i, findings[i].RuleID, findings[i].Pos.Line, v, w.seen, w.blocked, w.holdin, w.blocked/10)
		}
	}
	if len(res.Uncovered) != 1 || res.Uncovered[0].Site != "other.h" {
		t.Errorf("uncovered = %+v, want only other.h", res.Uncovered)
	}

	var out bytes.Buffer
	if err := res.Print(&out, findings, func(p string) string { return strings.TrimPrefix(p, dir+"/") }); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"confirm: 3 of 4 findings seen blocking under load (10 samples over 2 s, 5.0 Hz; 10.0 s of request time, 0.0 s blocked, 0.0 s of it holding a worker)",
		"api/h.go:12:2: SIO001 confirmed: blocked 40.0% of request time (4.00 s, 4.00 s holding a worker), most at store.get (network)",
		"api/h.go:50:2: SIO005 not seen under load",
		"uncovered: other.h blocked in runtime.sleep (sleep, holding pool) for 5.0% of request time (0.50 s) at example.com/svc/other/h.go:12, on /r; no finding covers it",
	} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("output lacks %q:\n%s", line, out.String())
		}
	}

	props, notes := res.SARIF(func(p string) string { return p })
	if props[0]["syncio/confirmed"] != true || props[0]["syncio/requestShare"] != 0.4 || props[2]["syncio/confirmed"] != false {
		t.Errorf("properties %v", props)
	}
	if _, ok := props[2]["syncio/requestShare"]; ok {
		t.Error("a finding not seen has a request share")
	}
	if len(notes) != 1 || notes[0].Line != 12 || notes[0].Properties["syncio/holdingWorker"] != true {
		t.Errorf("notes %+v", notes)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "missing.json"):              "read blocking report",
		write("junk.json", "<html>"):                    "not a blocking report",
		write("empty.json", `{"sites":[],"samples":0}`): "no samples",
	} {
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) = %v, want an error saying %q", filepath.Base(path), err, want)
		}
	}
	if rep, err := Load(write("ok.json", `{"sites":[],"samples":3,"request_s":1.5}`)); err != nil || rep.RequestS != 1.5 {
		t.Errorf("Load(ok) = %+v, %v", rep, err)
	}
}
