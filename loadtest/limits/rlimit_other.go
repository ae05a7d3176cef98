//go:build !unix

package limits

import "errors"

func openFileLimit() (soft, hard uint64, err error) {
	return 0, 0, errors.New("open-file limit unknown on this platform")
}
