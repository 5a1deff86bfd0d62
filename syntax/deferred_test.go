package syntax

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"unsafe"
)

// TestDeferredBodies: which outermost bodies the conversion keeps encoded.
// A body is deferred only when the model's load pass takes nothing from it
// by pointer (deferred.go); everything else stays converted.
func TestDeferredBodies(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		deferred  bool
	}{
		{"plain function", "def f(x):\n    y = x + 1\n    return g(y)\n", true},
		{"method reading self", "class C:\n    def f(self):\n        return self.a.b + self.c()\n", true},
		{"attribute read on the left of an operator", "def f(a):\n    return a.b + a.c[0]\n", true},
		{"local store of a call", "def f(pool):\n    r = pool.map(g, [1])\n    return r\n", true},
		{"self attribute store", "class C:\n    def __init__(self):\n        self.x = 1\n", false},
		{"augmented attribute store", "class C:\n    def f(self):\n        self.n += 1\n", false},
		{"tuple of attribute stores", "class C:\n    def f(self):\n        self.a, self.b = 1, 2\n", false},
		{"for target attribute", "def f(o):\n    for o.i in range(3):\n        pass\n", false},
		{"with target attribute", "def f(o):\n    with open('p') as o.fh:\n        pass\n", false},
		{"subscript store", "def f(d):\n    d['k'] = 1\n    d.x[0] = 2\n", true},
		{"store into another parameter's attribute", "def f(a, o):\n    o.x = 1\n", true},
		{"store into an attribute of self's attribute", "class C:\n    def f(self):\n        self.a.b = 1\n", true},
		{"store into an attribute of a local", "class C:\n    def f(self):\n        o = g()\n        o.x = self\n", true},
		{"self attribute in a starred target", "class C:\n    def f(self, v):\n        a, *self.rest = v\n", false},
		{"globals store", "def f(k, v):\n    globals()[k] = v\n", false},
		{"setattr", "def f(m, k, v):\n    setattr(m, k, v)\n", false},
		{"global statement", "def f():\n    global H\n    H = 1\n", false},
		{"nested function", "def f():\n    def g():\n        pass\n    return g\n", false},
		{"nested class", "def f():\n    class K:\n        pass\n", false},
		{"lambda", "def f(xs):\n    return sorted(xs, key=lambda x: -x)\n", false},
		{"import in the body", "def f():\n    import torch\n    torch.cuda.init()\n", false},
		{"from import in the body", "def f():\n    from os import fork\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			f.DeferBodies([]byte(tc.src), nil)
			d := outermostDef(f.Body)
			if d == nil {
				t.Fatal("no function")
			}
			if _, got := d.Deferred(); got != tc.deferred {
				t.Errorf("deferred = %v, want %v", got, tc.deferred)
			}
			if len(d.Body()) == 0 {
				t.Error("empty body")
			}
		})
	}
}

func outermostDef(list []Stmt) *FunctionDef {
	for _, s := range list {
		switch s := s.(type) {
		case *FunctionDef:
			return s
		case *ClassDef:
			if d := outermostDef(s.Body); d != nil {
				return d
			}
		}
	}
	return nil
}

// TestDeferredBodyIdentity: Body decodes once and hands out the same nodes
// from then on; ScanBody before it hands out a copy it does not keep.
func TestDeferredBodyIdentity(t *testing.T) {
	src := []byte("def f(x):\n    return g(x)\n")
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	d := f.Body[0].(*FunctionDef)
	if _, ok := d.Deferred(); ok {
		t.Fatal("deferred before DeferBodies")
	}
	f.DeferBodies(src, nil)
	sp, ok := d.Deferred()
	if !ok {
		t.Fatal("not deferred")
	}
	if want := (Span{Start: 14, End: 25}); sp != want {
		t.Errorf("deferred span %v, want %v", sp, want)
	}
	scanned := d.ScanBody()
	if _, ok := d.Deferred(); !ok {
		t.Error("ScanBody decoded the body for keeps")
	}
	body := d.Body()
	if &body[0] == &scanned[0] || body[0] == scanned[0] {
		t.Error("ScanBody returned the nodes Body keeps")
	}
	if !reflect.DeepEqual(body, scanned) {
		t.Error("ScanBody and Body differ")
	}
	if again := d.Body(); again[0] != body[0] {
		t.Error("Body decoded twice")
	}
	if _, ok := d.Deferred(); ok {
		t.Error("still deferred after Body")
	}
	if d.ScanBody()[0] != body[0] {
		t.Error("ScanBody after Body: not the kept nodes")
	}
}

// TestDeferredBodiesConvertAsBefore: over every fixture and the standard
// library sample, a tree with deferred bodies, once they are decoded, is
// the tree converted without deferring anything.
func TestDeferredBodiesConvertAsBefore(t *testing.T) {
	deferred := 0
	eachParsed(t, func(p string, src []byte, lazy *File) {
		lazy.DeferBodies(src, nil)
		deferred += countDeferred(lazy.Body)
		if d := eagerDifference(t, src, lazy); d != "" {
			t.Errorf("%s: %s", p, d)
		}
	})
	if deferred == 0 {
		t.Error("no body was deferred")
	}
}

func countDeferred(list []Stmt) int {
	n := 0
	for _, s := range list {
		switch s := s.(type) {
		case *FunctionDef:
			if _, ok := s.Deferred(); ok {
				n++
			}
		case *ClassDef:
			n += countDeferred(s.Body)
		}
	}
	return n
}

// TestDeferredBodiesConcurrently: Body is safe for concurrent use, on one
// function and across the functions of a file, which decode into one shared
// arena; every body decodes to what the eager conversion gives.
func TestDeferredBodiesConcurrently(t *testing.T) {
	var src []byte
	for i := range 64 {
		src = append(src, fmt.Sprintf("def f%d(x, y=%d):\n    z = [g(a) for a in x if a.ok]\n    return {'k': z, 'n': y + %d}\n\n", i, i, i)...)
	}
	lazy, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	lazy.DeferBodies(src, nil)
	if n := countDeferred(lazy.Body); n != 64 {
		t.Fatalf("%d bodies deferred, want 64", n)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lazy.Body {
				d := lazy.Body[(i*(w+1))%len(lazy.Body)].(*FunctionDef)
				d.Body()
				d.ScanBody()
			}
		}()
	}
	wg.Wait()
	if d := eagerDifference(t, src, lazy); d != "" {
		t.Error(d)
	}
}

// eagerDifference is where lazy, a tree of src with deferred bodies,
// differs from the tree converted without deferring any, its deferred
// bodies decoded; "" when nowhere.
func eagerDifference(t *testing.T, src []byte, lazy *File) string {
	t.Helper()
	deferBodies = false
	eager, err := Parse(src)
	deferBodies = true
	if err != nil {
		t.Fatal(err)
	}
	compareDeferral = false
	defer func() { compareDeferral = true }()
	return firstDifference(reflect.ValueOf(eager), reflect.ValueOf(lazy), "File")
}

// TestInspectShallow: DeferBodies shows the caller each body it defers,
// and InspectShallow walks everything else of the definition (decorators,
// parameter defaults) but not that body, before and after it is decoded.
func TestInspectShallow(t *testing.T) {
	src := []byte("@cached(size=8)\ndef f(x, n=limit()):\n    return g(x.attr)\n\nclass C:\n    def m(self):\n        return h()\n")
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	names := func(walk func(Node, func(Node) bool), stmts []Stmt) []string {
		var out []string
		for _, s := range stmts {
			walk(s, func(n Node) bool {
				if n, ok := n.(*Name); ok {
					out = append(out, n.ID)
				}
				return true
			})
		}
		return out
	}
	var shown []string
	f.DeferBodies(src, func(body []Stmt) { shown = append(shown, names(Inspect, body)...) })
	if want := []string{"g", "x", "h"}; !slices.Equal(shown, want) {
		t.Errorf("DeferBodies showed the names %v, want %v", shown, want)
	}
	want := []string{"cached", "limit"} // parameters are not Names
	if got := names(InspectShallow, f.Body); !slices.Equal(got, want) {
		t.Errorf("InspectShallow: %v, want %v", got, want)
	}
	f.Body[0].(*FunctionDef).Body() // decoded: still skipped
	if got := names(InspectShallow, f.Body); !slices.Equal(got, want) {
		t.Errorf("InspectShallow after Body: %v, want %v", got, want)
	}
	if got, all := names(Inspect, f.Body), []string{"cached", "limit", "g", "x", "h"}; !slices.Equal(got, all) {
		t.Errorf("Inspect: %v, want %v", got, all)
	}
}

// TestDecodedBodyEncoding: a deferrable body decoded from a stored tree
// keeps the bytes it came from, and they are what DeferBodies would encode
// the decoded body to, so that keeping them saves the encoding and changes
// nothing; the decoded tree, its bodies deferred so, decodes them to the
// tree converted without deferring any.
func TestDecodedBodyEncoding(t *testing.T) {
	kept := 0
	eachParsed(t, func(p string, src []byte, f *File) {
		g, err := Decode(AppendEncoded(nil, f, src), src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		// The source as DeferBodies sees it: sharing src's bytes, which the
		// decoded names point into.
		text := unsafe.String(unsafe.SliceData(src), len(src))
		for _, d := range outermostDefs(g.Body) {
			if !d.deferrable {
				if d.encoded != nil {
					t.Errorf("%s: %s: a body that cannot be deferred keeps its encoding", p, d.Name)
				}
				continue
			}
			if d.encoded == nil {
				t.Errorf("%s: %s: a deferrable body decoded without its encoding", p, d.Name)
				continue
			}
			if want, _ := deferBody(d.body, text, nil); !slices.Equal(d.encoded, want.enc) {
				t.Errorf("%s: %s: kept %d bytes, DeferBodies would encode %d different ones", p, d.Name, len(d.encoded), len(want.enc))
			}
			kept++
		}
		g.DeferBodies(src, nil)
		for _, d := range outermostDefs(g.Body) {
			if d.encoded != nil {
				t.Errorf("%s: %s: DeferBodies left the kept encoding on the definition", p, d.Name)
			}
		}
		if diff := eagerDifference(t, src, g); diff != "" {
			t.Errorf("%s: decoded, then deferred: %s", p, diff)
		}
	})
	if kept == 0 {
		t.Error("no decoded body kept its encoding")
	}
	t.Logf("%d bodies", kept)
}

// outermostDefs are the functions defined at module level or in class
// bodies (not inside functions): those whose bodies DeferBodies defers.
func outermostDefs(list []Stmt) []*FunctionDef {
	var out []*FunctionDef
	for _, s := range list {
		switch s := s.(type) {
		case *FunctionDef:
			out = append(out, s)
		case *ClassDef:
			out = append(out, outermostDefs(s.Body)...)
		}
	}
	return out
}
