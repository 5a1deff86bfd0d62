package procapi

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// dottedName is a qualified name: identifiers joined by dots, with "()"
// after an identifier for a call result.
var dottedName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\(\))?(\.[A-Za-z_][A-Za-z0-9_]*(\(\))?)*$`)

// TestRowsAreWellFormed checks what the model and the prefilter rely on.
func TestRowsAreWellFormed(t *testing.T) {
	makers := map[Kind]bool{}
	for _, r := range rows {
		if r.On == 0 {
			makers[r.Kind] = true
		}
	}
	for _, r := range rows {
		where := r.Kind.String() + " " + strings.Join(r.Names, ",")
		if len(r.Names) == 0 || r.Evidence == "" {
			t.Errorf("%s: needs names and evidence", where)
		}
		for _, n := range r.Names {
			if !dottedName.MatchString(n) || strings.HasSuffix(n, "()") {
				t.Errorf("%s: %q is not a qualified name", where, n)
			}
		}
		if got := r.On != 0; got != r.Kind.IsMethod() {
			t.Errorf("%s: On set %v, but a method kind %v", where, got, r.Kind.IsMethod())
		}
		if r.On != 0 && (r.Family != "" || !makers[r.On] || r.On.IsMethod()) {
			t.Errorf("%s: a method must name a kind of object a module-level row makes, and no family", where)
		}
		if r.On == 0 && r.Kind.Starts() && r.Kind != Fork && r.Family == "" {
			t.Errorf("%s: processes it starts need the family whose start method they use", where)
		}
		if r.StartMethod != "" {
			if _, ok := pytarget.ParseStartMethod(r.StartMethod); !ok {
				t.Errorf("%s: start method %q", where, r.StartMethod)
			}
		}
		if r.Common && !r.Kind.Starts() {
			t.Errorf("%s: Common only matters for a row that starts processes", where)
		}
		single := append([]Arg{r.Method, r.Workers, r.Dataset, r.Persistent, r.PinMemory, r.Modules}, r.Targets...)
		for _, a := range single {
			if a.Rest {
				t.Errorf("%s: only Args may take the rest of the arguments", where)
			}
		}
		for _, a := range append(single, r.Args...) {
			if a.IsSet() && !a.Rest && a.Pos < -1 {
				t.Errorf("%s: argument %+v", where, a)
			}
		}
		need := map[Kind]Arg{Context: r.Method, SetMethod: r.Method, Preload: r.Modules}
		if a, ok := need[r.Kind]; ok && !a.IsSet() {
			t.Errorf("%s: names no argument to read", where)
		}
		if r.Pair && r.Kind != Channel {
			t.Errorf("%s: only a channel comes in pairs", where)
		}
		if r.MinWorkers != 0 && (r.MinWorkers < 2 || !r.Workers.IsSet()) {
			t.Errorf("%s: MinWorkers is a count above 1 of a Workers argument", where)
		}
		if (r.MethodNames != nil) != (r.Kind == Trainer) || r.Kind == Trainer && !r.Method.IsSet() {
			t.Errorf("%s: a Trainer, and only a Trainer, reads its Method argument through MethodNames", where)
		}
		for name, m := range r.MethodNames {
			if _, ok := pytarget.ParseStartMethod(m); m != "" && !ok {
				t.Errorf("%s: %s names start method %q", where, name, m)
			}
		}
		if r.Device.IsSet() && r.Kind != Trainer {
			t.Errorf("%s: only a Trainer names the device its children work on", where)
		}
		if r.Kind == MapAny && (r.Workers.Keyword == "" || !r.Common || len(r.Targets) == 0) {
			t.Errorf("%s: a MapAny row is known by its Workers keyword, maps Targets, and is Common (its names are everyday method names)", where)
		}
	}
}

// TestFamilies checks that each family's name is one of its modules and an
// identifier of every one of them: the prefilter takes it for their root.
func TestFamilies(t *testing.T) {
	for _, f := range Families() {
		if !slices.Contains(f.Modules, f.Name) {
			t.Errorf("family %s is not one of its modules %v", f.Name, f.Modules)
		}
		for _, m := range f.Modules {
			if !slices.Contains(strings.Split(m, "."), f.Name) {
				t.Errorf("family %s: module %s does not name it", f.Name, m)
			}
		}
	}
}

// TestLookup checks that every name of every row finds that row and no
// other, with its family.
func TestLookup(t *testing.T) {
	for i := range rows {
		r := &rows[i]
		for _, n := range r.Names {
			if r.Kind == MapAny {
				if got, ok := LookupAny(n); !ok || got != r {
					t.Errorf("any receiver .%s: found %v", n, got)
				}
				if got, _, ok := Lookup(n); ok {
					t.Errorf("%s: a MapAny row found as a module-level name: %v", n, got.Names)
				}
				continue
			}
			if r.On != 0 {
				if got, ok := LookupMethod(r.On, n); !ok || got != r {
					t.Errorf("method %s.%s: found %v", r.On, n, got)
				}
				continue
			}
			type probe struct{ path, family string }
			probes := []probe{{n, r.Family}}
			if r.Family == EachFamily {
				probes = nil
				for _, f := range Families() {
					for _, m := range f.Modules {
						probes = append(probes, probe{m + "." + n, f.Name})
					}
				}
			}
			for _, p := range probes {
				got, fam, ok := Lookup(p.path)
				if !ok || got != r || fam != p.family {
					t.Errorf("%s: found %v in family %q, want row %v in %q", p.path, got, fam, r.Names, p.family)
				}
			}
		}
	}
	for _, p := range []string{"multiprocessing", "multiprocessing.cpu_count", "os.getpid", "multiprocessing.pool.ThreadPool",
		"concurrent.futures.ThreadPoolExecutor", "subprocess.Popen", "torch.multiprocessing.spawnx", "multiprocessingx.Pool"} {
		if got, _, ok := Lookup(p); ok {
			t.Errorf("%s: found %v", p, got.Names)
		}
	}
}

func TestRootsAndIdents(t *testing.T) {
	tests := []struct {
		api           API
		roots, idents []string
	}{
		{API{Kind: Fork, Names: []string{"os.fork", "os.forkpty", "pty.fork"}}, []string{"os", "pty"}, []string{"fork", "forkpty"}},
		{API{Kind: Manager, Family: EachFamily, Names: []string{"Manager", "managers.SyncManager().start"}},
			[]string{"multiprocessing", "multiprocess"}, []string{"Manager", "SyncManager"}},
		{API{Kind: Start, On: Process, Names: []string{"start"}}, nil, []string{"start"}},
		{API{Kind: MapAny, Names: []string{"map", "filter"}, Workers: Arg{Pos: -1, Keyword: "num_proc"}}, []string{"num_proc"}, []string{"map", "filter"}},
	}
	for _, tt := range tests {
		if got := tt.api.Roots(); !slices.Equal(got, tt.roots) {
			t.Errorf("%v: roots %q, want %q", tt.api.Names, got, tt.roots)
		}
		if got := tt.api.Idents(); !slices.Equal(got, tt.idents) {
			t.Errorf("%v: idents %q, want %q", tt.api.Names, got, tt.idents)
		}
	}
}

// TestFamilyNamed: multiprocess pickles with dill (by value), the standard
// library's family by reference; an unknown name is no family.
func TestFamilyNamed(t *testing.T) {
	tests := []struct {
		name    string
		found   bool
		byValue bool
	}{
		{"multiprocessing", true, false},
		{"multiprocess", true, true},
		{"billiard", false, false},
	}
	for _, tt := range tests {
		f, ok := FamilyNamed(tt.name)
		if ok != tt.found || f.PicklesByValue != tt.byValue {
			t.Errorf("FamilyNamed(%q) = %+v, %v; want found %v, by value %v", tt.name, f, ok, tt.found, tt.byValue)
		}
	}
}

// TestFamilyDefaultStartMethod: the standard library's default follows
// CPython (forkserver on Linux from 3.14, spawn on macOS and Windows);
// multiprocess's default context forks wherever fork exists, on every
// version; an unknown family takes CPython's.
func TestFamilyDefaultStartMethod(t *testing.T) {
	linux313 := pytarget.Config{Version: pytarget.Py313Late, Platform: pytarget.Linux}
	linux314 := pytarget.Config{Version: pytarget.Py314Early, Platform: pytarget.Linux}
	linux315 := pytarget.Config{Version: pytarget.Py315, Platform: pytarget.Linux}
	mac314 := pytarget.Config{Version: pytarget.Py314Late, Platform: pytarget.MacOS}
	win314 := pytarget.Config{Version: pytarget.Py314Late, Platform: pytarget.Windows}
	tests := []struct {
		family string
		c      pytarget.Config
		want   pytarget.StartMethod
	}{
		{"multiprocessing", linux313, pytarget.Fork},
		{"multiprocessing", linux314, pytarget.Forkserver},
		{"multiprocessing", linux315, pytarget.Forkserver},
		{"multiprocessing", mac314, pytarget.Spawn},
		{"multiprocessing", win314, pytarget.Spawn},
		{"multiprocess", linux313, pytarget.Fork},
		{"multiprocess", linux314, pytarget.Fork},
		{"multiprocess", linux315, pytarget.Fork},
		{"multiprocess", mac314, pytarget.Fork},
		{"multiprocess", win314, pytarget.Spawn},
		{"billiard", linux314, pytarget.Forkserver},
	}
	for _, tt := range tests {
		if got := DefaultStartMethod(tt.family, tt.c); got != tt.want {
			t.Errorf("DefaultStartMethod(%q, %v) = %v, want %v", tt.family, tt.c, got, tt.want)
		}
	}
	for _, f := range Families() {
		if f.Evidence == "" {
			t.Errorf("family %q has no Evidence for its default start method", f.Name)
		}
	}
}
