package cache

import (
	"os"
	"syscall"
	"time"
)

// changeTime is fi's status change time (ctime): a rename, a chmod or a
// write changes it, even when the modification time is set back.
func changeTime(fi os.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctimespec.Sec, st.Ctimespec.Nsec)
	}
	return fi.ModTime()
}
