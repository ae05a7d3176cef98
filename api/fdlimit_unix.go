//go:build linux || darwin

package api

import "syscall"

// systemOpenFiles reads and sets this process's RLIMIT_NOFILE.
var systemOpenFiles = openFiles{
	get: func() (soft, hard uint64, err error) {
		var r syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
			return 0, 0, err
		}
		return r.Cur, r.Max, nil
	},
	set: func(soft uint64) error {
		var r syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
			return err
		}
		r.Cur = soft
		return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r)
	},
}
