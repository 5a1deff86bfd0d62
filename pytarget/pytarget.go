// Package pytarget describes the Python versions and platforms an analysis
// covers, and the multiprocessing behaviour that differs between them: the
// default start method, whether the forkserver imports __main__, and whether
// fork and CUDA exist at all.
//
// Versions are kept as buckets rather than numbers, because one patch release
// matters: the forkserver started importing __main__ (so inheriting its
// top-level CUDA state) only with the fix for python/cpython#126631
// (GH-135295), released in 3.14.1 (2025-12-02; Misc/NEWS.d/3.14.1.rst lists
// gh-126631) and, backported by PR #138609, in 3.13.8 (2025-10-07;
// Misc/NEWS.d/3.13.8.rst). 3.14.0 does not have it. Before the fix the
// server's main_path branch was dead code and forkserver children re-imported
// the main module themselves, as spawn children do; so 3.14.0, whose default
// start method on Linux is already forkserver, re-runs the main script in
// every child like 3.13.0–3.13.7 do.
//
// Python 3.15 (October 2026) keeps forkserver as the Linux default and the
// __main__ preload; its set_forkserver_preload gained an on_error argument
// (gh-141860; "ignore" by default), which changes nothing modelled here. What
// 3.15 adds that matters is PEP 810's lazy imports, a matter of syntax and of
// the model, not of this package.
//
// The default range is the CPython releases supported today (2026-12-02):
// 3.11 to 3.15; 3.10 reached end of life in October 2026 but is kept as a
// bucket for projects whose target-version or requires-python include it.
package pytarget

import (
	"fmt"
	"math/bits"
	"strings"
)

// Version is a bucket of CPython releases that behave alike here.
type Version uint8

const (
	Py310      Version = iota // 3.10.x (end of life; only when asked for)
	Py311                     // 3.11.x
	Py312                     // 3.12.x
	Py313Early                // 3.13.0 – 3.13.7: forkserver does not import __main__
	Py313Late                 // 3.13.8 and later: forkserver imports __main__
	Py314Early                // 3.14.0: forkserver is the Linux default, does not import __main__
	Py314Late                 // 3.14.1 and later: forkserver imports __main__
	Py315                     // 3.15.x: PEP 810 lazy imports
	numVersions
)

// Oldest and Newest are the first and last buckets this package knows.
const (
	Oldest = Py310
	Newest = Py315
)

// bucket describes a Version: its minor release and the patch releases it
// holds (last < 0: every later patch release of the minor).
type bucket struct {
	minor       int
	first, last int
}

var buckets = [numVersions]bucket{
	Py310:      {10, 0, -1},
	Py311:      {11, 0, -1},
	Py312:      {12, 0, -1},
	Py313Early: {13, 0, 7},
	Py313Late:  {13, 8, -1},
	Py314Early: {14, 0, 0},
	Py314Late:  {14, 1, -1},
	Py315:      {15, 0, -1},
}

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
// 3.13, forkserver from 3.14 (3.15 too), spawn on macOS (since 3.8) and
// Windows. It is the standard library's; a family with a default context
// of its own says its default (procapi.Family.Default: multiprocess forks).
func (c Config) DefaultStartMethod() StartMethod {
	switch {
	case c.Platform != Linux:
		return Spawn
	case c.Version >= Py314Early:
		return Forkserver
	default:
		return Fork
	}
}

// ForkserverImportsMain reports whether the forkserver process imports the
// main module (the default preload list is ["__main__"]), so that its
// top-level state is inherited by every child: with the gh-126631 fix, in
// 3.13.8+, 3.14.1+ and 3.15, not in 3.14.0.
func (c Config) ForkserverImportsMain() bool {
	switch c.Version {
	case Py313Late, Py314Late, Py315:
		return true
	}
	return false
}

// HasLazyImports reports whether c's Python has PEP 810 lazy imports (the
// `lazy` soft keyword and __lazy_modules__): 3.15 onwards.
func (c Config) HasLazyImports() bool { return c.Version >= Py315 }

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

// Default is every CPython release supported on 2026-12-02 (3.11–3.15) on
// Linux. 3.10, at end of life since October 2026, is checked only when a
// target-version or requires-python asks for it.
func Default() Set { return DefaultVersions() & Platforms(Linux) }

// DefaultVersions is the default versions (3.11–3.15) on every platform.
func DefaultVersions() Set { return Versions(Py311, Newest) }

// All is every version this package knows (3.10–3.15) on every platform.
func All() Set { return Versions(Oldest, Newest) }

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
		s |= platformMask(p)
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

// String is the releases of v: "3.12", "3.13.0–3.13.7", "3.13.8+", "3.14.0".
func (v Version) String() string {
	if v >= numVersions {
		return fmt.Sprintf("Version(%d)", v)
	}
	return describeVersions([]Version{v})
}

// minorLabel is "3.N" for the bucket's minor release.
func (b bucket) minorLabel() string { return fmt.Sprintf("3.%d", b.minor) }

// startsMinor reports whether b holds the minor's first release.
func (b bucket) startsMinor() bool { return b.first == 0 }

// endsMinor reports whether b holds the minor's last release (every later
// patch release).
func (b bucket) endsMinor() bool { return b.last < 0 }

// describeVersions renders a set of version buckets (sorted) as ranges over
// releases, a bucket that splits a minor release by its patch releases shown
// by them: {311,312,313e,313l} → "3.11–3.13", {310,311,312,313e} →
// "3.10–3.13.7", {314l} → "3.14.1+", {313l,314l} → "3.13.8+, 3.14.1+",
// {313l,314e,314l,315} → "3.13.8+, 3.14–3.15", {313e} → "3.13.0–3.13.7".
func describeVersions(vs []Version) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j]+1 {
			j++
		}
		// A run that starts inside a minor release (3.13.8+) names that
		// bucket alone, and the rest of the run goes on from the next minor.
		if b := buckets[vs[i]]; !b.startsMinor() {
			parts = append(parts, fmt.Sprintf("3.%d.%d+", b.minor, b.first))
			i++
			if i > j {
				continue
			}
		}
		first, last := buckets[vs[i]], buckets[vs[j]]
		lo, hi := first.minorLabel(), last.minorLabel()
		if !last.endsMinor() {
			hi = fmt.Sprintf("%s.%d", hi, last.last)
			if first.minor == last.minor {
				lo = fmt.Sprintf("%s.%d", lo, first.first)
			}
		}
		if lo == hi {
			parts = append(parts, lo)
		} else {
			parts = append(parts, lo+"–"+hi)
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// Describe renders s for a message: "Python 3.11–3.13 on Linux",
// "Python 3.14.1+, 3.15 on Linux", "Python 3.14–3.15 on Linux; 3.11–3.15 on
// Windows".
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

// ParseTargetVersion parses ruff's spelling ("py310" ... "py315") and returns
// the set of versions from it onwards (every platform), as ruff treats
// target-version as the minimum supported version.
func ParseTargetVersion(s string) (Set, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for v := Oldest; v <= Newest; v++ {
		if b := buckets[v]; b.startsMinor() && name == fmt.Sprintf("py3%d", b.minor) {
			return Versions(v, Newest), nil
		}
	}
	return 0, fmt.Errorf("unknown target version %q (want one of %s)", s, TargetVersionNames())
}

// TargetVersionNames lists the target-version spellings ParseTargetVersion
// accepts: "py310, py311, py312, py313, py314, py315".
func TargetVersionNames() string {
	var names []string
	for v := Oldest; v <= Newest; v++ {
		if b := buckets[v]; b.startsMinor() {
			names = append(names, fmt.Sprintf("py3%d", b.minor))
		}
	}
	return strings.Join(names, ", ")
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
