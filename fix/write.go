package fix

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrChanged is returned (wrapped) when a file's content on disk is not
// the content its fixes were computed from: someone, or another --fix run,
// wrote it in between. The file is left as it is; the caller re-checks it.
var ErrChanged = errors.New("the file changed since it was checked")

// ErrReadOnly is returned (wrapped) for a file without write permission:
// the atomic write (a rename over it) would replace it all the same, so a
// fix is refused rather than made behind the permission's back.
var ErrReadOnly = errors.New("the file is read-only; make it writable to fix it")

// ErrHardLinked is returned (wrapped) for a file with more than one hard
// link: the atomic write gives its name a new file, so the other names would
// keep the old content. A fix is refused rather than splitting the link.
var ErrHardLinked = errors.New("the file has other hard links, which a fix would detach from this name; fix it by hand, or replace the links with copies or symbolic links")

// WriteIfUnchanged replaces the content of the file at path with data if
// the file still holds old, the content data was computed from; otherwise
// it leaves the file alone and returns an error wrapping ErrChanged. It
// holds an advisory lock on the file (lockFile) from the comparison until
// the new content is in place, so concurrent --fix runs never write from
// the same old content and no run's edits are lost; the write itself is
// WriteAtomic's.
func WriteIfUnchanged(path string, old, data []byte) error {
	unlock, err := lockFile(path)
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(cur, old) {
		return ErrChanged
	}
	return WriteAtomic(path, data)
}

// Writable returns why the file info describes must not be replaced by a
// fix (ErrReadOnly, ErrHardLinked, wrapped with the detail), or nil.
func Writable(info os.FileInfo) error {
	if info.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%w (mode %v)", ErrReadOnly, info.Mode().Perm())
	}
	if n := links(info); n > 1 {
		return fmt.Errorf("%w (%d links)", ErrHardLinked, n)
	}
	return nil
}

// WriteAtomic replaces the content of the file at path with data: it
// writes a temporary file in the same directory, fsyncs it, gives it the
// original's permission bits (and owner, where the platform and our
// privileges allow), renames it over the original and fsyncs the directory.
// A reader sees either the old or the new content, never a mix, and a crash
// leaves at worst a stray temporary file.
//
// Symbolic links are followed: the link's final target is rewritten and the
// link itself is left as it is (replacing the link with a regular file would
// silently detach it). The file must already exist, and be writable and
// have one hard link (Writable): a rename would replace a read-only file,
// and split a hard-linked one from its other names.
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
	if err := Writable(info); err != nil {
		return err
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
