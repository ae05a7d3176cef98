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
		// Requests ran through line 60 and never waited there; line 70
		// never ran (no traffic to its route).
		{RuleID: "SIO001", Pos: pos(60)},
		{RuleID: "SIO001", Pos: pos(70)},
	}
	rep.Lines = map[string]float64{"example.com/svc/api/h.go:12": 4, "example.com/svc/api/h.go:60": 1.5, "example.com/svc/api/h.go:700": 3}
	res := Join(dir, findings, rep)

	want := []struct {
		seen            bool
		blocked, holdin float64
	}{{true, 4, 4}, {true, 2, 2}, {false, 0, 0}, {true, 1, 0}, {false, 0, 0}, {false, 0, 0}}
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
		"confirm: 3 of 6 findings seen blocking under load (10 samples over 2 s, 5.0 Hz; 10.0 s of request time, 0.0 s blocked, 0.0 s of it holding a worker)",
		"api/h.go:12:2: SIO001 confirmed: blocked 40.0% of request time (4.00 s, 4.00 s holding a worker), most at store.get (network)",
		"api/h.go:50:2: SIO005 not exercised: no sampled request ran through it (no traffic to its routes, or too few samples), so the run says nothing of it",
		"api/h.go:60:2: SIO001 not seen blocking under load: requests ran through it (1.50 s sampled there) and never waited in it",
		"api/h.go:70:2: SIO001 not exercised: no sampled request ran through it (no traffic to its routes, or too few samples), so the run says nothing of it",
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
	if props[2]["syncio/exercised"] != false || props[4]["syncio/exercised"] != true {
		t.Errorf("exercised: %v, %v", props[2], props[4])
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

// TestRouteShares: a finding on a route that carries little of the
// traffic has a small overall share; its line also gives its share of
// that route's own request and slot time.
func TestRouteShares(t *testing.T) {
	at := blockwatch.Frame{Func: "example.com/svc.held", File: "/src/svc/main.go", Line: 30}
	held := site("main.held", blockwatch.Network, "pool", 0.98, at)
	held.Routes = map[string]float64{"GET /held": 0.98, "GET /rare": 0.1}
	held.RouteShareMargins = map[string]float64{"GET /held": 0.021}
	rep := blockwatch.Report{
		Samples: 100, RateHz: 20, WatchedS: 5, RequestS: 16,
		Routes: []blockwatch.Route{
			{Route: "GET /fast", RequestS: 15, Samples: 100},
			{Route: "GET /held", RequestS: 1, HoldingWorkerS: 1, BlockedS: 0.98, BlockedHoldingWorkerS: 0.98, Samples: 100},
			// One sample saw it: its share would read 100.0 % and mean nothing.
			{Route: "GET /rare", RequestS: 0.1, BlockedS: 0.1, Samples: 1},
		},
		Sites: []blockwatch.Site{held},
	}
	findings := []sarifreport.Finding{{RuleID: "SIO001", Pos: token.Position{Filename: "/src/svc/main.go", Line: 30, Column: 2}}}
	res := Join("/src/svc", findings, rep)
	v := res.Verdicts[0]
	if len(v.Routes) != 2 || v.Routes[0].Share != 0.98 || v.Routes[0].SlotShare == nil || *v.Routes[0].SlotShare != 0.98 {
		t.Fatalf("route shares %+v, want GET /held at 0.98 of its request and slot time", v.Routes)
	}
	var out bytes.Buffer
	if err := res.Print(&out, findings, filepath.Base); err != nil {
		t.Fatal(err)
	}
	want := "main.go:30:2: SIO001 confirmed: blocked 6.1% of request time (0.98 s, 0.98 s holding a worker), most at main.held (network); " +
		"on GET /held blocked 98.0% ± 2.1 of this route's request time and 98.0% of its slot time (holding a worker) (100 samples); " +
		"on GET /rare –: 1 samples of the route, fewer than the 10 a share needs\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	props, _ := res.SARIF(filepath.Base)
	margins, _ := props[0]["syncio/routeShareMargins"].(map[string]any)
	if shares, _ := props[0]["syncio/routeShares"].(map[string]any); shares["GET /held"] != 0.98 || margins["GET /held"] != 0.021 {
		t.Errorf("SARIF properties %v, want syncio/routeShares", props[0])
	}
}

// TestBlindReport: a report that counted no request time (labelled
// requests ran, but the own-code filter matched none of their frames)
// cannot clear a finding; the output says so in words instead of "0 of N
// findings seen".
func TestBlindReport(t *testing.T) {
	warning := `labelled requests ran (12.0 goroutine-seconds seen) but no frame of theirs matched the own-code filter "example.com/svc", "main", so nothing was counted: name your handlers' import path with blockwatch.WithModule`
	rep := blockwatch.Report{Samples: 40, RateHz: 20, WatchedS: 2, OutsideOwnCodeS: 12, Warnings: []string{warning}, Sites: []blockwatch.Site{}}
	findings := []sarifreport.Finding{
		{RuleID: "SIO001", Pos: token.Position{Filename: "/src/svc/main.go", Line: 30}},
		{RuleID: "SIO003", Pos: token.Position{Filename: "/src/svc/main.go", Line: 40}},
	}
	res := Join("/src/svc", findings, rep)
	var out bytes.Buffer
	if err := res.Print(&out, findings, filepath.Base); err != nil {
		t.Fatal(err)
	}
	want := "confirm: cannot confirm or clear any of the 2 findings: the report counted no request time (40 samples over 2 s): " + warning + "\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
	props, _ := res.SARIF(filepath.Base)
	if _, ok := props[0]["syncio/confirmed"]; ok || props[1]["syncio/confirmUnknown"] != warning {
		t.Errorf("SARIF properties %v: want no verdict, and the reason", props)
	}
	// No labelled request at all: also said, with what to do.
	res = Join("/src/svc", findings, blockwatch.Report{Samples: 40, WatchedS: 2, Sites: []blockwatch.Site{}})
	out.Reset()
	if err := res.Print(&out, findings, filepath.Base); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "no labelled request was seen: label the service's requests") || strings.Contains(out.String(), "not seen under load") {
		t.Errorf("output with no labelled request:\n%s", out.String())
	}
}
