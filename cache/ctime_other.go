//go:build !linux && !darwin

package cache

import (
	"os"
	"time"
)

// changeTime is the modification time where the status change time is not
// at hand.
func changeTime(fi os.FileInfo) time.Time { return fi.ModTime() }
