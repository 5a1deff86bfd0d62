package target

import "testing"

func TestDescribe(t *testing.T) {
	tests := []struct {
		set  Set
		want string
	}{
		{Default(), "Python 3.10–3.14 on Linux"},
		{Versions(Py310, Py313Late) & Platforms(Linux), "Python 3.10–3.13 on Linux"},
		{Versions(Py310, Py313Early) & Platforms(Linux), "Python 3.10–3.13.7 on Linux"},
		{Versions(Py313Late, Py314) & Platforms(Linux), "Python 3.13.8+ and 3.14 on Linux"},
		{Versions(Py313Late, Py313Late) & Platforms(Linux), "Python 3.13.8+ on Linux"},
		{Versions(Py314, Py314) & Platforms(Linux), "Python 3.14 on Linux"},
		{Versions(Py310, Py314) & Platforms(Linux, Windows), "Python 3.10–3.14 on Linux and Windows"},
		{Versions(Py314, Py314)&Platforms(Linux) | Versions(Py310, Py314)&Platforms(Windows), "Python 3.14 on Linux; 3.10–3.14 on Windows"},
	}
	for _, tt := range tests {
		if got := tt.set.Describe(); got != tt.want {
			t.Errorf("Describe(%b) = %q, want %q", tt.set, got, tt.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	tests := []struct {
		c           Config
		method      StartMethod
		importsMain bool
	}{
		{Config{Py310, Linux}, Fork, false},
		{Config{Py312, Linux}, Fork, false},
		{Config{Py313Early, Linux}, Fork, false},
		{Config{Py313Late, Linux}, Fork, true},
		{Config{Py314, Linux}, Forkserver, true},
		{Config{Py312, MacOS}, Spawn, false},
		{Config{Py314, Windows}, Spawn, true},
	}
	for _, tt := range tests {
		if got := tt.c.DefaultStartMethod(); got != tt.method {
			t.Errorf("%+v: DefaultStartMethod = %v, want %v", tt.c, got, tt.method)
		}
		if got := tt.c.ForkserverImportsMain(); got != tt.importsMain {
			t.Errorf("%+v: ForkserverImportsMain = %v, want %v", tt.c, got, tt.importsMain)
		}
	}
}

func TestRequiresPython(t *testing.T) {
	tests := []struct {
		spec string
		want Set
	}{
		{">=3.11", Versions(Py311, Py314)},
		{">=3.10,<3.13", Versions(Py310, Py312)},
		{"~=3.12", Versions(Py312, Py314)},
		{"~=3.12.1", Versions(Py312, Py312)},
		{"==3.13.*", Versions(Py313Early, Py313Late)},
		{">=3.13.8", Versions(Py313Late, Py314)},
		{"<3.13.8, >=3.13", Versions(Py313Early, Py313Early)},
		{"!=3.11.*", Versions(Py310, Py310) | Versions(Py312, Py314)},
		{">=3.8", Versions(Py310, Py314)},
		{">3.12", Versions(Py312, Py314)}, // 3.12.1 > 3.12
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
	s, err := ParseTargetVersion("py313")
	if err != nil || s != Versions(Py313Early, Py314) {
		t.Errorf("py313 = %v, %v", s.Describe(), err)
	}
	if _, err := ParseTargetVersion("py39"); err == nil {
		t.Error("py39: want error")
	}
}
