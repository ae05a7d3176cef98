package loadtest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseEndpoint(t *testing.T) {
	sc, err := ParseEndpoint("slot=GET /slot?x=1")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "slot" || sc.Method != "GET" || sc.Path != "/slot?x=1" || !sc.Given || sc.IsAbsolute() {
		t.Errorf("scenario = %+v", sc)
	}
	if got := sc.Target("http://h:1/", 0).URL; got != "http://h:1/slot?x=1" {
		t.Errorf("relative target URL = %s", got)
	}
	abs, err := ParseEndpoint(" v2 = POST  https://other:8443/v2/orders ")
	if err != nil {
		t.Fatal(err)
	}
	if !abs.IsAbsolute() || abs.Target("http://ignored", 0).URL != "https://other:8443/v2/orders" || abs.Name != "v2" {
		t.Errorf("absolute endpoint = %+v", abs)
	}
	wantErrors(t, "ParseEndpoint", func(spec string) error { _, err := ParseEndpoint(spec); return err }, map[string]string{
		"GET /slot":               "NAME=METHOD PATH",
		"=GET /slot":              "NAME=METHOD PATH",
		"slot=GET":                "NAME=METHOD PATH",
		"slot=GET /a /b":          "NAME=METHOD PATH",
		"a/b=GET /slot":           `name "a/b"`,
		"slot=get /slot":          `method "get"`,
		"slot=GET slot":           `path "slot"`,
		"slot=GET ftp://h/x":      `path "ftp://h/x"`,
		"slot=GET http:///nohost": "path",
	})
}

func TestReadTargets(t *testing.T) {
	dir := t.TempDir()
	body := filepath.Join(dir, "order.json")
	if err := os.WriteFile(body, []byte(`{"id":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := "GET http://127.0.0.1:9/api/slot\nX-Trace: a\n\nPOST /api/orders\nContent-Type: application/json\n@" + body + "\n\n# a comment\nGET http://127.0.0.1:9/api/slot\n"
	scs, err := ReadTargets(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 3 {
		t.Fatalf("%d targets, want 3: %+v", len(scs), scs)
	}
	if scs[0].Name != "get-api-slot" || scs[0].Header.Get("X-Trace") != "a" || scs[0].Body != nil {
		t.Errorf("first = %+v", scs[0])
	}
	if scs[1].Name != "post-api-orders" || string(scs[1].Body) != `{"id":1}` || scs[1].IsAbsolute() {
		t.Errorf("second = %+v", scs[1])
	}
	if scs[2].Name != "t3-get-api-slot" {
		t.Errorf("a repeated target needs its own name, got %q", scs[2].Name)
	}
	tg := scs[1].Target("http://h:2", 0)
	if tg.URL != "http://h:2/api/orders" || tg.Header.Get("Content-Type") != "application/json" || string(tg.Body) != `{"id":1}` {
		t.Errorf("target = %+v", tg)
	}

	wantErrors(t, "ReadTargets", func(file string) error { _, err := ReadTargets(strings.NewReader(file)); return err }, map[string]string{
		"":                                 "no targets",
		"FETCH\n":                          "bad target",
		"get http://h/x\n":                 "bad method",
		"GET http://h/x\nnocolon\n":        "bad header",
		"GET http://h/x\n@/no/such/file\n": "bad body",
	})
}

func TestWithRequest(t *testing.T) {
	own := Scenario{Name: "a", Method: "POST", Path: "/a", Given: true, Body: []byte("own"), Header: http.Header{"X-A": {"1"}}}
	bare := Scenario{Name: "b", Method: "POST", Path: "/b", Given: true}
	out := WithRequest([]Scenario{own, bare}, http.Header{"Authorization": {"Bearer t"}}, []byte("shared"))
	if string(out[0].Body) != "own" || string(out[1].Body) != "shared" {
		t.Errorf("bodies %q %q: a target's own body wins", out[0].Body, out[1].Body)
	}
	if out[0].Header.Get("X-A") != "1" || out[0].Header.Get("Authorization") != "Bearer t" || out[1].Header.Get("Authorization") != "Bearer t" {
		t.Errorf("headers %v %v", out[0].Header, out[1].Header)
	}
	if own.Header.Get("Authorization") != "" {
		t.Error("WithRequest changed its input's headers")
	}
}

// wantErrors checks that fn fails on each input with an error containing
// the text it maps to.
func wantErrors(t *testing.T, name string, fn func(string) error, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if err := fn(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s(%q) = %v, want an error with %q", name, in, err, want)
		}
	}
}
