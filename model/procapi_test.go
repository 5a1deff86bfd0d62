package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// The test program's definitions: a function children can run, a dataset,
// a CUDA tensor to hand them.
const procPrelude = `import torch
import os
import pty
import concurrent.futures
import multiprocessing
import multiprocess
import torch_geometric
import dgl
import webdataset
import monai
import accelerate
import lightning
import pytorch_lightning
import lightning_fabric
import joblib
import sglang
class DS:
    def __getitem__(self, i):
        return i
def work(*a):
    pass
cuda_x = torch.zeros(1).cuda()
`

// argText is what the test passes for each argument a row names.
func argTexts(api *procapi.API, workers string) []struct {
	a    procapi.Arg
	text string
} {
	type at = struct {
		a    procapi.Arg
		text string
	}
	out := []at{{api.Method, forkName(api)}, {api.Workers, workers}, {api.Dataset, "DS()"},
		{api.Persistent, "True"}, {api.PinMemory, "True"}, {api.Modules, `["helper"]`}}
	for _, a := range api.Targets {
		out = append(out, at{a, "work"})
	}
	for _, a := range api.Args {
		out = append(out, at{a, "cuda_x"})
	}
	return out
}

// forkName is the Method argument that picks the fork start method: "fork",
// or a name of the row's MethodNames that forks (strategy="ddp_fork").
func forkName(api *procapi.API) string {
	for name, m := range api.MethodNames {
		if m == "fork" || m == "" && api.Family != "" {
			return fmt.Sprintf("%q", name)
		}
	}
	return `"fork"`
}

// callArgs writes the arguments of a call of api: by position where the row
// gives one (gaps filled with None), else by keyword; or every one by
// keyword.
func callArgs(t *testing.T, api *procapi.API, byKeyword bool, workers string) string {
	var slots []string
	var kws []string
	for _, x := range argTexts(api, workers) {
		switch {
		case !x.a.IsSet():
		case byKeyword && !x.a.Rest:
			kws = append(kws, x.a.Keyword+"="+x.text)
		case x.a.Pos >= 0:
			for len(slots) <= x.a.Pos {
				slots = append(slots, "None")
			}
			if slots[x.a.Pos] != "None" && slots[x.a.Pos] != x.text {
				t.Fatalf("%v: two arguments at position %d", api.Names, x.a.Pos)
			}
			slots[x.a.Pos] = x.text
		default:
			kws = append(kws, x.a.Keyword+"="+x.text)
		}
	}
	return strings.Join(append(slots, kws...), ", ")
}

// qualifiedNames lists the names a module-level row is called by, each
// with the family its processes use.
func qualifiedNames(api *procapi.API) (names, families []string) {
	if api.Family != procapi.EachFamily {
		for _, n := range api.Names {
			names, families = append(names, n), append(families, api.Family)
		}
		return names, families
	}
	for _, f := range procapi.Families() {
		for _, m := range f.Modules {
			for _, n := range api.Names {
				names, families = append(names, m+"."+n), append(families, f.Name)
			}
		}
	}
	return names, families
}

// resolveLast loads src and resolves the call its last statement makes.
func resolveLast(t *testing.T, src string) (callResult, *Module) {
	t.Helper()
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	last, ok := m.File.Body[len(m.File.Body)-1].(*syntax.ExprStmt)
	if !ok {
		t.Fatalf("last statement of\n%s", src)
	}
	call, ok := last.X.(*syntax.Call)
	if !ok {
		t.Fatalf("last statement of\n%s is not a call", src)
	}
	var ev evaluator
	return ev.resolveCall(call, m.Scope), m
}

// The expected behaviour of each kind, stated independently of the
// handlers: the object it makes, the effect of the call, whether the call
// returns the object.
var wantKinds = map[procapi.Kind]struct {
	obj     ObjectKind
	effect  effectKind // effCall: none
	returns bool
}{
	procapi.Fork:     {ObjFork, effStart, true},
	procapi.Process:  {ObjProcess, effCall, true},
	procapi.Pool:     {ObjPool, effStart, true},
	procapi.Executor: {ObjExecutor, effCall, true},
	procapi.Loader:   {ObjLoader, effPendingStart, true},
	procapi.Launch:   {ObjSpawn, effStart, false},
	procapi.Manager:  {ObjManager, effStart, false},
	procapi.Launcher: {ObjSpawn, effStart, false},
	procapi.Trainer:  {ObjTrainer, effCall, true},
}

// TestEveryProcessAPIIsRecognised calls every module-level row of the
// process table through each of its names, with every argument it lists
// passed by position and by keyword, and checks what the model makes of
// the call.
func TestEveryProcessAPIIsRecognised(t *testing.T) {
	for i := range procapi.Rows() {
		api := &procapi.Rows()[i]
		if api.On != 0 || api.Kind == procapi.MapAny {
			continue // MapAny: a method on any receiver (launchers_test.go)
		}
		names, families := qualifiedNames(api)
		for j, name := range names {
			for _, byKeyword := range []bool{false, true} {
				call := fmt.Sprintf("%s(%s)", name, callArgs(t, api, byKeyword, "2"))
				r, _ := resolveLast(t, procPrelude+call+"\n")
				checkModuleCall(t, call, api, families[j], r)
			}
			if api.Workers.IsSet() {
				call := fmt.Sprintf("%s(%s)", name, callArgs(t, api, true, "0"))
				r, _ := resolveLast(t, procPrelude+call+"\n")
				if len(nonUses(r.effects)) != 0 || len(r.values) != 1 || r.values[0].Kind != VPath {
					t.Errorf("%s: with no workers, effects %+v values %+v", call, r.effects, r.values)
				}
			}
		}
	}
}

// nonUses drops the CUDA uses of a call's effects: handing cuda_x to a
// call uses CUDA in the parent.
func nonUses(effects []effect) []effect {
	var out []effect
	for _, e := range effects {
		if e.kind != effUse {
			out = append(out, e)
		}
	}
	return out
}

func checkModuleCall(t *testing.T, call string, api *procapi.API, family string, r callResult) {
	t.Helper()
	fork := MethodSpec{Family: family, Kind: MethodExplicit, Method: pytarget.Fork}
	switch api.Kind {
	case procapi.Context:
		if len(r.values) != 1 || r.values[0].Kind != VContext || !sameMethod(r.values[0].spec(), fork) {
			t.Errorf("%s: values %+v, want a fork context", call, r.values)
		}
		return
	case procapi.SetMethod, procapi.Preload:
		want := map[procapi.Kind]effectKind{procapi.SetMethod: effSetMethod, procapi.Preload: effPreload}[api.Kind]
		if len(r.effects) != 1 || r.effects[0].kind != want {
			t.Fatalf("%s: effects %+v", call, r.effects)
		}
		e := r.effects[0]
		if api.Kind == procapi.SetMethod && !sameMethod(e.method(), fork) {
			t.Errorf("%s: sets %+v", call, e.method())
		}
		if api.Kind == procapi.Preload && (e.method().Family != family || len(e.mods()) != 1 || e.mods()[0] != "helper") {
			t.Errorf("%s: preloads %q in %q", call, e.mods(), e.method().Family)
		}
		return
	case procapi.Channel:
		v := r.values
		if api.Pair && len(v) == 1 && v[0].Kind == VList && len(v[0].elems()) == 2 {
			v = v[0].elems()[:1]
		}
		if len(v) != 1 || v[0].Kind != VObject || v[0].Obj.Kind != ObjChannel {
			t.Errorf("%s: values %+v, want a channel (pair %v)", call, r.values, api.Pair)
		}
		return
	}
	want, ok := wantKinds[api.Kind]
	if !ok {
		t.Fatalf("%s: no expectation for kind %s", call, api.Kind)
	}
	var o *Object
	for _, v := range r.values {
		if v.Kind == VObject {
			o = v.Obj
		}
	}
	if got := o != nil; got != want.returns {
		t.Errorf("%s: returns the object %v, want %v", call, got, want.returns)
	}
	var kinds []effectKind
	for _, e := range r.effects {
		if e.kind == effUse {
			continue // handing cuda_x to a call uses CUDA in the parent
		}
		kinds = append(kinds, e.kind)
		o = e.obj
	}
	if want.effect == effCall && len(kinds) != 0 || want.effect != effCall && (len(kinds) != 1 || kinds[0] != want.effect) {
		t.Errorf("%s: effects %v, want %v", call, kinds, want.effect)
	}
	if o == nil {
		t.Fatalf("%s: no object", call)
	}
	if o.Kind != want.obj {
		t.Errorf("%s: object %s, want %s", call, o.Kind, want.obj)
	}
	wantMethod := MethodSpec{Family: family}
	switch {
	case api.MethodNames != nil && api.MethodNames[strings.Trim(forkName(api), `"`)] == "":
		// a name that picks the family's current method
	case api.Method.IsSet():
		wantMethod = fork
	case api.StartMethod != "":
		m, _ := pytarget.ParseStartMethod(api.StartMethod)
		wantMethod = MethodSpec{Family: family, Kind: MethodExplicit, Method: m}
	}
	if !sameMethod(o.Method, wantMethod) {
		t.Errorf("%s: start method %+v, want %+v", call, o.Method, wantMethod)
	}
	works, dataset := 0, false
	for _, tg := range o.Targets {
		if tg.Func != nil && tg.Func.Name == "work" {
			works++
		}
		dataset = dataset || tg.Desc == "DS.__getitem__"
	}
	if works != len(api.Targets) {
		t.Errorf("%s: %d targets run work, want %d", call, works, len(api.Targets))
	}
	if dataset != api.Dataset.IsSet() || o.AssumedCPU {
		t.Errorf("%s: dataset target %v (assumed CPU %v), want %v", call, dataset, o.AssumedCPU, api.Dataset.IsSet())
	}
	if (o.ArgsDev == DevCUDA) != (len(api.Args) > 0) {
		t.Errorf("%s: arguments on %v, want CUDA %v", call, o.ArgsDev, len(api.Args) > 0)
	}
	if o.Persistent != api.Persistent.IsSet() || o.PinMemory != api.PinMemory.IsSet() {
		t.Errorf("%s: persistent %v, pin memory %v", call, o.Persistent, o.PinMemory)
	}
}

// sameMethod compares start methods, ignoring the literal's position.
func sameMethod(a, b MethodSpec) bool {
	return a.Family == b.Family && a.Kind == b.Kind && a.Method == b.Method
}

// TestEveryProcessMethodIsRecognised calls every method row of the process
// table on an object of its kind, made by the first module-level row that
// makes one (with nothing handed to its children yet), and checks what the
// call does to the object.
func TestEveryProcessMethodIsRecognised(t *testing.T) {
	for i := range procapi.Rows() {
		api := &procapi.Rows()[i]
		if api.On == 0 {
			continue
		}
		maker := receiverRow(api.On)
		if maker == nil {
			t.Fatalf("%v: no row makes a %s", api.Names, api.On)
		}
		names, _ := qualifiedNames(maker)
		for _, method := range api.Names {
			for _, byKeyword := range []bool{false, true} {
				if byKeyword && slicesHasRest(api.Args) {
					continue // a keyword cannot come before the rest
				}
				src := fmt.Sprintf("%so = %s(%s)\no.%s(%s)\n", procPrelude, names[0], workersArg(maker),
					method, callArgs(t, api, byKeyword, "2"))
				r, m := resolveLast(t, src)
				checkMethodCall(t, src, api, m, r)
			}
		}
	}
}

// workersArg is the argument that makes a receiver start workers at all:
// its worker count, or the strategy name of a Trainer.
func workersArg(api *procapi.API) string {
	switch {
	case api.Workers.IsSet():
		return api.Workers.Keyword + "=2"
	case api.MethodNames != nil:
		return api.Method.Keyword + "=" + forkName(api)
	}
	return ""
}

func receiverRow(k procapi.Kind) *procapi.API {
	for i := range procapi.Rows() {
		if r := &procapi.Rows()[i]; r.On == 0 && r.Kind == k {
			return r
		}
	}
	return nil
}

func slicesHasRest(args []procapi.Arg) bool {
	for _, a := range args {
		if a.Rest {
			return true
		}
	}
	return false
}

func checkMethodCall(t *testing.T, src string, api *procapi.API, m *Module, r callResult) {
	t.Helper()
	call := src[len(procPrelude):]
	var o *Object
	objects := m.Prog.values().objects
	for _, obj := range objects {
		o = obj.obj
	}
	if len(objects) != 1 {
		t.Fatalf("%s: %d objects", call, len(objects))
	}
	var starts []effect
	for _, e := range r.effects {
		if e.kind == effStart {
			starts = append(starts, e)
		}
	}
	switch api.Kind {
	case procapi.Start, procapi.StartOnce:
		if len(starts) != 1 || starts[0].obj != o || starts[0].once != (api.Kind == procapi.StartOnce) {
			t.Errorf("%s: starts %+v", call, starts)
		}
	default:
		if len(starts) != 0 {
			t.Errorf("%s: starts %+v", call, starts)
		}
	}
	if returned := len(r.values) == 1 && r.values[0].Kind == VObject && r.values[0].Obj == o; returned != (api.Kind == procapi.Chain) {
		t.Errorf("%s: values %+v; returns the receiver %v, want %v", call, r.values, returned, api.Kind == procapi.Chain)
	}
	works := 0
	for _, tg := range o.Targets {
		if tg.Func != nil && tg.Func.Name == "work" {
			works++
		}
	}
	if works != len(api.Targets) {
		t.Errorf("%s: %d targets run work, want %d", call, works, len(api.Targets))
	}
	handed := o.ArgsDev == DevCUDA
	if api.Kind == procapi.Send {
		handed = o.CarriesCUDA
	}
	if handed != (len(api.Args) > 0) {
		t.Errorf("%s: CUDA handed on %v, want %v", call, handed, len(api.Args) > 0)
	}
}

// TestProcessStartsSeedThePrescan checks that a function calling a row that
// starts processes is one the prescan considers (mayStart), but for names
// the row marks too common.
func TestProcessStartsSeedThePrescan(t *testing.T) {
	for i := range procapi.Rows() {
		api := &procapi.Rows()[i]
		if !api.Kind.Starts() || api.Common {
			continue
		}
		calls := api.Names
		if api.On == 0 {
			calls, _ = qualifiedNames(api)
		}
		for _, c := range calls {
			if api.On != 0 {
				c = "o." + c
			}
			src := "def f(o):\n    " + c + "()\n"
			p := NewProgram(memSource{"/p/m.py": src}, Options{})
			m, err := p.Module("/p/m.py")
			if err != nil {
				t.Fatal(err)
			}
			if !p.mayStart()[m.Funcs[0]] {
				t.Errorf("%q: not a function that may start processes", src)
			}
		}
	}
}
