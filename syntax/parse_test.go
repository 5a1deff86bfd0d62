package syntax

import (
	"strings"
	"testing"
)

// dumpOf parses src and dumps its statements, one per line.
func dumpOf(t *testing.T, src string) string {
	t.Helper()
	return DumpFile(mustParse(t, src))
}

type dumpCase struct {
	name, src, want string
}

func runDumpCases(t *testing.T, cases []dumpCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			if got := DumpFile(f); got != tc.want {
				t.Errorf("source:\n%s\ngot:\n%s\nwant:\n%s", tc.src, got, tc.want)
			}
			if len(f.Errors) > 0 {
				t.Errorf("unexpected syntax errors %v", f.Errors)
			}
		})
	}
}

func TestImports(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"plain", "import os\n", "(import os)"},
		{"dotted as", "import os.path as p, sys\n", "(import os.path as p sys)"},
		{"dotted with spaces", "import a . b\n", "(import a.b)"},
		{"from", "from torch.multiprocessing import get_context, Pool as P\n",
			"(from torch.multiprocessing import get_context Pool as P)"},
		{"relative dot", "from . import x\n", "(from . import x)"},
		{"relative level 2", "from ..a.b import (c as d, e,)\n", "(from ..a.b import c as d e)"},
		{"relative ellipsis", "from ... import z\n", "(from ... import z)"},
		{"relative spaced", "from . . m import q\n", "(from ..m import q)"},
		{"wildcard", "from m import *\n", "(from m import *)"},
		{"future", "from __future__ import annotations, division\n", "(from __future__ import annotations division)"},
		{"future parenthesised", "from __future__ import (annotations)\n", "(from __future__ import annotations)"},
	})
	f := mustParse(t, "from ..pkg.mod import (a as b)\n")
	imp := f.Body[0].(*ImportFrom)
	if imp.Module != "pkg.mod" || imp.Level != 2 || imp.Star || len(imp.Names) != 1 ||
		imp.Names[0] != (Alias{Span: Span{23, 29}, Name: "a", AsName: "b"}) {
		t.Errorf("got %+v", imp)
	}
	f = mustParse(t, "from . import x\n")
	if imp := f.Body[0].(*ImportFrom); imp.Module != "" || imp.Level != 1 {
		t.Errorf("got %+v", imp)
	}
}

func TestFunctionDefs(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"simple", "def f(): pass\n", "(def f () (pass))"},
		{"all parameter kinds",
			"def f(a, b: int, c=1, d: str = 'x', *args, e, f=g(), **kw) -> None:\n    return a\n",
			`(def f (a b c=1 d="x" *args kw:e kw:f=(call g) **kw) (return a))`},
		{"separators", "def g(a, /, b, *, c, d=2): ...\n", "(def g (a b kw:c kw:d=2) ...)"},
		{"typed splats", "def h(*args: int, **kw: str): pass\n", "(def h (*args **kw) (pass))"},
		{"async", "async def main():\n    await asyncio.sleep(1)\n",
			"(async def main () (await (call (. asyncio sleep) 1)))"},
		{"decorators", "@torch.no_grad()\n@staticmethod\ndef run(x):\n    return x\n",
			"(def @(call (. torch no_grad)) @staticmethod run (x) (return x))"},
		{"type parameters", "def first[T](xs: list[T]) -> T:\n    return xs[0]\n",
			"(def first (xs) (return ([] xs 0)))"},
		{"nested", "def outer():\n    def inner():\n        call()\n    return inner\n",
			"(def outer () (def inner () (call call)) (return inner))"},
		{"lambda", "f = lambda a, *b, c=1, **d: a\n", "(= [f] (lambda (a *b kw:c=1 **d) a))"},
		{"lambda no params", "f = lambda: 0\n", "(= [f] (lambda () 0))"},
	})
	src := "@dec\nasync def f[T](a, *, b=1): pass\n"
	f := mustParse(t, src)
	fn := f.Body[0].(*FunctionDef)
	if fn.Span != (Span{0, int32(len(src) - 1)}) || fn.NameSpan != (Span{15, 16}) || !fn.Async || fn.Name != "f" {
		t.Errorf("got span %v name %q at %v async %v", fn.Span, fn.Name, fn.NameSpan, fn.Async)
	}
	want := []Param{
		{Span: Span{20, 21}, Name: "a", Kind: ParamNormal},
		{Span: Span{26, 29}, Name: "b", Kind: ParamKwOnly, Default: fn.Params[1].Default},
	}
	if len(fn.Params) != 2 || fn.Params[0] != want[0] || fn.Params[1] != want[1] {
		t.Errorf("params %+v", fn.Params)
	}

	// Annotations are kept on the parameter (the model reads local class
	// names from them), with or without a default, and on *args/**kwargs.
	f = mustParse(t, "def g(exp: Exp, n: int = 2, *xs: T, **kw: nn.Module):\n    pass\n")
	ps := f.Body[0].(*FunctionDef).Params
	var got []string
	for _, p := range ps {
		got = append(got, p.Name+":"+Dump(p.Annotation))
	}
	if want := "exp:Exp n:int xs:T kw:(. nn Module)"; strings.Join(got, " ") != want {
		t.Errorf("annotations %q, want %q", strings.Join(got, " "), want)
	}
}

func TestClassDefs(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"bare", "class A: pass\n", "(class A () (pass))"},
		{"bases and keywords", "class Net(nn.Module, metaclass=Meta, **kw):\n    x = 1\n\n    def forward(self, x):\n        return self.fc(x)\n",
			"(class Net ((. nn Module) metaclass=Meta **kw) (= [x] 1) (def forward (self x) (return (call (. self fc) x))))"},
		{"decorated", "@dataclass(frozen=True)\nclass P:\n    x: int\n",
			"(class @(call dataclass frozen=True) P () (= [x] : int))"},
		{"generic", "class Box[T]:\n    item: T\n", "(class Box () (= [item] : T))"},
	})
}

func TestIf(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"if elif else", "if a:\n    f()\nelif b:\n    g()\nelif c:\n    pass\nelse:\n    h()\n",
			"(if a (call f) else: (if b (call g) else: (if c (pass) else: (call h))))"},
		{"single line block", "if x: a(); b()\n", "(if x (call a) (call b))"},
		{"main guard", "if __name__ == \"__main__\":\n    main()\n", `(if (cmp __name__ == "__main__") (call main))`},
		{"comment between clauses", "if a:\n    # c1\n    f()\n# c2\nelse:\n    g()\n", "(if a (call f) else: (call g))"},
	})
	src := "if a:\n    f()\nelif b:\n    g()\nelse:\n    h()\n"
	f := mustParse(t, src)
	s := f.Body[0].(*If)
	elif := s.Else[0].(*If)
	if s.Span != (Span{0, int32(len(src) - 1)}) || elif.Span != (Span{14, int32(len(src) - 1)}) {
		t.Errorf("if span %v elif span %v", s.Span, elif.Span)
	}
}

func TestLoops(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"for else", "for i, x in enumerate(xs):\n    use(x)\nelse:\n    done()\n",
			"(for (tuple i x) (call enumerate xs) (call use x) else: (call done))"},
		{"async for", "async def f():\n    async for x in aiter():\n        pass\n", "(async def f () (async for x (call aiter) (pass)))"},
		{"for tuple iter", "for x in a, b:\n    pass\n", "(for x (tuple a b) (pass))"},
		{"while else", "while not done():\n    step()\nelse:\n    end()\n", "(while (not (call done)) (call step) else: (call end))"},
		{"break continue", "while True:\n    break\n    continue\n", "(while True (break) (continue))"},
	})
}

func TestWith(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"as", "with open(p) as f, lock:\n    f.read()\n", "(with (call open p) as f lock: (call (. f read)))"},
		{"parenthesised items", "with (\n    a() as b,\n    c() as (d, e),\n):\n    pass\n",
			"(with (call a) as b (call c) as (tuple d e): (pass))"},
		{"async", "async def f():\n    async with s as t: pass\n", "(async def f () (async with s as t: (pass)))"},
		{"attribute target", "with ctx() as self.x: pass\n", "(with (call ctx) as (. self x): (pass))"},
	})
}

func TestTry(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"full", "try:\n    a()\nexcept (ValueError, KeyError) as e:\n    b(e)\nexcept Exception:\n    c()\nexcept:\n    raise\nelse:\n    d()\nfinally:\n    f()\n",
			"(try (call a) (except (tuple ValueError KeyError) as e: (call b e)) (except Exception: (call c)) (except: (raise)) else: (call d) finally: (call f))"},
		{"except star", "try:\n    pass\nexcept* OSError as eg:\n    handle(eg)\n", "(try (pass) (except OSError as eg: (call handle eg)))"},
		{"finally only", "try:\n    x()\nfinally:\n    y()\n", "(try (call x) finally: (call y))"},
	})
}

func TestMatch(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"cases", "match cmd:\n    case [a, b] if a > b:\n        go(a)\n    case Point(x=0) | {'k': _}:\n        stop()\n    case _:\n        pass\n",
			"(match cmd (case if (cmp a > b): (call go a)) (case: (call stop)) (case: (pass)))"},
		{"tuple subject", "match a, b:\n    case 1, 2: f()\n", "(match (tuple a b) (case: (call f)))"},
		{"match as a name", "match = re.match(p, s)\nmatch(x)\n", "(= [match] (call (. re match) p s))\n(call match x)"},
	})
}

func TestAssignments(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"simple", "x = f()\n", "(= [x] (call f))"},
		{"chained", "a = b = c = 0\n", "(= [a b c] 0)"},
		{"tuple target", "a, b = b, a\n", "(= [(tuple a b)] (tuple b a))"},
		{"starred target", "[a, *rest] = xs\n", "(= [(list a (* rest))] xs)"},
		{"parenthesised target", "(a, b) = t\n", "(= [(tuple a b)] t)"},
		{"attribute subscript targets", "self.x[i] = obj.y = v\n", "(= [([] (. self x) i) (. obj y)] v)"},
		{"annotated", "x: int = 5\n", "(= [x] : int 5)"},
		{"bare annotation", "y: Optional[str]\n", "(= [y] : ([] Optional str))"},
		{"augmented", "total += f(x)\nn <<= 2\nm //= 3\n", "(+= [total] (call f x))\n(<<= [n] 2)\n(//= [m] 3)"},
		{"yield value", "def g():\n    x = yield y\n", "(def g () (= [x] (?yield y)))"},
		{"walrus", "if (n := len(a)) > 10:\n    pass\n", "(if (cmp (:= n (call len a)) > 10) (pass))"},
	})
	f := mustParse(t, "x: int = 5\n")
	a := f.Body[0].(*Assign)
	if a.Op != "=" || a.Annotation == nil || a.Span != (Span{0, 10}) {
		t.Errorf("got %+v", a)
	}
}

func TestSimpleStatements(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"return", "def f():\n    return\n", "(def f () (return))"},
		{"return tuple", "def f():\n    return a, b\n", "(def f () (return (tuple a b)))"},
		{"global nonlocal", "def f():\n    global a, b\n    nonlocal c\n", "(def f () (global a b) (nonlocal c))"},
		{"raise from", "raise RuntimeError(msg) from err\n", "(raise (call RuntimeError msg) err)"},
		{"assert", "assert torch.cuda.is_available(), 'no gpu'\n",
			`(assert (call (. (. torch cuda) is_available)) "no gpu")`},
		{"del", "del a[0], b.c\n", "(delete ([] a 0) (. b c))"},
		{"pass", "pass\n", "(pass)"},
		{"type alias", "type Vec = list[float]\n", "(type_alias Vec ([] list float))"},
		{"print statement", "print >>sys.stderr, 'x'\n", `(print (. sys stderr) "x")`},
		{"expression list", "a, b\n", "(tuple a b)"},
		{"semicolons", "a(); b(); c()\n", "(call a)\n(call b)\n(call c)"},
		{"module docstring", "\"\"\"Doc.\"\"\"\nimport os\n", "\"Doc.\"\n(import os)"},
		{"yield statement", "def g():\n    yield\n    yield from h()\n", "(def g () (?yield) (?yield (call h)))"},
	})
}

func TestExpressions(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"call arguments", "f(a, *b, k=1, **c)\n", "(call f a *b k=1 **c)"},
		{"generator argument", "sum(x * x for x in xs)\n", "(call sum (genexp (* x x) (for x xs)))"},
		{"generator argument parenthesised", "f((x for x in y), 1)\n", "(call f (genexp x (for x y)) 1)"},
		{"method chain", "torch.cuda.set_device(rank).x\n", "(. (call (. (. torch cuda) set_device) rank) x)"},
		{"numbers", "x = [1, 2.5, 0x1f, 1_000, 3j, 1e-3]\n", "(= [x] (list 1 2.5 0x1f 1_000 3j 1e-3))"},
		{"constants", "x = (True, False, None, ...)\n", "(= [x] (tuple True False None ...))"},
		{"empty containers", "x = [], (), {}, set()\n", "(= [x] (tuple (list) (tuple) (dict) (call set)))"},
		{"set and dict", "x = {1, *a}, {'a': 1, **b}\n", `(= [x] (tuple (set 1 (* a)) (dict ("a" 1) (** b))))`},
		{"comparisons", "a < b <= c != d\nx not in y\nx is not None\na <> b\n",
			"(cmp a < b <= c != d)\n(cmp x not in y)\n(cmp x is not None)\n(cmp a != b)"},
		{"boolean", "a and b or not c\n", "(or (and a b) (not c))"},
		{"binary", "a + b * c ** -d @ e // f % g | h ^ j << k >> l\n",
			"(| (+ a (% (// (@ (* b (** c (- d))) e) f) g)) (^ h (>> (<< j k) l)))"},
		{"unary", "x = -a, +b, ~c\n", "(= [x] (tuple (- a) (+ b) (~ c)))"},
		{"conditional", "x = a if cond else b\n", "(= [x] (ifexp a cond b))"},
		{"subscripts", "x[1]\nx[a, b]\nx[1:2, ::3]\nx[*y]\n",
			"([] x 1)\n([] x a b)\n([] x (?slice 1 2) (?slice 3))\n([] x (* y))"},
		{"comprehensions", "[x for x in a if x if y for z in b]\n{k: v for k, v in d.items()}\n{x async for x in g()}\n",
			"(listcomp x (for x a if x if y) (for z b))\n(dictcomp k v (for (tuple k v) (call (. d items))))\n(setcomp x (for x (call g)))"},
		{"await", "async def f():\n    return await g()\n", "(async def f () (return (await (call g))))"},
		{"parentheses unwrap", "x = ((a))\n", "(= [x] a)"},
		{"starred in call display", "print(*[1, 2])\n", "(call print *(list 1 2))"},
		{"keyword names", "f(print=1, exec=2, match=3)\n", "(call f print=1 exec=2 match=3)"},
		{"dictionary splat in call", "f(**{'a': 1})\n", `(call f **(dict ("a" 1)))`},
	})
}

func TestStringLiterals(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"escapes", `x = "a\tb\n\\ \' \" \x41 \u00e9 \N{DASH} \q"` + "\n", `(= [x] "a\tb\n\\ ' \" A é \\N{DASH} \\q")`},
		{"raw", `x = r"a\nb"` + "\n", `(= [x] "a\\nb")`},
		{"bytes", `x = b"\x00\xff" + rb"\x00"` + "\n", `(= [x] (+ "\x00\xff" "\\x00"))`},
		{"unicode prefix", `x = u'ok'` + "\n", `(= [x] "ok")`},
		{"triple", "x = '''a\nb'''\n", `(= [x] "a\nb")`},
		{"line continuation in string", "x = 'a\\\nb'\n", `(= [x] "ab")`},
		{"concatenated", "x = ('a' 'b'\n     \"c\")\n", `(= [x] "abc")`},
		{"f-string", `x = f"x={x!r:>{width}} {{lit}} {y=}"` + "\n", `(= [x] (fstr "x= {lit} " x width y))`},
		{"f-string nested quotes", `x = f"{'a' if c else "b"}"` + "\n", `(= [x] (fstr "" (ifexp "a" c "b")))`},
		{"rf-string", `x = rf"\d{n}"` + "\n", `(= [x] (fstr "\\d" n))`},
		{"f-string concat", `x = "a" f"{b}" 'c'` + "\n", `(= [x] (fstr "ac" b))`},
		{"f-string call", `log(f"rank {dist.get_rank()}")` + "\n", `(call log (fstr "rank " (call (. dist get_rank))))`},
		{"octal", `x = "\101\0"` + "\n", `(= [x] "A\x00")`},
	})
	f := mustParse(t, `x = f"a{b}c"`+"\n")
	s := f.Body[0].(*Assign).Value.(*String)
	if !s.Interpolated || s.Value != "ac" || len(s.Exprs) != 1 || s.Span != (Span{4, 12}) || s.Exprs[0].Pos() != (Span{8, 9}) {
		t.Errorf("got %+v", s)
	}
}

func TestComments(t *testing.T) {
	src := "# first\nimport os  # trailing\nif x:\n    # inside\n    pass\nf(a,  # in call\n  b)\n# last"
	f := mustParse(t, src)
	var got []string
	for _, c := range f.Comments {
		got = append(got, c.Text)
		if src[c.Start:c.End] != c.Text {
			t.Errorf("comment %q at %v", c.Text, c.Span)
		}
	}
	want := []string{"# first", "# trailing", "# inside", "# in call", "# last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("comments %q, want %q", got, want)
	}
	if d := DumpFile(f); d != "(import os)\n(if x (pass))\n(call f a b)" {
		t.Errorf("dump %s", d)
	}
}

// TestSpans checks exact byte offsets, with multi-byte characters before
// the nodes so that byte and rune offsets differ.
func TestSpans(t *testing.T) {
	src := "s = 'héllo wörld'  # ünïcode\nx = torch.cuda.device_count(1, k=v)\n"
	f := mustParse(t, src)
	at := func(sub string) Span {
		i := strings.Index(src, sub)
		if i < 0 {
			t.Fatalf("%q not in source", sub)
		}
		return Span{int32(i), int32(i + len(sub))}
	}
	a := f.Body[1].(*Assign)
	call := a.Value.(*Call)
	attr := call.Func.(*Attribute)
	checks := []struct {
		what     string
		got, wnt Span
	}{
		{"string", f.Body[0].(*Assign).Value.Pos(), at("'héllo wörld'")},
		{"comment", f.Comments[0].Span, at("# ünïcode")},
		{"assign", a.Span, at("x = torch.cuda.device_count(1, k=v)")},
		{"target", a.Targets[0].Pos(), Span{at("x = t").Start, at("x = t").Start + 1}},
		{"call", call.Span, at("torch.cuda.device_count(1, k=v)")},
		{"args", call.ArgsSpan, at("(1, k=v)")},
		{"func", attr.Span, at("torch.cuda.device_count")},
		{"attr", attr.AttrSpan, at("device_count")},
		{"inner attr", attr.X.Pos(), at("torch.cuda")},
		{"arg0", call.Args[0].Span, at("1, k")},
		{"kwarg", call.Args[1].Span, at("k=v")},
		{"keyword", call.Args[1].KeywordSpan, Span{at("k=v").Start, at("k=v").Start + 1}},
	}
	checks[9].wnt.End = checks[9].wnt.Start + 1
	for _, c := range checks {
		if c.got != c.wnt {
			t.Errorf("%s: span %v, want %v (%q)", c.what, c.got, c.wnt, src[c.wnt.Start:c.wnt.End])
		}
	}
}

// TestErrorRecovery checks that syntax errors leave the rest of the file
// converted and are listed in Errors.
func TestErrorRecovery(t *testing.T) {
	cases := []struct {
		name, src, want string
		errs            []string // text of each error region
	}{
		{
			name: "missing paren mid-file",
			src:  "import torch\nx = f(1, 2\nb()\ndef g():\n    h()\n",
			want: "(import torch)\n(ERROR x f 1 2 (call b) def (call g) (call h))",
			errs: []string{"x = f(1, 2\nb()\ndef g():\n    h()"},
		},
		{
			name: "stray token",
			src:  "a()\nx = = 2\nb()\n",
			want: "(call a)\n(= [x] 2)\n(call b)",
			errs: []string{"="},
		},
		{
			name: "unclosed at end of file",
			src:  "a()\nb(",
			want: "(call a)\n(ERROR b)",
			errs: []string{"b("},
		},
		{
			name: "unexpected indent is tolerated",
			src:  "def f():\n    a()\n      b()\n    c()\nd()\n",
			want: "(def f () (call a) (call b) (call c))\n(call d)",
		},
		{
			name: "broken statement inside a function",
			src:  "def f():\n    a()\n    x = [1, 2\n    b()\n\ndef g():\n    c()\n",
			// tree-sitter gives up on everything after the open bracket: the
			// calls are kept, the def g structure is not.
			want: "(def f () (call a) (ERROR x 1 2 (call b) def (call g) (call c)))",
			errs: []string{"x = [1, 2\n    b()\n\ndef g():\n    c()"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			if got := DumpFile(f); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			var errs []string
			for _, e := range f.Errors {
				errs = append(errs, tc.src[e.Start:e.End])
			}
			if strings.Join(errs, "|") != strings.Join(tc.errs, "|") {
				t.Errorf("errors %q, want %q", errs, tc.errs)
			}
		})
	}
}

// TestNewerSyntax feeds Python 3.12-3.15 constructs the bundled grammar
// predates: the statements around them (and, where tree-sitter keeps them,
// inside) must still be there.
func TestNewerSyntax(t *testing.T) {
	cases := []struct {
		name, src, want string
		errors          bool
	}{
		{
			name: "3.12 type statement and generics",
			src:  "before()\ntype Pair[T] = tuple[T, T]\ndef f[T: int, *Ts, **P](x: T) -> T:\n    inner()\nclass C[T](Base[T]): pass\nafter()\n",
			want: "(call before)\n(type_alias ([] Pair T) ([] tuple T T))\n(def f (x) (call inner))\n(class C (([] Base T)) (pass))\n(call after)",
		},
		{
			name: "3.12 f-string quote reuse",
			src:  "x = f\"{d[\"key\"]} {', '.join(xs)}\"\nafter()\n",
			want: "(= [x] (fstr \" \" ([] d \"key\") (call (. \", \" join) xs)))\n(call after)",
		},
		{
			name:   "3.13 type parameter defaults",
			src:    "before()\ndef f[T = int](x):\n    inner()\nclass C[T = str]:\n    def m(self): body()\nafter()\n",
			want:   "(call before)\n(def f (x) (call inner))\n(class C () (def m (self) (call body)))\n(call after)",
			errors: true,
		},
		{
			name: "3.14 template strings",
			src:  "before()\nmsg = t\"hello {name} {f(x)!r}\"\nsql(t'select {col}', T\"\"\"{q}\"\"\")\nafter()\n",
			want: "(call before)\n(= [msg] (fstr \"hello  \" name (call f x)))\n(call sql (fstr \"select \" col) (fstr \"\" q))\n(call after)",
		},
		{
			name: "3.15 lazy imports",
			src:  "before()\nlazy import json\nlazy from pathlib import Path\nafter(json, Path)\n",
			want: "(call before)\n(lazy import json)\n(lazy from pathlib import Path)\n(call after json Path)",
		},
		{
			name: "starred element next to a template string",
			src:  "def f(a):\n    return t\"{a}\", *((None,) * 3)\nafter()\n",
			want: "(def f (a) (return (tuple (fstr \"\" a) (* (* (tuple None) 3)))))\n(call after)",
		},
		{
			name:   "3.14 except without parentheses",
			src:    "try:\n    risky()\nexcept ValueError, TypeError:\n    handle()\ntry:\n    pass\nexcept* A, B, C:\n    other()\nafter()\n",
			want:   "(try (call risky) (except (tuple ValueError TypeError): (call handle)))\n(try (pass) (except (tuple A B C): (call other)))\n(call after)",
			errors: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			if got := DumpFile(f); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if (len(f.Errors) > 0) != tc.errors {
				t.Errorf("errors %v, want some: %v", f.Errors, tc.errors)
			}
		})
	}
}
