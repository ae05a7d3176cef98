package remediation_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/syncio/syncio/api"
	"github.com/syncio/syncio/examples/remediation/monitoring/plain"
)

const monitoringDir = "../../docs/monitoring"

// requiredMetrics are the pool and HTTP metrics named in issue 3; the
// dashboard must chart every one of them.
var requiredMetrics = []string{
	"syncio_pool_workers",
	"syncio_pool_workers_busy",
	"syncio_pool_queue_length",
	"syncio_pool_rejected_total",
	"syncio_pool_queue_wait_seconds",
	"syncio_http_request_duration_seconds",
}

// goServiceMetrics are the generic series that monitoring/plain exports for
// any Go service; go-service-dashboard.json must chart every one of them.
var goServiceMetrics = []string{
	"go_goroutines",
	"go_threads",
	"process_cpu_seconds_total",
	"go_sql_in_use_connections",
	"go_sql_max_open_connections",
	"go_sql_wait_count_total",
	"go_sql_wait_duration_seconds_total",
	"http_requests_in_flight",
	"http_request_duration_seconds",
}

// exposition is what a /metrics endpoint serves: the series names a query
// may use (histograms as _bucket, _sum and _count) and the label names of
// each, and how to find series names in a query.
type exposition struct {
	source   string                     // for messages, e.g. "the demo's /metrics"
	series   map[string]map[string]bool // series name → label names
	metricRE *regexp.Regexp             // series names in a query
	selectRE *regexp.Regexp             // a series name and its {matchers}
}

// scrapeDemo starts the demo API in-process with tiny settings, makes one
// request so that the per-route histogram has a series, and parses /metrics.
func scrapeDemo(t *testing.T) exposition {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg := api.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.Workers, cfg.Queue = 2, 4
	cfg.ProfileLatency = time.Millisecond
	srv, err := api.Start(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("start demo API: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)
	get := func(path string) []byte {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v: %s", path, resp.StatusCode, err, body)
		}
		return body
	}
	get("/api/async/profile")
	return parseExposition(t, "the demo's /metrics", get("/metrics"), metricRE, selectRE)
}

// parseExposition reads a Prometheus text exposition.
func parseExposition(t *testing.T, source string, body []byte, metricRE, selectRE *regexp.Regexp) exposition {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("parse %s: %v", source, err)
	}
	exp := exposition{source: source, series: map[string]map[string]bool{}, metricRE: metricRE, selectRE: selectRE}
	for name, f := range families {
		labels := map[string]bool{}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = true
			}
		}
		if f.GetType() == dto.MetricType_HISTOGRAM {
			bucket := map[string]bool{"le": true}
			for l := range labels {
				bucket[l] = true
			}
			exp.series[name+"_bucket"] = bucket
			exp.series[name+"_sum"] = labels
			exp.series[name+"_count"] = labels
			continue
		}
		exp.series[name] = labels
	}
	return exp
}

var (
	metricRE  = regexp.MustCompile(`\bsyncio_[a-z0-9_]+\b`)
	selectRE  = regexp.MustCompile(`\b(syncio_[a-z0-9_]+)\s*\{([^}]*)\}`)
	genericRE = regexp.MustCompile(`\b(?:go|process|http)_[a-z0-9_]+\b`)
	gselectRE = regexp.MustCompile(`\b((?:go|process|http)_[a-z0-9_]+)\s*\{([^}]*)\}`)
	matcherRE = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)\s*"`)
	groupRE   = regexp.MustCompile(`\b(?:by|without|on|ignoring)\s*\(([^)]*)\)`)
)

// targetLabels are attached by Prometheus to every scraped series.
var targetLabels = map[string]bool{"job": true, "instance": true}

// checkExpr reports queries that use a series or label the exposition does
// not serve, or that are not balanced. It is no PromQL parser: `promtool check
// rules` is the full check, which TestAlertRulesPromtool runs when promtool
// is installed; dashboards have no such tool.
func (e exposition) checkExpr(t *testing.T, where, expr string) []string {
	t.Helper()
	if !balanced(expr) {
		t.Errorf("%s: unbalanced brackets in %q", where, expr)
	}
	names := e.metricRE.FindAllString(expr, -1)
	if len(names) == 0 {
		t.Errorf("%s: no series of %s in %q", where, e.source, expr)
	}
	all := map[string]bool{}
	for _, n := range names {
		labels, ok := e.series[n]
		if !ok {
			t.Errorf("%s: %s is not served by %s", where, n, e.source)
			continue
		}
		for l := range labels {
			all[l] = true
		}
	}
	for _, m := range e.selectRE.FindAllStringSubmatch(expr, -1) {
		for _, l := range matcherRE.FindAllStringSubmatch(m[2], -1) {
			if !targetLabels[l[1]] && !e.series[m[1]][l[1]] {
				t.Errorf("%s: %s has no label %q", where, m[1], l[1])
			}
		}
	}
	for _, g := range groupRE.FindAllStringSubmatch(expr, -1) {
		for _, l := range strings.Split(g[1], ",") {
			if l = strings.TrimSpace(l); l != "" && !targetLabels[l] && !all[l] {
				t.Errorf("%s: groups by %q, which no series in the query has", where, l)
			}
		}
	}
	return names
}

func balanced(s string) bool {
	var stack []rune
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	inString := false
	for _, r := range s {
		switch {
		case r == '"':
			inString = !inString
		case inString:
		case r == '(' || r == '[' || r == '{':
			stack = append(stack, r)
		case pairs[r] != 0:
			if len(stack) == 0 || stack[len(stack)-1] != pairs[r] {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0 && !inString
}

type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

type dashboard struct {
	Title  string `json:"title"`
	UID    string `json:"uid"`
	Panels []struct {
		ID      int    `json:"id"`
		Title   string `json:"title"`
		Type    string `json:"type"`
		GridPos *struct {
			H, W, X, Y int
		} `json:"gridPos"`
		Targets []struct {
			Expr  string `json:"expr"`
			RefID string `json:"refId"`
		} `json:"targets"`
	} `json:"panels"`
}

// TestMonitoringAssets parses the alert rules and the dashboard and checks
// every query against the series that the demo API serves.
func TestMonitoringAssets(t *testing.T) {
	exp := scrapeDemo(t)
	for _, m := range requiredMetrics {
		if _, ok := exp.series[m]; !ok {
			if _, ok := exp.series[m+"_count"]; !ok {
				t.Fatalf("the demo's /metrics lacks %s; the contract in issue 3 changed", m)
			}
		}
	}
	t.Run("alerts", func(t *testing.T) { checkRules(t, exp, "syncio-alerts.yml") })
	t.Run("dashboard", func(t *testing.T) { checkDashboard(t, exp, "syncio-dashboard.json", requiredMetrics) })
}

// TestGoServiceMonitoringAssets checks the assets for any Go service against
// what monitoring/plain exports: no demo, no worker pool.
func TestGoServiceMonitoringAssets(t *testing.T) {
	exp := scrapePlain(t)
	for _, m := range goServiceMetrics {
		if _, ok := exp.series[m]; !ok {
			if _, ok := exp.series[m+"_count"]; !ok {
				t.Fatalf("%s lacks %s", exp.source, m)
			}
		}
	}
	t.Run("alerts", func(t *testing.T) { checkRules(t, exp, "go-service-alerts.yml") })
	t.Run("dashboard", func(t *testing.T) { checkDashboard(t, exp, "go-service-dashboard.json", goServiceMetrics) })
}

// nullConnector lets sql.OpenDB build a pool that never connects: enough
// for the DBStats collector to export its series.
type nullConnector struct{}

func (nullConnector) Connect(context.Context) (driver.Conn, error) {
	return nil, errors.New("no database")
}
func (nullConnector) Driver() driver.Driver { return nil }

// scrapePlain serves a handler through plain.Instrument, makes one request
// so that the duration histogram has a series, and parses the registry's
// exposition.
func scrapePlain(t *testing.T) exposition {
	t.Helper()
	db := sql.OpenDB(nullConnector{})
	t.Cleanup(func() { db.Close() })
	reg := prometheus.NewRegistry()
	app := httptest.NewServer(plain.Instrument(reg, http.NotFoundHandler(), db, "app"))
	t.Cleanup(app.Close)
	metrics := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	t.Cleanup(metrics.Close)
	get := func(url string) []byte {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	get(app.URL)
	return parseExposition(t, "monitoring/plain's /metrics", get(metrics.URL), genericRE, gselectRE)
}

// checkRules parses a Prometheus rule file from docs/monitoring and checks
// its shape and every expression against exp.
func checkRules(t *testing.T, exp exposition, file string) {
	// anchors of the page a runbook_url names, by its path after blob/main/.
	pages := map[string]map[string]bool{}
	anchorsOf := func(url string) (string, map[string]bool) {
		path, _, _ := strings.Cut(url, "#")
		_, rel, ok := strings.Cut(path, "/blob/main/")
		if !ok {
			return path, nil
		}
		if pages[rel] == nil {
			pages[rel] = anchors(t, "../../"+rel)
		}
		return rel, pages[rel]
	}
	data, err := os.ReadFile(filepath.Join(monitoringDir, file))
	if err != nil {
		t.Fatal(err)
	}
	var rf ruleFile
	if err := yaml.UnmarshalWithOptions(data, &rf, yaml.DisallowUnknownField()); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(rf.Groups) == 0 {
		t.Fatal("no rule groups")
	}
	seen := map[string]bool{}
	for _, g := range rf.Groups {
		if g.Name == "" || len(g.Rules) == 0 {
			t.Errorf("group %q: needs a name and rules", g.Name)
		}
		for _, r := range g.Rules {
			where := "alert " + r.Alert
			if r.Alert == "" || seen[r.Alert] {
				t.Errorf("%s: empty or duplicate alert name", where)
			}
			seen[r.Alert] = true
			if _, err := time.ParseDuration(r.For); err != nil {
				t.Errorf("%s: for %q: %v", where, r.For, err)
			}
			if s := r.Labels["severity"]; s != "warning" && s != "critical" {
				t.Errorf("%s: severity %q", where, s)
			}
			for _, k := range []string{"summary", "description", "runbook_url"} {
				if r.Annotations[k] == "" {
					t.Errorf("%s: no %s annotation", where, k)
				}
			}
			_, frag, _ := strings.Cut(r.Annotations["runbook_url"], "#")
			if page, anchors := anchorsOf(r.Annotations["runbook_url"]); !anchors[frag] {
				t.Errorf("%s: runbook_url anchor %q is not a heading of %s", where, frag, page)
			}
			exp.checkExpr(t, where, r.Expr)
		}
	}
}

// checkDashboard parses a Grafana dashboard from docs/monitoring, checks
// every panel query against exp, and that the panels chart every series in
// required.
func checkDashboard(t *testing.T, exp exposition, file string, required []string) {
	data, err := os.ReadFile(filepath.Join(monitoringDir, file))
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if d.Title == "" || d.UID == "" || len(d.Panels) == 0 {
		t.Fatalf("dashboard needs a title, a uid and panels")
	}
	used := map[string]bool{}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		where := fmt.Sprintf("panel %d %q", p.ID, p.Title)
		if ids[p.ID] || p.GridPos == nil || p.GridPos.W == 0 || p.GridPos.H == 0 || p.Type == "" {
			t.Errorf("%s: duplicate id, or no type or grid position", where)
		}
		ids[p.ID] = true
		if len(p.Targets) == 0 {
			t.Errorf("%s: no queries", where)
		}
		for _, tg := range p.Targets {
			for _, n := range exp.checkExpr(t, where, tg.Expr) {
				used[n] = true
			}
		}
	}
	for _, m := range required {
		if !used[m] && !used[m+"_bucket"] && !used[m+"_count"] {
			t.Errorf("no panel charts %s", m)
		}
	}
}

// TestAlertRulesPromtool runs `promtool check rules` on every rule file and
// `promtool test rules` on the unit tests of go-service-alerts.yml, which
// feed synthetic series and check which alerts fire. promtool is not a
// dependency of the module: set PROMTOOL or put it on PATH (Debian's
// prometheus package, which .ci/run installs, or `go install
// github.com/prometheus/prometheus/cmd/promtool@v0.316.0`); the rule tests
// pass under both, Prometheus 2.42 and 3.
func TestAlertRulesPromtool(t *testing.T) {
	promtool := os.Getenv("PROMTOOL")
	if promtool == "" {
		var err error
		if promtool, err = exec.LookPath("promtool"); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("promtool not found under CI: .ci/run installs Debian's prometheus package")
			}
			t.Skip("promtool not found (apt-get install prometheus, or set PROMTOOL); CI runs this test")
		}
	}
	for _, args := range [][]string{
		{"check", "rules", "syncio-alerts.yml", "go-service-alerts.yml"},
		{"test", "rules", "go-service-alerts.test.yml"},
	} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = monitoringDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
