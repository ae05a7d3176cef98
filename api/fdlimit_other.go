//go:build !linux && !darwin

package api

import "errors"

// systemOpenFiles knows no open-file limit here (Windows has none of that
// kind; other systems type RLIMIT_NOFILE differently): the check passes.
var systemOpenFiles = openFiles{
	get: func() (uint64, uint64, error) { return 0, 0, errors.ErrUnsupported },
	set: func(uint64) error { return errors.ErrUnsupported },
}
