package model

import (
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Computed module attributes. Libraries with pluggable backends fill their
// namespace at import time from a module chosen at run time (DGL's test
// backend, and dgl.backend itself):
//
//	mod = importlib.import_module(".%s" % backend_name, __name__)
//	for api in backend_unittest.__dict__.keys():
//	    globals()[api] = mod.__dict__[api]
//
// after which `F.cuda()` in a test is the chosen backend's cuda(). Two
// pieces make that visible:
//
//   - importlib.import_module(name, package) of a local module: a constant
//     name is that module; a name built from a constant "." and a value
//     the model does not know (".%s" % x, "." + x, f".{x}") is any module of
//     the importing package's directory (importModuleValues);
//   - stores into the module namespace by a computed name,
//     `globals()[k] = v` and `setattr(sys.modules[__name__], k, v)` (or a
//     name bound to that module), are the module's attributes when nothing
//     binds the name as written (dynamicAttr): a constant k binds that
//     name; `v` read from another namespace under the same k
//     (`m.__dict__[k]`, `getattr(m, k)`, `vars(m)[k]`) forwards every name
//     to m's attribute of that name; any other v is a possible value of
//     every name.
//
// The prefilter (passes/pyprogram) follows the same import: a file that
// names import_module reaches every module of its own directory.

// dynStore is one store into a module's namespace by a computed name.
type dynStore struct {
	target syntax.Expr // setattr's first argument; nil for globals()[k]
	key    syntax.Expr
	value  syntax.Expr
	scope  *Scope // where target, key and value are evaluated
}

// dynamicStoreOfTarget records `globals()[k] = value` (an assignment target).
func (ix *indexer) dynamicStoreOfTarget(t *syntax.Subscript, value syntax.Expr, sc *Scope) {
	call, ok := t.X.(*syntax.Call)
	if !ok || len(call.Args) != 0 || len(t.Index) != 1 || value == nil {
		return
	}
	if n, ok := call.Func.(*syntax.Name); !ok || n.ID != "globals" {
		return
	}
	ix.m.dynStores = append(ix.m.dynStores, dynStore{key: t.Index[0], value: value, scope: sc})
}

// dynamicStoreOfCall records `setattr(target, k, value)`; whether target is
// this module is decided when the store is read.
func (ix *indexer) dynamicStoreOfCall(c *syntax.Call, sc *Scope) {
	n, ok := c.Func.(*syntax.Name)
	if !ok || n.ID != "setattr" || len(c.Args) != 3 {
		return
	}
	for _, a := range c.Args {
		if a.Keyword != "" || a.Star != 0 {
			return
		}
	}
	ix.m.dynStores = append(ix.m.dynStores, dynStore{target: c.Args[0].Value, key: c.Args[1].Value, value: c.Args[2].Value, scope: sc})
}

// dynamicAttr is the value of m's attribute name through the stores by a
// computed name, for a name that no statement binds as written: a memo of
// the program's, settled with the other value memos (valuesolver.go), and
// so evaluated outside any call context, as a module-level binding is.
// Cutting a store that read the attribute again, uncached, gave the names
// read on the way the values of the cut: `current = this.spare` held
// nothing when this.spare was asked before current (the dynamic case of
// TestValuesOfCyclesIndependentOfOrder).
func (ev *evaluator) dynamicAttr(m *Module, name string) []Value {
	if len(m.dynStores) == 0 || strings.HasPrefix(name, "__") {
		return nil
	}
	vs := m.Prog.values()
	key := dynKey{m, name}
	cell := vs.dynAttrs[key]
	if cell == nil {
		cell = &valueCell{}
		vs.dynAttrs[key] = cell
	}
	if out, ok := cell.done(); ok {
		return out
	}
	solver := m.Prog.valueSolver()
	if cell.state == factBusy {
		return solver.value(cell, nil) // its component's values so far
	}
	if ev.nest >= maxNest {
		return nil
	}
	return solver.value(cell, func() []Value {
		return ev.freshIn(nil, func() []Value { return ev.dynamicAttrUncached(m, name) })
	})
}

// dynamicAttrUncached evaluates the stores of m that may bind name.
func (ev *evaluator) dynamicAttrUncached(m *Module, name string) []Value {
	var out []Value
	for _, s := range m.dynStores {
		if s.target != nil && !ev.isModule(s.target, s.scope, m) {
			continue
		}
		if k, ok := s.key.(*syntax.String); ok && !k.Interpolated {
			if k.Value == name {
				out = add(out, ev.expr(s.value, s.scope)...)
			}
			continue
		}
		if from, ok := forwardedFrom(s.value, s.key); ok {
			for _, v := range ev.expr(from, s.scope) {
				out = add(out, ev.attrOf(v, name)...)
			}
			continue
		}
		out = add(out, ev.expr(s.value, s.scope)...)
	}
	return out
}

// dynKey is a computed attribute: a module and the name read.
type dynKey struct {
	m    *Module
	name string
}

// isModule reports whether e, evaluated in sc, may be module m itself.
func (ev *evaluator) isModule(e syntax.Expr, sc *Scope, m *Module) bool {
	for _, v := range ev.expr(e, sc) {
		if v.Kind == VModule && v.Mod == m {
			return true
		}
	}
	return false
}

// forwardedFrom returns the namespace a stored value is read from under the
// store's own key: m for `m.__dict__[k]`, `vars(m)[k]` and `getattr(m, k)`.
func forwardedFrom(value, key syntax.Expr) (syntax.Expr, bool) {
	k, ok := key.(*syntax.Name)
	if !ok {
		return nil, false
	}
	sameKey := func(e syntax.Expr) bool { return isNameExpr(e, k.ID) }
	switch v := value.(type) {
	case *syntax.Subscript:
		if len(v.Index) != 1 || !sameKey(v.Index[0]) {
			return nil, false
		}
		if a, ok := v.X.(*syntax.Attribute); ok && a.Attr == "__dict__" {
			return a.X, true
		}
		if c, ok := v.X.(*syntax.Call); ok && len(c.Args) == 1 && c.Args[0].Keyword == "" && c.Args[0].Star == 0 {
			if n, ok := c.Func.(*syntax.Name); ok && n.ID == "vars" {
				return c.Args[0].Value, true
			}
		}
	case *syntax.Call:
		if n, ok := v.Func.(*syntax.Name); ok && n.ID == "getattr" && len(v.Args) >= 2 &&
			v.Args[0].Keyword == "" && v.Args[1].Keyword == "" && sameKey(v.Args[1].Value) {
			return v.Args[0].Value, true
		}
	}
	return nil, false
}

// sysModulesEntry is the value of `sys.modules[__name__]` read in sc: the
// module itself.
func sysModulesEntry(v Value, e *syntax.Subscript, sc *Scope) (Value, bool) {
	if v.Kind != VPath || v.Path != "sys.modules" || len(e.Index) != 1 {
		return Value{}, false
	}
	if isNameExpr(e.Index[0], "__name__") && len(lookup("__name__", sc)) == 0 {
		return Value{Kind: VModule, Mod: sc.Module}, true
	}
	return Value{}, false
}

// importModuleValues is what importlib.import_module(name, package) called
// in sc returns when it names local modules: the module a constant name
// names, or, for a relative name built from "." and an unknown part, every
// module of the importing package (its directory). It returns nil when the
// model cannot tell.
func (ev *evaluator) importModuleValues(c *syntax.Call, sc *Scope) []Value {
	nameArg := argExpr(c, 0, "name")
	if nameArg == nil {
		return nil
	}
	m := sc.Module
	name, rest, dynamic := importName(nameArg, ev, sc)
	if name == "" {
		return nil
	}
	level := 0
	for level < len(name) && name[level] == '.' {
		level++
	}
	if level > 1 || level > 0 && !ev.ownPackage(argExpr(c, 1, "package"), sc) {
		// ("..x": not followed; the prefilter reaches the importing
		// directory and the absolute names in strings only.)
		return nil
	}
	if !dynamic {
		if mod := m.importedModule(name[level:], level); mod != nil {
			return []Value{{Kind: VModule, Mod: mod}}
		}
		return nil
	}
	if name != "." {
		// ".sub.%s", "pkg.%s": not followed (the prefilter reaches the
		// importing directory only).
		return nil
	}
	// The unknown part's known values choose among them: DGL's backend
	// name is an environment variable, a config file's entry or
	// "pytorch", and the model follows the one it can see, as it follows
	// an argparse default. Only when it knows none is every module of the
	// directory a candidate.
	subs := knownStrings(rest, ev, sc)
	if len(subs) == 0 {
		subs = packageModules(m)
	}
	var out []Value
	for _, sub := range subs {
		if !isIdentifier(sub) {
			continue
		}
		if mod := m.importedModule(sub, 1); mod != nil {
			out = append(out, Value{Kind: VModule, Mod: mod})
		}
	}
	if len(out) > 1 {
		out = alternatives(out)
	}
	return out
}

// alternatives marks modules and functions as ones of several a dynamic
// import chooses among: a program runs one backend, so the TensorFlow
// backend's effects are not a PyTorch user's; what each returns still
// counts (every backend's cuda() names a GPU).
func alternatives(vs []Value) []Value {
	out := make([]Value, len(vs))
	for i, v := range vs {
		if v.Kind == VModule || v.Kind == VFunc {
			v.Alt = true
		}
		out[i] = v
	}
	return out
}

// knownStrings are the constant strings among e's values.
func knownStrings(e syntax.Expr, ev *evaluator, sc *Scope) []string {
	if e == nil {
		return nil
	}
	var out []string
	for _, v := range ev.expr(e, sc) {
		if v.Kind == VStr && !v.Interp {
			out = append(out, v.Str)
		}
	}
	return out
}

// importName is the module name an import_module argument spells: the
// constant, or, with dynamic set, the constant part before an unknown one
// (".%s" % x, "." + x, f".{x}") and, when written apart, the expression of
// the unknown part (x).
func importName(e syntax.Expr, ev *evaluator, sc *Scope) (name string, rest syntax.Expr, dynamic bool) {
	switch e := e.(type) {
	case *syntax.BinOp:
		s, ok := e.X.(*syntax.String)
		if !ok || s.Interpolated {
			return "", nil, false
		}
		switch {
		case e.Op == "+":
			return s.Value, e.Y, true
		case e.Op == "%" && strings.HasSuffix(s.Value, "%s") && strings.Count(s.Value, "%") == 1:
			return strings.TrimSuffix(s.Value, "%s"), e.Y, true
		}
		return "", nil, false
	}
	vs := ev.expr(e, sc)
	if len(vs) != 1 || vs[0].Kind != VStr {
		return "", nil, false
	}
	return vs[0].Str, nil, vs[0].Interp
}

// ownPackage reports whether import_module's package argument is the
// importing module's package: __package__, or __name__ in a package's
// __init__.py.
func (ev *evaluator) ownPackage(e syntax.Expr, sc *Scope) bool {
	n, ok := e.(*syntax.Name)
	if !ok || len(lookup(n.ID, sc)) > 0 {
		return false
	}
	switch n.ID {
	case "__package__":
		return true
	case "__name__":
		return filepath.Base(sc.Module.Path) == "__init__.py"
	}
	return false
}

// packageModules lists the modules of m's directory other than m: its .py
// files and its subpackages, by name, sorted.
func packageModules(m *Module) []string {
	lister, ok := m.Prog.src.(DirLister)
	if !ok {
		return nil
	}
	var out []string
	dir := filepath.Dir(m.Path)
	for _, e := range lister.ListDir(dir) {
		name := strings.TrimSuffix(e, ".py")
		switch {
		case !isIdentifier(name):
		case name == "__init__" || name == "__main__":
		case name != e && filepath.Join(dir, e) != m.Path:
			out = append(out, name)
		case name == e && m.Prog.src.IsFile(filepath.Join(dir, e, "__init__.py")):
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// DirLister is a Source that can list a directory (importlib's dynamic
// imports need it; a Source without it resolves only constant names).
type DirLister interface {
	// ListDir returns the names of dir's entries.
	ListDir(dir string) []string
}

// isIdentifier reports whether s can be a module name in an import.
func isIdentifier(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// libraryImport is the module importlib.import_module(name) names when
// name is an absolute constant that is no local module: a library.
func libraryImport(c *syntax.Call) (string, bool) {
	s, ok := argExpr(c, 0, "name").(*syntax.String)
	if !ok || s.Interpolated || s.Value == "" || strings.HasPrefix(s.Value, ".") {
		return "", false
	}
	return s.Value, true
}
