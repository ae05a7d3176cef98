// want package:`convs\(2\)`

// Package stdcallbacks gives func literals and function values to the
// standard library's callbacks, which run them before they return.
package stdcallbacks

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
)

var vars = regexp.MustCompile(`\$\w+`)

func Expand(w http.ResponseWriter, r *http.Request) {
	_ = vars.ReplaceAllStringFunc(r.URL.Path, func(m string) string {
		resp, err := http.Get("http://vars/" + m) // want `^net/http.Get blocks`
		if err != nil {
			return m
		}
		_ = resp.Body.Close()
		return resp.Status
	})
}

func Upper(w http.ResponseWriter, r *http.Request) {
	_ = strings.Map(lookup, r.URL.Path) // want `^Upper calls stdcallbacks.lookup → net/http.Head, which blocks`
}

func lookup(c rune) rune { // want lookup:`blocks\(SIO001: net/http.Head\)`
	_, _ = http.Head("http://runes")
	return c
}

func Sorted(w http.ResponseWriter, r *http.Request) {
	xs := []string{"a", "b"}
	sort.Slice(xs, func(i, j int) bool {
		_, _ = http.Post("http://compare", "text/plain", nil) // want `^net/http.Post blocks`
		return xs[i] < xs[j]
	})
}

// keep stores the literal: it is not called here.
var keep func(string) string

func Stored(w http.ResponseWriter, r *http.Request) {
	keep = func(m string) string {
		_, _ = http.Get("http://later")
		return m
	}
}

// fetcher returns a closure that its callers call.
func fetcher(base string) func(string) error {
	return func(p string) error {
		_, err := http.Get(base + p)
		return err
	}
}

func Returned(w http.ResponseWriter, r *http.Request) {
	_ = fetcher("http://a/")("x") // want `^Returned calls func literal at stdcallbacks.go:\d+ → net/http.Get, which blocks`
	f := fetcher("http://b/")
	_ = f("y") // want `^Returned calls func literal at stdcallbacks.go:\d+ → net/http.Get, which blocks`
}
