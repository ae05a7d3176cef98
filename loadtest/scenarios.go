package loadtest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/syncio/syncio/loadtest/closedloop"
)

// Scenario is one endpoint variant under load. To add one, append it to
// Scenarios with its groups; -h lists the table.
type Scenario struct {
	Name   string
	Method string
	Path   string // with any query, or a full URL (given endpoints)
	// Blocking marks variants that hold a worker (or a lock) across the
	// backend wait; their queue needs longer to settle at the top step.
	Blocking bool
	// FastBackend marks variants whose backend answers in tens of
	// milliseconds (the storage model), not seconds: even a blocking one
	// fills its queue within seconds (3000 ÷ (100 workers ÷ 50 ms) = 1.5 s),
	// so the async top-step settle is enough for it.
	FastBackend bool
	// Upload sends an -upload-size body.
	Upload bool
	// Order posts an order (application/json) with an ID of its own per
	// request: the API answers a repeated ID from what it stored for the
	// first (an idempotent retry), so a fixed ID would measure a lookup,
	// not the workflow. The IDs start with a prefix made per run, so runs
	// against one API (or one Temporal server) never collide.
	Order bool
	// Temporal marks variants that need the API started with -temporal
	// (syncio-load -temporal HOST:PORT), where POST /api/async/order runs
	// the order workflow on Temporal.
	Temporal bool
	Groups   []string
	About    string
	// Given marks an endpoint of the user's own service (-endpoint,
	// -targets): its backend is unknown, so its top step gets the longer
	// settle, and Header and Body are sent as they are.
	Given  bool
	Header http.Header
	Body   []byte
}

// Scenarios is the scenario table, in run order: sync before async so the
// headline pair is first.
var Scenarios = []Scenario{
	{Name: "sync-profile", Method: http.MethodGet, Path: "/api/sync/profile", Blocking: true,
		Groups: []string{"headline", "profile"}, About: "blocking profile call holding a pool worker"},
	{Name: "async-profile", Method: http.MethodGet, Path: "/api/async/profile",
		Groups: []string{"headline", "profile"}, About: "profile call that releases its worker while waiting"},
	{Name: "wrapped-profile", Method: http.MethodGet, Path: "/api/wrapped/profile", Blocking: true,
		Groups: []string{"profile"}, About: "fake async (await Task.Run): the blocking call runs on another worker, one held per call, like sync"},
	{Name: "sync-upload", FastBackend: true, Method: http.MethodPost, Path: "/api/sync/upload", Blocking: true, Upload: true,
		Groups: []string{"upload"}, About: "blob upload holding a worker"},
	{Name: "async-upload", FastBackend: true, Method: http.MethodPost, Path: "/api/async/upload", Upload: true,
		Groups: []string{"upload"}, About: "blob upload releasing its worker"},
	{Name: "sync-profile-serialized", Method: http.MethodGet, Path: "/api/sync/profile?instancing=serialized", Blocking: true,
		Groups: []string{"instancing"}, About: "one shared instance with a mutex held across the I/O"},
	{Name: "async-profile-serialized", Method: http.MethodGet, Path: "/api/async/profile?instancing=serialized", Blocking: true,
		Groups: []string{"instancing"}, About: "async, but a mutex held across the I/O serialises it anyway"},
	{Name: "sync-profile-percall", Method: http.MethodGet, Path: "/api/sync/profile?instancing=percall", Blocking: true,
		Groups: []string{"instancing"}, About: "a new service instance per call"},
	{Name: "async-profile-percall", Method: http.MethodGet, Path: "/api/async/profile?instancing=percall",
		Groups: []string{"instancing"}, About: "a new service instance per call, async"},
	{Name: "sync-upload-client-per-request", FastBackend: true, Method: http.MethodPost, Path: "/api/sync/upload?client=per-request", Blocking: true, Upload: true,
		Groups: []string{"client"}, About: "a new azblob client and transport per request"},
	{Name: "async-upload-client-per-request", FastBackend: true, Method: http.MethodPost, Path: "/api/async/upload?client=per-request", Upload: true,
		Groups: []string{"client"}, About: "a new azblob client and transport per request, async"},
	{Name: "sync-order", Method: http.MethodPost, Path: "/api/sync/order", Blocking: true, Order: true,
		Groups: []string{"order"}, About: "order workflow with blocking activities holding the worker"},
	{Name: "async-order", Method: http.MethodPost, Path: "/api/async/order", Order: true,
		Groups: []string{"order"}, About: "order workflow whose async activities release the worker during I/O"},
	{Name: "temporal-order", Method: http.MethodPost, Path: "/api/async/order", Order: true, Temporal: true,
		Groups: []string{"temporal"}, About: "the same order workflow on Temporal, durable (needs -temporal; not with async-order, which it replaces)"},
}

// slowSettle reports whether the top step needs the blocking scenarios'
// longer settle.
func (sc Scenario) slowSettle() bool { return sc.Given || sc.Blocking && !sc.FastBackend }

// orderBody is the order the order scenarios post: valid and small, 1299
// cents in all, under the given ID.
func orderBody(id string) []byte {
	return []byte(`{"id":"` + id + `","items":[{"sku":"pen","quantity":2,"priceCents":150},{"sku":"ink","quantity":1,"priceCents":999}]}`)
}

// Target returns the request every user of sc repeats against baseURL;
// uploadSize is the body size of upload scenarios.
func (sc Scenario) Target(baseURL string, uploadSize int) closedloop.Target {
	t := closedloop.Target{
		Attack: sc.Name,
		Method: sc.Method,
		URL:    strings.TrimSuffix(baseURL, "/") + sc.Path,
	}
	if sc.IsAbsolute() {
		t.URL = sc.Path
	}
	switch {
	case sc.Given:
		t.Body, t.Header = sc.Body, sc.Header.Clone()
	case sc.Upload:
		t.Body = payload(uploadSize)
		t.Header = http.Header{"Content-Type": {"application/octet-stream"}}
	case sc.Order:
		prefix := "load-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-"
		t.BodyFor = func(n uint64) []byte { return orderBody(prefix + strconv.FormatUint(n, 10)) }
		t.Header = http.Header{"Content-Type": {"application/json"}}
	}
	return t
}

// Groups lists the group names accepted by Select, besides "all".
func Groups() []string {
	var gs []string
	for _, s := range Scenarios {
		for _, g := range s.Groups {
			if !slices.Contains(gs, g) {
				gs = append(gs, g)
			}
		}
	}
	return gs
}

// Select resolves a comma-separated list of scenario and group names
// ("all" for every scenario) into scenarios in table order.
func Select(spec string) ([]Scenario, error) {
	want := map[string]bool{}
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		matched := false
		for _, s := range Scenarios {
			if f == "all" || s.Name == f || slices.Contains(s.Groups, f) {
				want[s.Name] = true
				matched = true
			}
		}
		if !matched {
			return nil, fmt.Errorf("unknown scenario or group %q (scenarios: %s; groups: %s, all)", f, strings.Join(names(), ", "), strings.Join(Groups(), ", "))
		}
	}
	var out []Scenario
	for _, s := range Scenarios {
		if want[s.Name] {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scenarios selected")
	}
	return out, nil
}

func names() []string {
	n := make([]string, len(Scenarios))
	for i, s := range Scenarios {
		n[i] = s.Name
	}
	return n
}
