//go:build !unix

package blobserver

import (
	"fmt"
	"os"
)

// lockDir opens the lock file but cannot lock it here: one server at a time on a kept
// directory is then the user's to ensure.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("blob store lock: %w", err)
	}
	return f, nil
}
