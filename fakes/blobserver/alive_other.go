//go:build !unix

package blobserver

// processAlive cannot tell elsewhere, so stale directories are left alone.
func processAlive(int) bool { return true }
