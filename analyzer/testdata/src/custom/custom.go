// Package custom is analysed with a Config that disables SIO005 and adds
// a project-specific SIO001 entry.
package custom

import (
	"net/http"
	"time"
)

type Legacy struct{}

// Fetch is the project's context-less client call.
func (l *Legacy) Fetch(key string) string { return key }

func Handler(w http.ResponseWriter, r *http.Request) {
	var l Legacy
	_ = l.Fetch("k")        // want `^custom.\(\*Legacy\).Fetch blocks without the request context; use l.FetchContext\(ctx, key\) \(SIO001\)$`
	time.Sleep(time.Second) // SIO005 is disabled
	_ = helper()            // want `^Handler calls custom.helper → custom.\(\*Legacy\).Fetch, which blocks`
}

func helper() string { // want helper:`blocks\(SIO001: custom.\(\*Legacy\).Fetch\)`
	time.Sleep(time.Second)
	var l Legacy
	return l.Fetch("x")
}
