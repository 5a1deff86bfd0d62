package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// fixtureSources are every Python file under testdata/py, whose shapes
// cover the indexer's.
func fixtureSources() memSource {
	files := memSource{}
	filepath.WalkDir("../testdata/py", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			if b, err := os.ReadFile(p); err == nil {
				files[p] = string(b)
			}
		}
		return nil
	})
	return files
}

// TestDeferredBodiesHoldNothing checks the contract of syntax's deferred
// bodies from the model's side: once a module is loaded, nothing its load
// pass recorded (bindings and their values, functions, classes, lambdas,
// instance attributes, stores by a computed name, import statements) lies
// in a body DeferBodies kept encoded. A pointer into such a body would be
// a node that Body, decoding it again, no longer hands out. The fixtures
// are every Python file under testdata/py, whose shapes cover the indexer's.
func TestDeferredBodiesHoldNothing(t *testing.T) {
	files := fixtureSources()
	if len(files) < 100 {
		t.Fatalf("only %d fixtures", len(files))
	}
	// The stores a deferred body may hold, next to those that pin one.
	files["shapes.py"] = `import torch

class Trainer:
    def __init__(self, model, loader):
        self.model = model
        self.loader, self.steps = loader, 0

    def configure(self, opts):
        self.model.device = opts["device"]
        opts["seen"] = True
        cfg = make_config()
        cfg.workers = 4
        self.loaders[0] = cfg

    def step(self, batch):
        return self.model(batch.to("cuda"))

def patch(name, value, module):
    module.attr = value
    table = {}
    table[name] = value
    return table
`
	deferred := 0
	for path := range files {
		m, err := NewProgram(files, Options{}).Module(path)
		if err != nil {
			continue // a fixture the parser refuses, on purpose
		}
		var bodies []syntax.Span
		for _, f := range m.Funcs {
			if f.Def != nil {
				if sp, ok := f.Def.Deferred(); ok {
					bodies = append(bodies, sp)
				}
			}
		}
		deferred += len(bodies)
		inBody := func(what string, sp syntax.Span) {
			for _, b := range bodies {
				if b.Contains(sp) {
					t.Errorf("%s: %s at %v lies in the deferred body %v", path, what, sp, b)
				}
			}
		}
		var bindings func(sc *Scope)
		bindings = func(sc *Scope) {
			for name, bs := range sc.Bindings {
				for _, b := range bs {
					inBody("binding of "+name, b.Span)
					if b.Value != nil {
						inBody("value of "+name, b.Value.Pos())
					}
				}
			}
		}
		bindings(m.Scope)
		for _, c := range m.Classes {
			inBody("class "+c.Name, c.Def.Span)
			bindings(c.Scope)
			for name, bs := range c.SelfAttrs {
				for _, b := range bs {
					inBody("instance attribute "+name, b.Span)
				}
			}
		}
		for _, f := range m.Funcs {
			inBody("function "+f.QualName, f.Span())
		}
		for sp := range m.lambdas {
			inBody("lambda", sp)
		}
		for _, s := range m.dynStores {
			inBody("store by a computed name", s.key.Pos())
		}
		for _, s := range m.imports() {
			inBody("import", s.Pos())
		}
	}
	if deferred == 0 {
		t.Error("no fixture had a deferred body: the test checks nothing")
	}
	m, err := NewProgram(files, Options{}).Module("shapes.py")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"Trainer.__init__": false, "Trainer.configure": true, "Trainer.step": true, "patch": true}
	for _, f := range m.Funcs {
		if _, got := f.Def.Deferred(); got != want[f.QualName] {
			t.Errorf("shapes.py %s: deferred %v, want %v", f.QualName, got, want[f.QualName])
		}
	}
	if got := len(m.Classes[0].SelfAttrs); got != 3 {
		t.Errorf("Trainer has %d instance attributes, want 3 (model, loader, steps)", got)
	}
	t.Logf("%d deferred bodies in %d fixtures", deferred, len(files))
}

// TestOptionsDecodeOnlyBodiesWithOptions: the module-wide index of
// add_argument calls keeps pointers to them, so it decodes the deferred
// bodies that hold one, and only those (inspectWanted).
func TestOptionsDecodeOnlyBodiesWithOptions(t *testing.T) {
	files := memSource{"train.py": `import argparse

def scale(x):
    return x * 2

def parser():
    p = argparse.ArgumentParser()
    p.add_argument("--num-workers", type=int, default=2)
    return p
`}
	m := load(t, files, "train.py")
	def := func(name string) *syntax.FunctionDef {
		for _, f := range m.Funcs {
			if f.Name == name {
				return f.Def
			}
		}
		t.Fatalf("no function %s", name)
		return nil
	}
	for _, name := range []string{"scale", "parser"} {
		if _, ok := def(name).Deferred(); !ok {
			t.Fatalf("%s: body not deferred at load", name)
		}
	}
	opts := m.Prog.values().options(m)
	if len(opts) != 1 || opts[0].dest != "num_workers" {
		t.Fatalf("options = %+v, want num_workers", opts)
	}
	if _, ok := def("scale").Deferred(); !ok {
		t.Error("scale: decoded, though it holds no add_argument call")
	}
	if _, ok := def("parser").Deferred(); ok {
		t.Error("parser: still deferred, though its option was indexed")
	}
}

// TestUsedNamesKeepBodiesDeferred: usedNames takes the names of the bodies
// DeferBodies deferred from what it was shown as it deferred them, so it
// decodes none of them, and finds the same names as a walk that decodes
// every body. The fixtures are every Python file under testdata/py.
func TestUsedNamesKeepBodiesDeferred(t *testing.T) {
	files := fixtureSources()
	// Names only a deferred body uses: a call, an attribute, getattr's
	// constant name; the other strings are data, not uses.
	files["launch.py"] = `import os

@register("jobs:launch")
def launch(cfg, retries=default_retries()):
    worker = getattr(cfg, "entry_point")
    return worker.submit(build_env(os.environ), "pkg.module:main")
`
	deferred := 0
	for path := range files {
		m, err := NewProgram(files, Options{}).Module(path)
		if err != nil {
			continue
		}
		var defs []*syntax.FunctionDef
		for _, f := range m.Funcs {
			if f.Def != nil {
				if _, ok := f.Def.Deferred(); ok {
					defs = append(defs, f.Def)
				}
			}
		}
		deferred += len(defs)
		got := m.usedNames()
		for _, d := range defs {
			if _, ok := d.Deferred(); !ok {
				t.Errorf("%s: usedNames decoded the body of %s", path, d.Name)
			}
		}
		want := map[string]useKind{}
		for _, s := range m.File.Body {
			syntax.InspectScan(s, func(n syntax.Node) bool {
				addUsedNames(want, n)
				return true
			})
		}
		if !reflect.DeepEqual(got, want) {
			for w, k := range want {
				if got[w] != k {
					t.Errorf("%s: %q used as %d but in usedNames as %d", path, w, k, got[w])
				}
			}
			for w := range got {
				if want[w] == 0 {
					t.Errorf("%s: %q in usedNames but not used", path, w)
				}
			}
		}
		if path == "launch.py" {
			kinds := map[string]useKind{"getattr": usedAsName, "entry_point": usedAsName, "submit": usedAsAttr,
				"build_env": usedAsName, "environ": usedAsAttr, "register": usedAsName, "default_retries": usedAsName, "os": usedAsName}
			for w, k := range kinds {
				if got[w] != k {
					t.Errorf("launch.py: %q in usedNames as %d, want %d", w, got[w], k)
				}
			}
			for _, w := range []string{"pkg", "module", "main", "jobs", "launch"} {
				if got[w] != 0 {
					t.Errorf("launch.py: %q, only in a string, is in usedNames", w)
				}
			}
		}
	}
	if deferred == 0 {
		t.Fatal("no body deferred: the test shows nothing")
	}
}
