package pytarget

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	linux := Platforms(Linux)
	tests := []struct {
		set  Set
		want string
	}{
		{Default(), "Python 3.11–3.15 on Linux"},
		{All() & linux, "Python 3.10–3.15 on Linux"},
		{Versions(Py311, Py313Late) & linux, "Python 3.11–3.13 on Linux"},
		{Versions(Py310, Py313Early) & linux, "Python 3.10–3.13.7 on Linux"},
		{Versions(Py313Early, Py313Early) & linux, "Python 3.13.0–3.13.7 on Linux"},
		{Versions(Py313Late, Py313Late) & linux, "Python 3.13.8+ on Linux"},
		{Versions(Py314Early, Py314Early) & linux, "Python 3.14.0 on Linux"},
		{Versions(Py314Late, Py314Late) & linux, "Python 3.14.1+ on Linux"},
		{Versions(Py314Early, Py315) & linux, "Python 3.14–3.15 on Linux"},
		{Versions(Py314Late, Py315) & linux, "Python 3.14.1+, 3.15 on Linux"},
		{Versions(Py313Late, Py313Late)&linux | Versions(Py314Late, Py314Late)&linux, "Python 3.13.8+, 3.14.1+ on Linux"},
		{(Versions(Py313Late, Py313Late) | Versions(Py314Late, Py315)) & linux, "Python 3.13.8+, 3.14.1+, 3.15 on Linux"},
		{Versions(Py313Late, Py315) & linux, "Python 3.13.8+, 3.14–3.15 on Linux"},
		{Versions(Py313Late, Py314Early) & linux, "Python 3.13.8+, 3.14.0 on Linux"},
		{(Versions(Py311, Py313Early) | Versions(Py314Early, Py314Early)) & linux, "Python 3.11–3.13.7, 3.14.0 on Linux"},
		{Versions(Py312, Py314Early) & linux, "Python 3.12–3.14.0 on Linux"},
		{(Versions(Py311, Py311) | Versions(Py315, Py315)) & linux, "Python 3.11, 3.15 on Linux"},
		{Versions(Py311, Py315) & Platforms(Linux, Windows), "Python 3.11–3.15 on Linux and Windows"},
		{Versions(Py314Early, Py315)&linux | Versions(Py311, Py315)&Platforms(Windows), "Python 3.14–3.15 on Linux; 3.11–3.15 on Windows"},
		{0, "no supported Python"},
	}
	for _, tt := range tests {
		if got := tt.set.Describe(); got != tt.want {
			t.Errorf("Describe(%b) = %q, want %q", tt.set, got, tt.want)
		}
	}
}

func TestVersionString(t *testing.T) {
	want := map[Version]string{
		Py310: "3.10", Py311: "3.11", Py312: "3.12", Py313Early: "3.13.0–3.13.7", Py313Late: "3.13.8+",
		Py314Early: "3.14.0", Py314Late: "3.14.1+", Py315: "3.15",
	}
	for v := Oldest; v <= Newest; v++ {
		if got := v.String(); got != want[v] {
			t.Errorf("%d.String() = %q, want %q", v, got, want[v])
		}
	}
}

func TestDefaults(t *testing.T) {
	tests := []struct {
		c           Config
		method      StartMethod
		importsMain bool
		lazy        bool
	}{
		{Config{Py310, Linux}, Fork, false, false},
		{Config{Py312, Linux}, Fork, false, false},
		{Config{Py313Early, Linux}, Fork, false, false},
		{Config{Py313Late, Linux}, Fork, true, false},
		// 3.14.0: forkserver by default, but without the gh-126631 fix.
		{Config{Py314Early, Linux}, Forkserver, false, false},
		{Config{Py314Late, Linux}, Forkserver, true, false},
		{Config{Py315, Linux}, Forkserver, true, true},
		{Config{Py312, MacOS}, Spawn, false, false},
		{Config{Py314Late, Windows}, Spawn, true, false},
		{Config{Py315, MacOS}, Spawn, true, true},
	}
	for _, tt := range tests {
		if got := tt.c.DefaultStartMethod(); got != tt.method {
			t.Errorf("%+v: DefaultStartMethod = %v, want %v", tt.c, got, tt.method)
		}
		if got := tt.c.ForkserverImportsMain(); got != tt.importsMain {
			t.Errorf("%+v: ForkserverImportsMain = %v, want %v", tt.c, got, tt.importsMain)
		}
		if got := tt.c.HasLazyImports(); got != tt.lazy {
			t.Errorf("%+v: HasLazyImports = %v, want %v", tt.c, got, tt.lazy)
		}
	}
}

func TestSets(t *testing.T) {
	if got := Default().Len(); got != 7 {
		t.Errorf("Default().Len() = %d, want 7 buckets (3.11 … 3.15 on Linux)", got)
	}
	if Default().Has(Config{Py310, Linux}) {
		t.Error("Default() holds 3.10, which is end of life")
	}
	if got := All().Len(); got != int(numVersions)*int(numPlatforms) {
		t.Errorf("All().Len() = %d, want %d", got, int(numVersions)*int(numPlatforms))
	}
	if got := Platforms(Windows); got.Len() != int(numVersions) || !got.Has(Config{Py315, Windows}) || got.Has(Config{Py315, Linux}) {
		t.Errorf("Platforms(Windows) = %s", got.Describe())
	}
	cs := (Versions(Py315, Py315) & Platforms(Linux, MacOS)).Configs()
	if len(cs) != 2 || cs[0] != (Config{Py315, Linux}) || cs[1] != (Config{Py315, MacOS}) {
		t.Errorf("Configs = %v", cs)
	}
}

func TestRequiresPython(t *testing.T) {
	tests := []struct {
		spec string
		want Set
	}{
		{">=3.11", Versions(Py311, Py315)},
		{">=3.10,<3.13", Versions(Py310, Py312)},
		{"~=3.12", Versions(Py312, Py315)},
		{"~=3.12.1", Versions(Py312, Py312)},
		{"==3.13.*", Versions(Py313Early, Py313Late)},
		{">=3.13.8", Versions(Py313Late, Py315)},
		{"<3.13.8, >=3.13", Versions(Py313Early, Py313Early)},
		{"!=3.11.*", Versions(Py310, Py310) | Versions(Py312, Py315)},
		{">=3.8", Versions(Py310, Py315)},
		{">3.12", Versions(Py312, Py315)}, // 3.12.1 > 3.12
		{"==3.14.0", Versions(Py314Early, Py314Early)},
		{">=3.14.1", Versions(Py314Late, Py315)},
		{"==3.14.*", Versions(Py314Early, Py314Late)},
		{">=3.15", Versions(Py315, Py315)},
		{"<3.10", 0},
	}
	for _, tt := range tests {
		got, err := ParseRequiresPython(tt.spec)
		if err != nil {
			t.Errorf("%q: %v", tt.spec, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%q = %v, want %v", tt.spec, got.Describe(), tt.want.Describe())
		}
	}
	for _, bad := range []string{"3.11", ">=three", "~=3", ">=3.*"} {
		if _, err := ParseRequiresPython(bad); err == nil {
			t.Errorf("%q: want error", bad)
		}
	}
}

func TestParseTargetVersion(t *testing.T) {
	tests := []struct {
		in   string
		want Set
	}{
		{"py310", Versions(Py310, Py315)},
		{"py311", Versions(Py311, Py315)},
		{"py313", Versions(Py313Early, Py315)},
		{"PY314", Versions(Py314Early, Py315)},
		{" py315 ", Versions(Py315, Py315)},
	}
	for _, tt := range tests {
		got, err := ParseTargetVersion(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%q = %v, %v; want %v", tt.in, got.Describe(), err, tt.want.Describe())
		}
	}
	for _, bad := range []string{"py39", "py316", "3.12", "py3131"} {
		_, err := ParseTargetVersion(bad)
		if err == nil {
			t.Errorf("%q: want error", bad)
			continue
		}
		if !strings.Contains(err.Error(), "py310, py311, py312, py313, py314, py315") {
			t.Errorf("%q: error %q does not list the versions", bad, err)
		}
	}
}
