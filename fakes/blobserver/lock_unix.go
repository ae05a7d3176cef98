//go:build unix

package blobserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive lock on the file at path, made if missing, for as long as the
// returned file is open: two servers appending to one journal would corrupt it. The kernel
// drops the lock when the process dies, so a killed server never leaves it stale.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("blob store lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("blob store directory %s is in use by another server", filepath.Dir(path))
		}
		return nil, fmt.Errorf("blob store lock: %w", err)
	}
	return f, nil
}
