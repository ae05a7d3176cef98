//go:build !linux

package blobserver

import (
	"errors"
	"os"
)

// punchHole is Linux's fallocate(FALLOC_FL_PUNCH_HOLE); elsewhere a dead extent's space
// comes back only with its whole segment, as before hole punching.
func punchHole(*os.File, int64, int64) error { return errors.ErrUnsupported }

// allocated has no portable answer; an error makes a reopened store count whole files.
func allocated(*os.File) (int64, error) { return 0, errors.ErrUnsupported }
