// Package workflow reads the example GitHub Actions workflows of docs/ci
// as the tests that run their steps need them: the steps' scripts and
// inputs, the job's working directory and the workflow's env, so that the
// tests of the standalone command and of the golangci-lint module (a
// module of its own) read them one way.
package workflow

import (
	"fmt"
	"go/version"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"
)

// File is what the tests read of a workflow.
type File struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]Job    `yaml:"jobs"`
}

// Job is one job of a workflow.
type Job struct {
	Defaults struct {
		Run struct {
			WorkingDirectory string `yaml:"working-directory"`
		} `yaml:"run"`
	} `yaml:"defaults"`
	Steps []Step `yaml:"steps"`
}

// Step is one step of a job.
type Step struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	If   string            `yaml:"if"`
	With map[string]string `yaml:"with"`
	Run  string            `yaml:"run"`
}

// Read parses the workflow at path.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// Steps returns every step of every job.
func (f *File) Steps() []Step {
	var out []Step
	for _, j := range f.Jobs {
		out = append(out, j.Steps...)
	}
	return out
}

// Run returns the script of the step called name, "" if there is none.
func (f *File) Run(name string) string {
	for _, s := range f.Steps() {
		if s.Name == name && s.Run != "" {
			return s.Run
		}
	}
	return ""
}

// Module is the expression the workflows use for the go.mod's directory.
const Module = "${{ env.MODULE }}"

// goLine is a go.mod's go directive.
var goLine = regexp.MustCompile(`(?m)^go (\S+)$`)

// GoDirective returns the go directive of the go.mod file at path, as
// go/version spells it ("go1.26.0").
func GoDirective(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	m := goLine.FindSubmatch(data)
	if m == nil {
		return "", fmt.Errorf("%s has no go directive", path)
	}
	return "go" + string(m[1]), nil
}

// SetupGoProblems checks that every actions/setup-go step of f sets up a
// Go at least need: its go-version-file, read in svc with MODULE as
// copied ("."), must say so. A workflow that took the service's go.mod
// would set up a Go that cannot build syncio when the service is on an
// older one.
func SetupGoProblems(f *File, svc, need string) []string {
	var out []string
	found := 0
	for _, s := range f.Steps() {
		if !strings.HasPrefix(s.Uses, "actions/setup-go@") {
			continue
		}
		found++
		vf := strings.ReplaceAll(s.With["go-version-file"], Module, ".")
		if vf == "" {
			out = append(out, "setup-go has no go-version-file")
			continue
		}
		got, err := GoDirective(filepath.Join(svc, vf))
		if err != nil {
			out = append(out, err.Error())
		} else if version.Compare(got, need) < 0 {
			out = append(out, fmt.Sprintf("setup-go takes %s from %s, but syncio needs %s", got, vf, need))
		}
	}
	if found == 0 {
		out = append(out, "no setup-go step")
	}
	return out
}
