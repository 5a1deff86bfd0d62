// Package target describes the Python versions and platforms an analysis
// covers, and the multiprocessing behaviour that differs between them: the
// default start method, whether the forkserver imports __main__, and whether
// fork and CUDA exist at all.
//
// Versions are kept as buckets rather than numbers, because one patch release
// matters: the forkserver started importing __main__ (so inheriting its
// top-level CUDA state) only with the fix for python/cpython#126631, which
// shipped in 3.14.0 and, backported by PR #138609, in 3.13.8 (released
// 2025-10-07; Misc/NEWS.d/3.13.8.rst lists gh-126631). Before that the
// server's main_path branch was dead code and forkserver children re-imported
// the main module themselves, as spawn children do.
package target

import (
	"fmt"
	"math/bits"
	"strings"
)

// Version is a bucket of CPython releases that behave alike here.
type Version uint8

const (
	Py310      Version = iota // 3.10.x
	Py311                     // 3.11.x
	Py312                     // 3.12.x
	Py313Early                // 3.13.0 – 3.13.7: forkserver does not import __main__
	Py313Late                 // 3.13.8 and later: forkserver imports __main__
	Py314                     // 3.14.x: default start method on Linux is forkserver
	numVersions
)

// Platform is an operating system family.
type Platform uint8

const (
	Linux Platform = iota
	MacOS
	Windows
	numPlatforms
)

// StartMethod is a multiprocessing start method.
type StartMethod uint8

const (
	Fork StartMethod = iota
	Spawn
	Forkserver
)

func (m StartMethod) String() string {
	switch m {
	case Fork:
		return "fork"
	case Spawn:
		return "spawn"
	case Forkserver:
		return "forkserver"
	}
	return fmt.Sprintf("StartMethod(%d)", m)
}

// ParseStartMethod maps "fork", "spawn" and "forkserver" to a StartMethod.
func ParseStartMethod(s string) (StartMethod, bool) {
	switch s {
	case "fork":
		return Fork, true
	case "spawn":
		return Spawn, true
	case "forkserver":
		return Forkserver, true
	}
	return 0, false
}

// Config is one version on one platform.
type Config struct {
	Version  Version
	Platform Platform
}

// DefaultStartMethod is multiprocessing's default on c: fork on Linux up to
// 3.13, forkserver from 3.14, spawn on macOS (since 3.8) and Windows.
func (c Config) DefaultStartMethod() StartMethod {
	switch {
	case c.Platform != Linux:
		return Spawn
	case c.Version >= Py314:
		return Forkserver
	default:
		return Fork
	}
}

// ForkserverImportsMain reports whether the forkserver process imports the
// main module (the default preload list is ["__main__"]), so that its
// top-level state is inherited by every child. True from 3.13.8 and 3.14.
func (c Config) ForkserverImportsMain() bool { return c.Version >= Py313Late }

// HasFork reports whether os.fork and the fork and forkserver start methods
// exist on c (not on Windows).
func (c Config) HasFork() bool { return c.Platform != Windows }

// HasCUDA reports whether CUDA can run on c at all: NVIDIA dropped macOS
// after CUDA 10.2, so CUDA findings never hold there.
func (c Config) HasCUDA() bool { return c.Platform != MacOS }

// Set is a set of Configs.
type Set uint32

func bit(c Config) Set { return 1 << (uint(c.Platform)*uint(numVersions) + uint(c.Version)) }

// Of returns the set holding exactly cs.
func Of(cs ...Config) Set {
	var s Set
	for _, c := range cs {
		s |= bit(c)
	}
	return s
}

// Default is every supported CPython (3.10–3.14) on Linux.
func Default() Set { return Versions(Py310, Py314) & Platforms(Linux) }

// Versions returns every config whose version is in [lo, hi], on any platform.
func Versions(lo, hi Version) Set {
	var s Set
	for p := Platform(0); p < numPlatforms; p++ {
		for v := lo; v <= hi && v < numVersions; v++ {
			s |= bit(Config{v, p})
		}
	}
	return s
}

// Platforms returns every config on the given platforms.
func Platforms(ps ...Platform) Set {
	var s Set
	for _, p := range ps {
		s |= Versions(Py310, Py314) & platformMask(p)
	}
	return s
}

func platformMask(p Platform) Set {
	return Set((1<<uint(numVersions))-1) << (uint(p) * uint(numVersions))
}

// Has reports whether c is in s.
func (s Set) Has(c Config) bool { return s&bit(c) != 0 }

// Empty reports whether s holds nothing.
func (s Set) Empty() bool { return s == 0 }

// Len is the number of configs in s.
func (s Set) Len() int { return bits.OnesCount32(uint32(s)) }

// Configs lists the members of s, platform-major, oldest version first.
func (s Set) Configs() []Config {
	var out []Config
	for p := Platform(0); p < numPlatforms; p++ {
		for v := Version(0); v < numVersions; v++ {
			if c := (Config{v, p}); s.Has(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// Filter returns the members of s for which keep is true.
func (s Set) Filter(keep func(Config) bool) Set {
	var out Set
	for _, c := range s.Configs() {
		if keep(c) {
			out |= bit(c)
		}
	}
	return out
}

func (p Platform) String() string {
	switch p {
	case Linux:
		return "Linux"
	case MacOS:
		return "macOS"
	case Windows:
		return "Windows"
	}
	return fmt.Sprintf("Platform(%d)", p)
}

// versionLabel gives the first and last release of a bucket, for ranges.
func versionLabel(v Version) (first, last string) {
	switch v {
	case Py310:
		return "3.10", "3.10"
	case Py311:
		return "3.11", "3.11"
	case Py312:
		return "3.12", "3.12"
	case Py313Early:
		return "3.13.0", "3.13.7"
	case Py313Late:
		return "3.13.8", "3.13"
	case Py314:
		return "3.14", "3.14"
	}
	return "?", "?"
}

// describeVersions renders a set of version buckets as ranges, joining the two
// 3.13 buckets back into "3.13": {310,311,312,313e} → "3.10–3.13.7".
func describeVersions(vs []Version) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j]+1 {
			j++
		}
		first, _ := versionLabel(vs[i])
		_, last := versionLabel(vs[j])
		if vs[i] == Py313Late {
			first = "3.13.8"
		}
		if vs[j] == Py313Late {
			last = "3.13"
			if vs[i] == Py313Late {
				parts = append(parts, "3.13.8+")
				i = j + 1
				continue
			}
		}
		if vs[j] == Py313Early && vs[i] != Py313Early {
			last = "3.13.7"
		}
		switch {
		case first == last:
			parts = append(parts, first)
		case vs[j] == Py314 && vs[i] == Py313Late:
			parts = append(parts, "3.13.8+ and 3.14")
		default:
			parts = append(parts, first+"–"+last)
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// Describe renders s for a message: "Python 3.10–3.13 on Linux",
// "Python 3.13.8+ and 3.14 on Linux", "Python 3.14 on Linux; 3.10–3.14 on Windows".
func (s Set) Describe() string {
	if s.Empty() {
		return "no supported Python"
	}
	var byPlat []string
	var prev string
	var plats []Platform
	for p := Platform(0); p < numPlatforms; p++ {
		var vs []Version
		for v := Version(0); v < numVersions; v++ {
			if s.Has(Config{v, p}) {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			continue
		}
		d := describeVersions(vs)
		if d == prev && len(byPlat) > 0 {
			// Same versions as the previous platform: merge "on Linux and Windows".
			plats = append(plats, p)
			byPlat[len(byPlat)-1] = d + " on " + joinPlatforms(plats)
			continue
		}
		prev, plats = d, []Platform{p}
		byPlat = append(byPlat, d+" on "+p.String())
	}
	return "Python " + strings.Join(byPlat, "; ")
}

func joinPlatforms(ps []Platform) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.String()
	}
	if len(names) <= 2 {
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// ParseTargetVersion parses ruff's spelling ("py310" ... "py314") and returns
// the set of versions from it onwards, as ruff treats target-version as the
// minimum supported version.
func ParseTargetVersion(s string) (Set, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "py310":
		return Versions(Py310, Py314), nil
	case "py311":
		return Versions(Py311, Py314), nil
	case "py312":
		return Versions(Py312, Py314), nil
	case "py313":
		return Versions(Py313Early, Py314), nil
	case "py314":
		return Versions(Py314, Py314), nil
	}
	return 0, fmt.Errorf("unknown target version %q (want one of py310, py311, py312, py313, py314)", s)
}

// ParsePlatforms parses a comma-separated list of linux, macos (or darwin),
// windows (or win32), or "all".
func ParsePlatforms(s string) (Set, error) {
	var out Set
	for _, f := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "linux":
			out |= Platforms(Linux)
		case "macos", "darwin", "mac":
			out |= Platforms(MacOS)
		case "windows", "win32", "win":
			out |= Platforms(Windows)
		case "all":
			out |= Platforms(Linux, MacOS, Windows)
		default:
			return 0, fmt.Errorf("unknown platform %q (want linux, macos, windows or all)", f)
		}
	}
	return out, nil
}
