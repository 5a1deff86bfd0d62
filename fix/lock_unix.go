//go:build unix

package fix

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock(2)) on the file at
// path and returns the function that releases it. Every cudaforklint --fix
// takes it before it re-reads a file and holds it until the new content
// has been renamed into place, so two runs cannot both write from the same
// old content. The rename gives the path a new inode, so a run that waited
// on the old one retries on the file now at path. Where the filesystem
// does not support flock (some network filesystems), the file is not
// locked and only the compare-before-write protects it.
func lockFile(path string) (unlock func(), err error) {
	for {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		fd := int(f.Fd())
		if err := flock(fd, syscall.LOCK_EX); err != nil {
			f.Close()
			if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EINVAL) {
				return func() {}, nil
			}
			return nil, err
		}
		held, herr := f.Stat()
		now, nerr := os.Stat(path)
		if herr == nil && nerr == nil && os.SameFile(held, now) {
			return func() {
				flock(fd, syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		flock(fd, syscall.LOCK_UN)
		f.Close()
		if nerr != nil {
			return nil, nerr
		}
	}
}

// flock is syscall.Flock, retried when a signal interrupts it.
func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
