package driver

import (
	"fmt"
	"regexp"
	"strings"
)

var requiresGo = regexp.MustCompile(`go\.mod requires go >= (\S+) \(running go (\S+?)[;)]`)

// loadAdvice is what to do about a load error the go command gave, for
// the errors a new user meets before any package loads, or "": the go
// command's own text names the cause but not the way out, and the generic
// advice (generate what is missing, or -partial) is wrong for them.
func loadAdvice(msg string) string {
	switch {
	case requiresGo.MatchString(msg):
		m := requiresGo.FindStringSubmatch(msg)
		fetch := "or set GOTOOLCHAIN=auto, so that go fetches it from the Go proxy"
		if strings.Contains(msg, "GOTOOLCHAIN=local") {
			fetch = "or unset GOTOOLCHAIN=local, so that go fetches it from the Go proxy"
		}
		return fmt.Sprintf("the module needs Go %s and syncio runs the go command it finds, Go %s: install Go %s or newer and put it first on PATH (%s), then rerun",
			m[1], m[2], m[1], fetch)
	case strings.Contains(msg, "toolchain not available"):
		return "go could not download the toolchain the module's go.mod asks for (no access to the Go proxy?): " +
			"install that Go version and put it first on PATH, or set GOTOOLCHAIN to one installed here that satisfies go.mod, then rerun"
	case strings.Contains(msg, "does not contain main module") || strings.Contains(msg, "go.mod file not found"):
		return "there is no Go module here: run syncio in the module's directory (the one with go.mod, or below it), then rerun"
	}
	return ""
}

// withAdvice is msg followed by loadAdvice's advice, if any.
func withAdvice(msg string) string {
	if a := loadAdvice(msg); a != "" {
		return msg + "; " + a
	}
	return msg
}
