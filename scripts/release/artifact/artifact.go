// Package artifact builds the one part of a release that is not Go, the verify wrapper, so that
// it loads into the programs of any glibc distribution, and checks what a release build produced
// before it is packed into a wheel: the Linux executable is static (one build runs on every
// distribution), the wrapper asks for no glibc newer than the wheels' manylinux tag promises, and
// the Windows executable needs no MinGW runtime DLL. The checks read the files (debug/elf,
// debug/pe), so cross builds are checked as well as native ones.
package artifact

import (
	"context"
	"debug/elf"
	"debug/pe"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/cudaforklint/cudaforklint/verify"
)

// MaxGlibc is the newest glibc symbol version the wrapper may ask for: manylinux2014's floor.
var MaxGlibc = [2]int{2, 17}

//go:embed glibc_compat.h
var compatHeader []byte

// machines are the ELF machines of the Go architectures a release builds for Linux.
var machines = map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}

// wrapperLibs are the libraries the wrapper may need: glibc's own, which every glibc system has.
var wrapperLibs = map[string]bool{"libc.so.6": true, "libdl.so.2": true, "libpthread.so.0": true}

// BuildShim builds the verify wrapper with the C compiler cc (a cross compiler for another
// goarch) into out, bound to the old versions of the dl* functions (glibc_compat.h), and checks it
// with CheckShim.
func BuildShim(ctx context.Context, cc []string, goarch, out string) error {
	dir, err := os.MkdirTemp("", "cudaforklint-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	header := filepath.Join(dir, "glibc_compat.h")
	if err := os.WriteFile(header, compatHeader, 0o644); err != nil {
		return err
	}
	// --no-as-needed keeps libdl.so.2 though no symbol of the new glibc's stub is used: an old
	// glibc has the dl* functions there, and a program the wrapper is preloaded into may not load
	// it itself.
	if err := verify.BuildShim(ctx, cc, out, "-include", header, "-Wl,--no-as-needed", "-l:libdl.so.2"); err != nil {
		return err
	}
	return CheckShim(out, goarch)
}

// CheckShim checks that the wrapper at path is a shared object for goarch that needs nothing but
// glibc's libraries, libdl.so.2 among them, and no glibc symbol version newer than MaxGlibc.
func CheckShim(path, goarch string) error {
	f, err := openELF(path, goarch, elf.ET_DYN)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s is an executable (it has an interpreter), not a shared object", path)
		}
	}
	var needs []elf.DynamicVersionNeed
	if f.Section(".gnu.version_r") != nil { // an object that needs no versioned symbol has none
		if needs, err = f.DynamicVersionNeeds(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	var tooNew []string
	for _, n := range needs {
		for _, d := range n.Needs {
			if !glibcAtMost(d.Dep, MaxGlibc) {
				tooNew = append(tooNew, n.Name+" "+d.Dep+symbolsOf(f, d.Dep))
			}
		}
	}
	if len(tooNew) > 0 {
		sort.Strings(tooNew)
		return fmt.Errorf("%s needs symbol versions newer than GLIBC_%d.%d, so it would not load on older distributions: %s "+
			"(bind them to older versions in scripts/release/artifact/glibc_compat.h)",
			path, MaxGlibc[0], MaxGlibc[1], strings.Join(tooNew, "; "))
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	hasDL := false
	for _, l := range libs {
		if !wrapperLibs[l] {
			return fmt.Errorf("%s needs %s: the wrapper may need only glibc's libc, libdl and libpthread", path, l)
		}
		hasDL = hasDL || l == "libdl.so.2"
	}
	if !hasDL {
		return fmt.Errorf("%s does not need libdl.so.2, where glibc before 2.34 has the dl* functions", path)
	}
	return nil
}

// symbolsOf lists the symbols f imports at version v, for the error message.
func symbolsOf(f *elf.File, v string) string {
	syms, _ := f.ImportedSymbols()
	var names []string
	for _, s := range syms {
		if s.Version == v {
			names = append(names, s.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return " (" + strings.Join(names, ", ") + ")"
}

// glibcAtMost reports whether the version name v (GLIBC_2.3.4) is at most max. Any other name,
// GLIBC_PRIVATE included, is not.
func glibcAtMost(v string, max [2]int) bool {
	rest, ok := strings.CutPrefix(v, "GLIBC_")
	if !ok {
		return false
	}
	parts := strings.Split(rest, ".")
	if len(parts) < 2 {
		return false
	}
	var n [2]int
	for i := range n {
		x, err := strconv.Atoi(parts[i])
		if err != nil {
			return false
		}
		n[i] = x
	}
	return n[0] < max[0] || n[0] == max[0] && n[1] <= max[1]
}

// CheckStatic checks that the executable at path is a Linux executable for goarch with no
// interpreter and no shared library: it runs on any distribution, whatever its libc.
func CheckStatic(path, goarch string) error {
	f, err := openELF(path, goarch, elf.ET_EXEC)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s is dynamically linked (it has an interpreter): build it with -extldflags -static", path)
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(libs) > 0 {
		return fmt.Errorf("%s needs shared libraries %s: build it with -extldflags -static", path, strings.Join(libs, ", "))
	}
	return nil
}

func openELF(path, goarch string, typ elf.Type) (*elf.File, error) {
	want, ok := machines[goarch]
	if !ok {
		return nil, fmt.Errorf("no ELF machine known for %s", goarch)
	}
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Machine != want || f.Type != typ {
		f.Close()
		return nil, fmt.Errorf("%s is a %v %v, want a %v %v (%s)", path, f.Machine, f.Type, want, typ, goarch)
	}
	return f, nil
}

// mingwRuntime are the prefixes of the MinGW runtime DLLs, which a Windows user does not have.
var mingwRuntime = []string{"libgcc_s", "libwinpthread", "libstdc++", "libssp"}

// CheckWindows checks that the executable at path is an amd64 Windows executable that imports no
// MinGW runtime DLL (only DLLs of Windows itself).
func CheckWindows(path, goarch string) error {
	if goarch != "amd64" {
		return fmt.Errorf("no PE machine known for %s", goarch)
	}
	f, err := pe.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		return fmt.Errorf("%s is for PE machine %#x, want amd64", path, f.Machine)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, l := range libs {
		for _, p := range mingwRuntime {
			if strings.HasPrefix(strings.ToLower(l), p) {
				return fmt.Errorf("%s needs %s, a MinGW runtime DLL: build it with -extldflags -static", path, l)
			}
		}
	}
	return nil
}
