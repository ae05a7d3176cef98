package blobserver

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// The fallocate modes of linux/falloc.h; the syscall package has the call but not these.
const (
	fallocKeepSize  = 0x01
	fallocPunchHole = 0x02
)

// punchHole frees the disk blocks under [off, off+n) of f, which then reads as zeros
// (partial blocks at either end stay allocated, zeroed in the range only). The file's size
// is unchanged. A filesystem that cannot punch holes gives an error wrapping
// errors.ErrUnsupported.
func punchHole(f *os.File, off, n int64) error {
	var opErr error
	err := control(f, func(fd int) {
		opErr = syscall.Fallocate(fd, fallocPunchHole|fallocKeepSize, off, n)
	})
	if err = errors.Join(err, opErr); err != nil {
		if errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) {
			return fmt.Errorf("%w: %v", errors.ErrUnsupported, err)
		}
		return err
	}
	return nil
}

// allocated returns the bytes of disk f holds (st_blocks, in 512-byte units whatever the
// filesystem's block size), which is less than its size where holes were punched.
func allocated(f *os.File) (int64, error) {
	var st syscall.Stat_t
	var opErr error
	err := control(f, func(fd int) { opErr = syscall.Fstat(fd, &st) })
	if err = errors.Join(err, opErr); err != nil {
		return 0, err
	}
	return st.Blocks * 512, nil
}

// control runs fn on f's descriptor without f.Fd, which would switch f to blocking mode.
func control(f *os.File, fn func(fd int)) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	return rc.Control(func(fd uintptr) { fn(int(fd)) })
}
