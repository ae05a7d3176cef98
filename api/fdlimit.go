package api

import (
	"cmp"
	"fmt"
	"log/slog"

	"github.com/syncio/syncio/fakes/blobserver"
)

// openFiles reads and raises the soft limit on open files (RLIMIT_NOFILE);
// tests give their own.
type openFiles struct {
	get func() (soft, hard uint64, err error)
	set func(soft uint64) error
}

// Estimates of the file descriptors a server holds besides its clients'
// connections, each an upper bound of what it may reach under load.
const (
	// baseFiles: stdio, the listeners, the poller, the process
	// collector's reads of /proc, the log, DNS, with room to spare.
	baseFiles = 64
	// debugFiles: the debug listener and a few scrapers and profilers.
	debugFiles = 16
	// temporalFiles: the Temporal client's gRPC connections.
	temporalFiles = 8
	// embeddedSegmentBytes is the embedded blob store's segment file
	// size (fakes/blobserver's segmentSize): it holds one file open per
	// segment, so its cap on bytes bounds its files.
	embeddedSegmentBytes = 16 << 20
	// minFittedConns is the least a default budget is lowered to: below
	// it the API would refuse almost everyone, and it is better to serve
	// and warn that the limit is too low.
	minFittedConns = 64
)

// fileNeed is what a server configured so may hold open, by what holds it.
type fileNeed struct {
	conns   int // MaxConns and ReservedConns, and the one accept holds while it waits for a slot
	storage int // connections to storage (twice with the embedded fake: its end is in this process) and the fake's files
	profile int // a remote profile service's idle connections
	other   int // baseFiles, the debug listener, Temporal
}

func (n fileNeed) total() int { return n.conns + n.storage + n.profile + n.other }

func needFiles(cfg Config) fileNeed {
	n := fileNeed{conns: cfg.MaxConns + cfg.ReservedConns + 1, other: baseFiles}
	conns := max(cfg.StorageConns, cfg.Workers)
	n.storage = conns
	if cfg.StorageConnectionString == "" {
		maxBytes := cmp.Or(cfg.StorageMaxBytes, blobserver.DefaultMaxBytes)
		if maxBytes < 0 { // no cap on bytes: count its default's files
			maxBytes = blobserver.DefaultMaxBytes
		}
		n.storage += conns + int(maxBytes/embeddedSegmentBytes) + 2 // and its journal and lock
	}
	if cfg.ProfileURL != "" {
		n.profile = max(cfg.Workers, 16) // newTransport's idle connections per host
	}
	if cfg.DebugAddr != "" {
		n.other += debugFiles
	}
	if cfg.Temporal != "" {
		n.other += temporalFiles
	}
	return n
}

// fitOpenFiles checks that the open-file limit holds what cfg may need
// (needFiles: the connection budget, storage, the rest). Past the limit a
// process cannot accept, dial storage or open a file, and every request,
// /healthz included, fails or hangs: the 1,250 idle keep-alives
// under a limit of 1,200. So:
//
//   - a soft limit below the need is raised toward the hard one (Go already
//     raises it to the hard limit at start on Linux and macOS, so this
//     rarely does anything);
//   - a default budget (fit) still too large is lowered to fit, to no less
//     than minFittedConns, with a warning: the API starts as it always did;
//   - a budget asked for that does not fit fails start-up, naming the need,
//     the limit and what to raise or lower: serving it anyway would bring the
//     failure back under load.
//
// It is checked per server: several servers in one process (tests, the
// load lab in-process) share the limit. With no budget (MaxConns < 0) it
// checks nothing.
func fitOpenFiles(cfg Config, fit bool, lim openFiles, log *slog.Logger) (Config, error) {
	if cfg.MaxConns < 0 {
		return cfg, nil
	}
	soft, hard, err := lim.get()
	if err != nil {
		log.Debug("no open-file limit to check the connection budget against", "err", err)
		return cfg, nil
	}
	need := needFiles(cfg)
	if uint64(need.total()) > soft && hard > soft {
		raised := min(hard, uint64(need.total()))
		if err := lim.set(raised); err != nil {
			log.Warn("could not raise the open-file limit", "soft", soft, "hard", hard, "want", raised, "err", err)
		} else {
			log.Info("raised the open-file limit for the connection budget", "from", soft, "to", raised, "hard", hard)
			soft = raised
		}
	}
	if uint64(need.total()) <= soft {
		log.Debug("open files", "need", need.total(), "limit", soft, "max_conns", cfg.MaxConns)
		return cfg, nil
	}
	beyond := need.total() - cfg.MaxConns
	if !fit {
		return cfg, fmt.Errorf("the connection budget (-max-conns %d) needs about %d open files (%d client connections with the reserved ones, %d for storage, %d for the profile service, %d more) but the open-file limit is %d (hard limit %d): raise it (ulimit -n, LimitNOFILE= in a systemd unit, --ulimit nofile= for docker), or lower -max-conns or -storage-conns",
			cfg.MaxConns, need.total(), need.conns, need.storage, need.profile, need.other, soft, hard)
	}
	fitted := max(int(soft)-beyond, minFittedConns) // soft < need here, so it fits an int
	attrs := []any{"max_conns", fitted, "default", cfg.MaxConns, "open_file_limit", soft, "hard_limit", hard,
		"other_files", beyond, "storage_files", need.storage}
	if fitted+beyond > int(soft) {
		log.Warn("the open-file limit is too low even for the smallest connection budget: under load accepting connections or dialling storage may fail; raise it (ulimit -n) or lower -storage-conns", attrs...)
	} else {
		log.Warn("the open-file limit is below the default connection budget's need: lowered -max-conns to fit", attrs...)
	}
	cfg.MaxConns = fitted
	return cfg, nil
}
