//go:build unix

package fix

import (
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the original file, when allowed
// (as root, or the group when we belong to it); failures are ignored.
func keepOwner(f *os.File, orig os.FileInfo) {
	if st, ok := orig.Sys().(*syscall.Stat_t); ok {
		if f.Chown(int(st.Uid), int(st.Gid)) != nil {
			f.Chown(-1, int(st.Gid))
		}
	}
}

// links is the number of hard links to the file orig describes (1 where
// the platform does not say).
func links(orig os.FileInfo) uint64 {
	if st, ok := orig.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
