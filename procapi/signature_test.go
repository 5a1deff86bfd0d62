package procapi

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// signatures asks python3 for the parameters of each qualified name (a
// function, a class, or a method as "module.Class.method"): name and kind
// (POSITIONAL_OR_KEYWORD, KEYWORD_ONLY, VAR_POSITIONAL...), self left out.
// A name python3 cannot resolve maps to null.
const signatures = `
import importlib, inspect, json, sys

def resolve(path):
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
            break
        except ImportError:
            continue
    for p in parts[i:]:
        obj = getattr(obj, p.removesuffix("()"))
        if p.endswith("()"):
            obj = obj()
    return obj

out = {}
for path in json.load(sys.stdin):
    try:
        params = list(inspect.signature(resolve(path)).parameters.values())
    except (AttributeError, ValueError, TypeError, ImportError):
        out[path] = None
        continue
    if params and params[0].name == "self":
        params = params[1:]
    out[path] = [{"name": p.name, "kind": p.kind.name} for p in params]
print(json.dumps(out))
`

type param struct{ Name, Kind string }

// stdlibReceivers are the standard-library classes whose methods the
// method rows describe, by the kind of object the model makes.
var stdlibReceivers = map[Kind][]string{
	Process:  {"multiprocessing.Process"},
	Pool:     {"multiprocessing.pool.Pool"},
	Channel:  {"multiprocessing.queues.Queue", "multiprocessing.connection.Connection"},
	Executor: {"concurrent.futures.ProcessPoolExecutor"},
}

// stdlibRoots are the roots python3 can import on CI (torch, its
// DataLoader and spawn, and multiprocess are not installed there).
var stdlibRoots = map[string]bool{"os": true, "pty": true, "multiprocessing": true, "concurrent": true}

// TestArgumentsMatchPython checks the rows of standard-library APIs
// against python3's own signatures: every argument a row names is the
// parameter of that name at that position. A row listing several spellings
// may name an argument only some of them have (Pool's context=, which
// multiprocessing.pool.Pool takes and multiprocessing.Pool does not).
func TestArgumentsMatchPython(t *testing.T) {
	type check struct {
		row   *API
		names []string // the qualified names checked for the row
	}
	var checks []check
	var all []string
	for i := range rows {
		r := &rows[i]
		var names []string
		for _, n := range r.Names {
			switch {
			case r.On != 0:
				for _, cls := range stdlibReceivers[r.On] {
					names = append(names, cls+"."+n)
				}
			case r.Family == EachFamily:
				names = append(names, "multiprocessing."+n)
			default:
				if root, _, _ := strings.Cut(n, "."); stdlibRoots[root] {
					names = append(names, n)
				}
			}
		}
		if len(names) > 0 {
			checks = append(checks, check{r, names})
			all = append(all, names...)
		}
	}
	sigs := pythonSignatures(t, all)
	for _, c := range checks {
		known := 0
		for _, n := range c.names {
			if sigs[n] != nil {
				known++
			}
		}
		if known == 0 {
			t.Errorf("%v: python3 resolves none of %q", c.row.Names, c.names)
			continue
		}
		single := append([]Arg{c.row.Method, c.row.Workers, c.row.Dataset, c.row.Persistent, c.row.PinMemory, c.row.Modules}, c.row.Targets...)
		for _, a := range append(single, c.row.Args...) {
			if !a.IsSet() {
				continue
			}
			found := false
			for _, n := range c.names {
				ps := sigs[n]
				if ps == nil {
					continue
				}
				if msg, ok := argIn(a, ps); ok {
					found = true
				} else if msg != "" {
					t.Errorf("%s: %s", n, msg)
					found = true
				}
			}
			if !found {
				t.Errorf("%v: no spelling of it has the argument %+v", c.row.Names, a)
			}
		}
	}
}

// argIn reports whether the parameters ps take the argument a where the
// row says; msg says what is wrong when they take it elsewhere, and is
// empty when they do not take it at all.
func argIn(a Arg, ps []param) (msg string, ok bool) {
	if a.Rest {
		if a.Pos < len(ps) && ps[a.Pos].Kind == "VAR_POSITIONAL" {
			return "", true
		}
		return "", false
	}
	for i, p := range ps {
		if p.Name != a.Keyword {
			continue
		}
		switch {
		case a.Pos < 0 && p.Kind == "KEYWORD_ONLY":
			return "", true
		case a.Pos == i && (p.Kind == "POSITIONAL_OR_KEYWORD" || p.Kind == "POSITIONAL_ONLY"):
			return "", true
		}
		return "argument " + a.Keyword + " is " + p.Kind + " at " + itoa(i) + ", the row says " + itoa(a.Pos), false
	}
	return "", false
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func pythonSignatures(t *testing.T, names []string) map[string][]param {
	t.Helper()
	in, err := json.Marshal(names)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", "-c", signatures)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("this test reads python3's signatures and needs python3 on PATH (CI has it): %v", err)
	}
	var sigs map[string][]param
	if err := json.Unmarshal(out, &sigs); err != nil {
		t.Fatalf("python3 printed %q: %v", out, err)
	}
	return sigs
}
