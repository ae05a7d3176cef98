package api

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// fakeLimit is an open-file limit the test sets, recording raises.
type fakeLimit struct {
	soft, hard uint64
	raisedTo   uint64
	failSet    bool
}

func (f *fakeLimit) openFiles() openFiles {
	return openFiles{
		get: func() (uint64, uint64, error) { return f.soft, f.hard, nil },
		set: func(soft uint64) error {
			if f.failSet {
				return errors.New("operation not permitted")
			}
			f.raisedTo, f.soft = soft, soft
			return nil
		},
	}
}

// TestFitOpenFiles: the connection budget against RLIMIT_NOFILE. A limit
// that holds the need is left alone; a soft limit below it is raised
// toward the hard one; a default budget that still does not fit is
// lowered to fit, with a warning; a budget asked for that does not fit
// fails start-up with a message naming the limit and what to change.
func TestFitOpenFiles(t *testing.T) {
	cfg := testConfig().withDefaults()
	cfg.MaxConns, cfg.StorageConns = 1000, 100 // 1000 + 33 + 2×100 + 258 + 64 open files
	need := needFiles(cfg).total()
	beyond := need - cfg.MaxConns
	for _, tc := range []struct {
		name       string
		limit      fakeLimit
		fit        bool
		wantConns  int
		wantRaised uint64
		wantErr    string
		wantLog    string
	}{
		{name: "fits", limit: fakeLimit{soft: uint64(need), hard: uint64(need)}, wantConns: 1000},
		{name: "soft raised", limit: fakeLimit{soft: 1024, hard: 1 << 20}, fit: true, wantConns: 1000, wantRaised: uint64(need), wantLog: "raised the open-file limit"},
		{name: "default lowered", limit: fakeLimit{soft: 1200, hard: 1200}, fit: true, wantConns: 1200 - beyond, wantLog: "lowered -max-conns to fit"},
		{name: "raise refused, default lowered", limit: fakeLimit{soft: 1200, hard: 1 << 20, failSet: true}, fit: true, wantConns: 1200 - beyond, wantLog: "could not raise"},
		{name: "nothing fits", limit: fakeLimit{soft: 100, hard: 100}, fit: true, wantConns: minFittedConns, wantLog: "too low even for the smallest"},
		{name: "asked for, too many", limit: fakeLimit{soft: 1200, hard: 1200}, wantErr: "open-file limit is 1200 (hard limit 1200): raise it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			got, err := fitOpenFiles(cfg, tc.fit, tc.limit.openFiles(), slog.New(slog.NewTextHandler(&logs, nil)))
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "-max-conns 1000") {
					t.Fatalf("err %v, want one naming -max-conns 1000 and %q", err, tc.wantErr)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if got.MaxConns != tc.wantConns {
				t.Errorf("MaxConns %d, want %d (need %d, %d beyond the budget)", got.MaxConns, tc.wantConns, need, beyond)
			}
			if tc.limit.raisedTo != tc.wantRaised {
				t.Errorf("soft limit raised to %d, want %d", tc.limit.raisedTo, tc.wantRaised)
			}
			if !strings.Contains(logs.String(), tc.wantLog) {
				t.Errorf("log %q lacks %q", logs.String(), tc.wantLog)
			}
		})
	}
}

// TestNeedFiles: what the estimate counts, by configuration.
func TestNeedFiles(t *testing.T) {
	cfg := DefaultConfig().withDefaults()
	n := needFiles(cfg)
	// The embedded fake: both ends of 1024 storage connections, and a file
	// per 16 MiB of its 4 GiB cap, plus its journal and lock.
	if n.conns != DefaultMaxConns+DefaultReservedConns+1 || n.storage != 2*1024+256+2 || n.profile != 0 || n.other != baseFiles {
		t.Errorf("defaults: %+v", n)
	}
	cfg.StorageConnectionString, cfg.ProfileURL, cfg.DebugAddr, cfg.Temporal = "external", "http://profile", "127.0.0.1:0", "127.0.0.1:7233"
	n = needFiles(cfg)
	if n.storage != 1024 || n.profile != 100 || n.other != baseFiles+debugFiles+temporalFiles {
		t.Errorf("external storage, remote profile, debug listener and Temporal: %+v", n)
	}
	cfg.MaxConns = -1
	if got, err := fitOpenFiles(cfg, false, (&fakeLimit{soft: 10, hard: 10}).openFiles(), testLogger(t)); err != nil || got.MaxConns != -1 {
		t.Errorf("no budget: %d %v, want nothing checked", got.MaxConns, err)
	}
}
