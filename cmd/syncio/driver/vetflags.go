package driver

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// vetFlagErrorMark is created in go vet's work directory by the first
// package that reports a bad flag value, so the others stay quiet.
const vetFlagErrorMark = "syncio-vet-flag-error"

// checkVetFlags checks the analyzer's flag values in a go vet per-package
// invocation (args end in a *.cfg file). go vet checks flag names but not
// values, and then runs the tool once per package, dependencies included,
// because the analyzer exports facts. Left to unitchecker, a bad value
// prints the whole usage text for every one of those packages (tens of
// thousands of lines for a large module). Instead:
//
//   - the first requested package prints one line naming the flag and the
//     error, and fails, and so does the go vet run;
//   - every other package, and every dependency that is only analysed for
//     its facts, writes no facts and exits 0 without a word: its own line
//     would repeat the first, and go vet adds one more per failed package.
//
// stop reports whether Main must exit with code instead of running
// singlechecker.
func checkVetFlags(cfg Config, args []string) (code int, stop bool) {
	if cfg.Fresh == nil || len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return 0, false
	}
	cfgFile := args[len(args)-1]
	name, err := badFlag(&cfg.Fresh().Flags, args[:len(args)-1])
	if err == nil {
		return 0, false
	}
	// go vet gives each package a directory of its own under one work
	// directory ($WORK/b001/vet.cfg), unique to this go vet run.
	mark := filepath.Join(filepath.Dir(filepath.Dir(cfgFile)), vetFlagErrorMark)
	var unit struct {
		VetxOnly   bool
		VetxOutput string
	}
	if data, rerr := os.ReadFile(cfgFile); rerr == nil {
		_ = json.Unmarshal(data, &unit) // unreadable: treat as a requested package
	}
	if !unit.VetxOnly {
		f, ferr := os.OpenFile(mark, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
		if ferr == nil {
			f.Close()
		}
		if ferr == nil || !errors.Is(ferr, fs.ErrExist) {
			fmt.Fprintf(stderrOf(cfg), "%s: flag -%s: %v; run %s -help for the flags\n", cfg.Analyzer.Name, name, err, cfg.Analyzer.Name)
			return ExitError, true
		}
	}
	// Another package has reported the error and failed the run; this one
	// writes no facts and stays quiet rather than add a line of its own.
	if unit.VetxOutput != "" {
		if werr := os.WriteFile(unit.VetxOutput, nil, 0o666); werr != nil {
			fmt.Fprintf(stderrOf(cfg), "%s: %v\n", cfg.Analyzer.Name, werr)
			return ExitError, true
		}
	}
	return ExitClean, true
}

// badFlag sets each analyzer flag found in args on fs and returns the name
// and error of the first value that fs rejects. Flags that are not the
// analyzer's (unitchecker's own, such as -json or -c=N) are skipped; go vet
// has already rejected unknown names.
func badFlag(fs *flag.FlagSet, args []string) (string, error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if !hasValue {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				value = "true"
			} else if i+1 < len(args) {
				i++
				value = args[i]
			}
		}
		if err := f.Value.Set(value); err != nil {
			return name, err
		}
	}
	return "", nil
}
