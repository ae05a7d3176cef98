// Command golangci is golangci-lint v2 with the syncio module plugin
// compiled in, built from this nested module without `golangci-lint custom`
// (which clones golangci-lint from GitHub). Build it with
//
//	cd tools/golangci && GOWORK=off go build -o ../../bin/golangci-lint .
//
// and configure syncio in .golangci.yml as a custom linter of type module.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	// Registers the "syncio" module plugin.
	_ "github.com/syncio/syncio/analyzer/plugin"
)

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo reports the Go version and the golangci-lint and syncio the
// binary was built from, but keeps Version "(devel)": for that value
// golangci-lint salts its result cache with a hash of the binary, so a
// rebuilt analyzer never reads results cached by an older one. Any other
// fixed string would be used as the salt as is.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{Version: "(devel)", Commit: "unknown", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		info.Commit = builtFrom(bi.Deps)
	}
	return info
}

// builtFrom names golangci-lint and syncio as go.mod pinned them, as the
// docs/ci.md recipe does.
func builtFrom(deps []*debug.Module) string {
	var from []string
	for _, m := range deps {
		switch {
		case m.Path == "github.com/golangci/golangci-lint/v2":
			from = append(from, "golangci-lint "+m.Version)
		case m.Path == "github.com/syncio/syncio" && m.Replace != nil:
			from = append(from, "syncio => "+m.Replace.Path) // a clone: its placeholder version says nothing
		case m.Path == "github.com/syncio/syncio":
			from = append(from, "syncio "+m.Version)
		}
	}
	return strings.Join(from, " and ")
}
