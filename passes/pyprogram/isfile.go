package pyprogram

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// dirCache answers IsFile from one directory listing per directory instead
// of a stat per question: import resolution asks about several candidate
// files for every import of every module.
type dirCache struct {
	mu   sync.Mutex
	dirs map[string]listing
}

type listing struct {
	entries map[string]fs.FileMode
	listed  bool // false: the directory could not be read
}

func newDirCache() *dirCache { return &dirCache{dirs: map[string]listing{}} }

// listing returns a directory's entries. A directory its parent's listing
// does not show is not opened: import resolution asks about many that do
// not exist (pkg/mod/ for every `import pkg.mod`).
func (c *dirCache) listing(dir string) map[string]fs.FileMode {
	return c.list(dir).entries
}

func (c *dirCache) list(dir string) listing {
	c.mu.Lock()
	l, ok := c.dirs[dir]
	c.mu.Unlock()
	if ok {
		return l
	}
	if parent := filepath.Dir(dir); parent != dir {
		if pl := c.list(parent); pl.listed {
			if mode, ok := pl.entries[filepath.Base(dir)]; !ok || !mode.IsDir() && mode&fs.ModeSymlink == 0 {
				l = listing{listed: true}
				c.mu.Lock()
				c.dirs[dir] = l
				c.mu.Unlock()
				return l
			}
		}
	}
	entries, err := os.ReadDir(dir)
	l = listing{entries: make(map[string]fs.FileMode, len(entries)), listed: err == nil}
	for _, e := range entries {
		l.entries[e.Name()] = e.Type()
	}
	c.mu.Lock()
	c.dirs[dir] = l
	c.mu.Unlock()
	return l
}

// IsFile reports whether path is a regular file (following symbolic links),
// as os.Stat would.
func (c *dirCache) IsFile(path string) bool {
	dir, base := filepath.Split(path)
	mode, ok := c.listing(filepath.Clean(dir))[base]
	if !ok {
		return false
	}
	if mode&fs.ModeSymlink != 0 {
		fi, err := os.Stat(path)
		return err == nil && fi.Mode().IsRegular()
	}
	return mode.IsRegular()
}
