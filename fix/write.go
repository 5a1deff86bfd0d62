package fix

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteAtomic replaces the content of the file at path with data: it
// writes a temporary file in the same directory, fsyncs it, gives it the
// original's permission bits (and owner, where the platform and our
// privileges allow), renames it over the original and fsyncs the directory.
// A reader sees either the old or the new content, never a mix, and a crash
// leaves at worst a stray temporary file.
//
// Symbolic links are followed: the link's final target is rewritten and the
// link itself is left as it is (replacing the link with a regular file would
// silently detach it). The file must already exist.
func WriteAtomic(path string, data []byte) (err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(real)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", real)
	}
	dir, base := filepath.Split(real)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".cudaforklint-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(info.Mode().Perm()); err != nil {
		return err
	}
	keepOwner(tmp, info)
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), real); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // best effort: not every platform or filesystem supports it
		d.Close()
	}
	return nil
}
