package loadtest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// validName keeps endpoint names usable as result file names.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ParseEndpoint reads one -endpoint value, "NAME=METHOD PATH", into a
// scenario of the caller's own service. PATH is a full http(s) URL or a
// path (with any query) resolved against the run's base URL.
func ParseEndpoint(spec string) (Scenario, error) {
	name, rest, ok := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Scenario{}, errors.New("want NAME=METHOD PATH")
	}
	if !validName.MatchString(name) {
		return Scenario{}, fmt.Errorf("name %q: use letters, digits, '.', '_' and '-' (it names the results file)", name)
	}
	f := strings.Fields(rest)
	if len(f) != 2 {
		return Scenario{}, errors.New("want NAME=METHOD PATH")
	}
	sc := Scenario{Name: name, Method: f[0], Path: f[1], Given: true}
	if err := checkRequest(sc.Method, sc.Path); err != nil {
		return Scenario{}, err
	}
	return sc, nil
}

// ReadTargets reads targets in vegeta's http format (method and URL, then
// optional header lines and an @body file, blank line between targets),
// with vegeta's own reader. Each target becomes a scenario named after its
// method and path (t2-, t3-... prefixes keep repeated names apart).
func ReadTargets(r io.Reader) ([]Scenario, error) {
	next := vegeta.NewHTTPTargeter(r, nil, nil)
	var out []Scenario
	seen := map[string]bool{}
	for {
		var t vegeta.Target
		err := next(&t)
		if errors.Is(err, vegeta.ErrNoTargets) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("target %d: %w", len(out)+1, err)
		}
		if err := checkRequest(t.Method, t.URL); err != nil {
			return nil, fmt.Errorf("target %d: %w", len(out)+1, err)
		}
		name := targetName(t.Method, t.URL)
		if seen[name] {
			name = fmt.Sprintf("t%d-%s", len(out)+1, name)
		}
		seen[name] = true
		sc := Scenario{Name: name, Method: t.Method, Path: t.URL, Body: t.Body, Given: true}
		if len(t.Header) > 0 {
			sc.Header = t.Header
		}
		out = append(out, sc)
	}
	if len(out) == 0 {
		return nil, errors.New("no targets in the file")
	}
	return out, nil
}

// targetName is a file-safe name such as "get-api-slot".
func targetName(method, rawURL string) string {
	path := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		path = u.Path
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	dash := true
	for _, r := range strings.ToLower(path) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// checkRequest accepts an upper-case method and an absolute http(s) URL or
// a path starting with "/".
func checkRequest(method, target string) error {
	if method == "" || strings.ToUpper(method) != method || strings.ContainsFunc(method, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		return fmt.Errorf("method %q: want an upper-case HTTP method such as GET", method)
	}
	if strings.HasPrefix(target, "/") {
		if _, err := url.ParseRequestURI(target); err != nil {
			return fmt.Errorf("path %q: %w", target, err)
		}
		return nil
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("path %q: want /PATH or an http:// or https:// URL", target)
	}
	return nil
}

// IsAbsolute reports whether a scenario's path is a full URL, which needs
// no base URL.
func (sc Scenario) IsAbsolute() bool { return !strings.HasPrefix(sc.Path, "/") }

// WithRequest returns the scenarios with hdr added to each one's headers
// and, when body is not nil, body as each one's body (unless it has one).
func WithRequest(scs []Scenario, hdr http.Header, body []byte) []Scenario {
	out := make([]Scenario, len(scs))
	for i, sc := range scs {
		if len(hdr) > 0 {
			h := sc.Header.Clone()
			if h == nil {
				h = http.Header{}
			}
			for k, vs := range hdr {
				h[k] = append(h[k], vs...)
			}
			sc.Header = h
		}
		if body != nil && sc.Body == nil {
			sc.Body = body
		}
		out[i] = sc
	}
	return out
}
