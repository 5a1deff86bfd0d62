package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"os"
	"sync"
)

// Key names one run configuration: the build, the working directory, the
// paths and every setting that changes the analysis. Runs with equal keys
// share an entry, which is replayed only when the inputs it records are
// unchanged too.
type Key [sha256.Size]byte

// NewKey returns the key of a run of this build with the given parts (the
// caller's settings, in a fixed order). It fails when the executable
// cannot be read: without a build identity nothing may be replayed.
func NewKey(version string, parts ...string) (Key, error) {
	id, err := buildID()
	if err != nil {
		return Key{}, err
	}
	h := sha256.New()
	field := func(s string) {
		// Length-prefixed: ("ab", "c") and ("a", "bc") differ.
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	field(magic)
	field(version)
	field(string(id[:]))
	for _, p := range parts {
		field(p)
	}
	var k Key
	h.Sum(k[:0])
	return k, nil
}

var buildIDOnce = sync.OnceValues(func() ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	exe, err := os.Executable()
	if err != nil {
		return sum, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	h.Sum(sum[:0])
	return sum, nil
})

// buildID is the SHA-256 of the running executable: a version string says
// "devel" or "0.1.0-dev" for every local build and test binary, the bytes
// of the build do not.
func buildID() ([sha256.Size]byte, error) { return buildIDOnce() }
