// Package procapi is the table of Python APIs that start processes, or that
// decide how processes start: multiprocessing (and torch.multiprocessing,
// which re-exports it and shares its global context), the dill-based
// multiprocess package (a context of its own), ProcessPoolExecutor, os.fork,
// torch.multiprocessing.spawn, torch's DataLoader, and the methods of the
// objects they make.
//
// Every row says what calling one API does (its Kind), which arguments carry
// what matters (the start method, the code the children run, the values
// handed to them) and what it rests on. The model (package model) dispatches
// calls from the table; the prefilter (package passes/pyprogram) and the
// model's prescan derive from it the identifiers a process start is written
// with, so that a row added here is seen everywhere.
//
// To add an API of an existing shape, add a row to rows.go with its evidence;
// the tests check that the model recognises it through every name and
// argument it lists, and that the prefilter keeps a file that calls it. A new
// Kind needs its handler in the model (model/procapi.go).
//
// Thread pools (multiprocessing.pool.ThreadPool, multiprocessing.dummy,
// ThreadPoolExecutor) and exec-based starts (subprocess, os.posix_spawn,
// pty.spawn) are deliberately absent: they never fork a Python process that
// keeps running.
package procapi

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// Kind is what calling an API does.
type Kind uint8

const (
	_ Kind = iota // not a kind: API.On is zero for a module-level API

	// Module-level APIs that start processes, now or through the object
	// they make.

	// Fork forks the calling process now and returns the child's pid
	// (os.fork).
	Fork
	// Process makes a process object that forks when it is started.
	Process
	// Pool makes a pool and starts its workers now.
	Pool
	// Executor makes an executor that starts its workers at the first
	// submit or map.
	Executor
	// Loader makes a data loader whose workers start each time it is
	// iterated (once, with Persistent).
	Loader
	// Launch starts processes that run Targets now, and returns nothing the
	// model follows (torch.multiprocessing.spawn).
	Launch
	// Manager starts a manager's server process now.
	Manager
	// Launcher starts Workers processes that run Targets now, unless the
	// count is absent or below MinWorkers: the launcher then runs the
	// function in the calling process (accelerate's notebook_launcher).
	Launcher
	// Trainer makes an object whose run methods (method rows On Trainer)
	// start processes, but only when its Method argument is one of the
	// names in MethodNames, which give the start method (Lightning's
	// Trainer(strategy="ddp_fork"), joblib's Parallel(backend=
	// "multiprocessing")); with any other value it starts none the model
	// follows (a subprocess launcher, threads, loky).
	Trainer
	// MapAny is a method on a receiver of any type, known by its name
	// together with its Workers keyword, that maps Targets over a pool of
	// Workers processes it starts now, unless the count is below
	// MinWorkers (datasets' ds.map(fn, num_proc=4)). Names are method
	// names; Roots is the Workers keyword.
	MapAny

	// Module-level APIs that start nothing.

	// Channel makes a queue the parent and its children share (with Pair,
	// the two connected ends of a pipe).
	Channel
	// Context returns a context whose start method is Method.
	Context
	// SetMethod sets the family's start method to Method.
	SetMethod
	// Preload sets the family's forkserver preload list to the module names
	// in Modules.
	Preload

	// Methods, called on an object of kind On.

	// Start starts the object (Process.start).
	Start
	// StartOnce starts the object the first time it is called (an
	// executor's workers start at its first submit).
	StartOnce
	// Hand hands Targets and Args to the object's running workers
	// (Pool.map).
	Hand
	// Send sends Args through the channel to whoever reads it.
	Send
	// Chain returns an object that starts the receiver's processes when it
	// is used as the receiver would be: the model takes it for the
	// receiver (webdataset's loader.batched(16), a pipeline whose first
	// stage is the same DataLoader).
	Chain
)

func (k Kind) String() string {
	names := [...]string{"?", "fork", "process", "pool", "executor", "loader", "launch", "manager",
		"launcher", "trainer", "map-any",
		"channel", "context", "set-method", "preload", "start", "start-once", "hand", "send", "chain"}
	if int(k) < len(names) {
		return names[k]
	}
	return "?"
}

// Starts reports whether calling an API of kind k starts processes, now or
// through the object it makes (a Process, an Executor, a Loader start later).
func (k Kind) Starts() bool {
	switch k {
	case Fork, Process, Pool, Executor, Loader, Launch, Manager, Launcher, Trainer, MapAny, Start, StartOnce:
		return true
	}
	return false
}

// IsMethod reports whether k is the kind of a method row (On set).
func (k Kind) IsMethod() bool { return k >= Start }

// StartAtImportMatters reports whether a start of kind k while the main
// module is imported is a hazard by itself, with no CUDA involved (CFL005:
// under spawn and forkserver, each child re-imports the main module and
// starts processes again while bootstrapping). Not for os.fork, whose child
// imports nothing, nor for a Manager, which the model does not report there.
// The prefilter keeps a file that reaches only the other starts when it can
// also reach CUDA.
func (k Kind) StartAtImportMatters() bool {
	switch k {
	case Process, Pool, Executor, Loader, Launch, Launcher, Trainer, MapAny:
		return true
	}
	return false
}

// Arg names an argument of a call by position and keyword. The zero Arg
// names none.
type Arg struct {
	Pos     int    // positional index; -1 if it can only be passed by keyword
	Keyword string // keyword name
	// Rest: every argument from Pos on, keywords included
	// (executor.submit(fn, *args, **kwargs)).
	Rest bool
	// Binds says how an argument of Args reaches the parameters of the
	// Targets.
	Binds Binds
}

// Binds is how a value handed to the children becomes the arguments their
// code is called with.
type Binds uint8

const (
	// BindsNothing: the value reaches the children some other way.
	BindsNothing Binds = iota
	// BindsArgs: a tuple of positional arguments (args=, initargs=).
	BindsArgs
	// BindsKwargs: a dict of keyword arguments (kwargs=, kwds=).
	BindsKwargs
	// BindsEach: an iterable whose every element is the first argument
	// (Pool.map).
	BindsEach
	// BindsEachArgs: an iterable whose every element is a tuple of
	// positional arguments (Pool.starmap).
	BindsEachArgs
	// BindsRest: a Rest argument; the call's arguments from Pos on are the
	// arguments (executor.submit(fn, *args, **kwargs)).
	BindsRest
	// BindsZip: a Rest argument; each of the call's arguments from Pos on is
	// an iterable giving one positional argument (executor.map).
	BindsZip
	// BindsAfterIndex: a tuple of positional arguments after the process
	// index (torch.multiprocessing.spawn(fn, args)).
	BindsAfterIndex
)

// IsSet reports whether a names an argument.
func (a Arg) IsSet() bool { return a.Keyword != "" || a.Rest }

// API is one row of the table.
type API struct {
	Kind Kind
	// Names are the API's qualified names ("os.fork",
	// "concurrent.futures.process.ProcessPoolExecutor"); a call result in a
	// name is written "()" ("managers.SyncManager().start"). In a row of
	// EachFamily they are relative to the family's modules ("Pool" is
	// multiprocessing.Pool, torch.multiprocessing.Pool and
	// multiprocess.Pool); in a method row (On set) they are method names.
	Names []string
	// Family is the multiprocessing family whose start method and
	// forkserver the API's processes use ("multiprocessing" for a
	// ProcessPoolExecutor), "" for none (os.fork), or EachFamily for the
	// multiprocessing API itself, found under every family's modules.
	Family string
	// On is, for a method row, the Kind of the object it is called on.
	On Kind
	// StartMethod is the start method the API uses unless Method names
	// another ("fork", "spawn"); "" for the family's current one.
	StartMethod string

	// The arguments that matter, each by position and keyword.

	// Method is a start method: its name, a context, or None for the
	// default (set_start_method's method, Pool's context, mp_context).
	Method Arg
	// Force, for SetMethod, is the flag that lets it replace a method
	// chosen before; without it set_start_method raises RuntimeError
	// instead, so the method chosen first stays.
	Force Arg
	// Workers, when set, is how many worker processes: an absent or zero
	// argument starts none (DataLoader's num_workers).
	Workers Arg
	// MinWorkers, when above 1, is the smallest count that starts
	// processes: a literal count below it starts none (notebook_launcher
	// runs the function in the calling process for num_processes=1).
	MinWorkers int
	// MethodNames, for a Trainer, maps the values of the Method argument
	// that start processes to the start method they use ("" for the
	// family's current one).
	MethodNames map[string]string
	// Device, for a Trainer, is the device its processes work on; unless it
	// names the CPU, the children use CUDA (the strategy moves the module
	// to each child's GPU).
	Device Arg
	// Targets are callables the children run (target=, initializer=, fn).
	Targets []Arg
	// Dataset is an object whose __getitem__, __getitems__ and __iter__ the
	// children run (DataLoader's dataset).
	Dataset Arg
	// Args are values handed to the children (args=, initargs=, the
	// iterable of a map); CUDA objects among them make the children use
	// CUDA. For Send, what is sent.
	Args []Arg
	// Persistent is a flag: the workers start once, at the first iteration
	// (persistent_workers=True).
	Persistent Arg
	// PinMemory is a flag: the loader pins memory in the parent
	// (pin_memory=True).
	PinMemory Arg
	// Modules is Preload's list of module names.
	Modules Arg
	// Pair marks a Channel that returns two connected ends (Pipe).
	Pair bool
	// Common marks names too common (the builtin map) to make the model's
	// prescan suspect that a function calling them may start processes.
	Common bool

	// Evidence is the documentation or source the row rests on.
	Evidence string
	// Note says what is surprising about the row.
	Note string
}

// EachFamily is the Family of a row of the multiprocessing API itself.
const EachFamily = "*"

// A Family is an implementation of the multiprocessing API with a global
// context of its own: its own start method and forkserver preload list.
type Family struct {
	// Name is the family as the model names it. It is one of Modules, and
	// an identifier of each of them (the prefilter relies on that).
	Name string
	// Modules export the family's API.
	Modules []string
	// PicklesByValue: the family pickles with dill, which sends functions
	// and classes defined in __main__ by value, so a spawn or forkserver
	// child never looks them up in its own __main__ (a notebook's functions
	// work there).
	PicklesByValue bool
	// Default is the start method the family's default context uses on a
	// target, where it is not CPython's (nil: pytarget's
	// Config.DefaultStartMethod, which the family shares).
	Default func(pytarget.Config) pytarget.StartMethod
	// Evidence is the source Default rests on.
	Evidence string
}

// DefaultStartMethod is the start method of f's default context on c: the
// method its processes use while no set_start_method chose one.
func (f Family) DefaultStartMethod(c pytarget.Config) pytarget.StartMethod {
	if f.Default != nil {
		return f.Default(c)
	}
	return c.DefaultStartMethod()
}

// DefaultStartMethod is the default start method on c of the family called
// name; an unknown family takes CPython's.
func DefaultStartMethod(name string, c pytarget.Config) pytarget.StartMethod {
	f, _ := FamilyNamed(name)
	return f.DefaultStartMethod(c)
}

var families = []Family{
	{Name: "multiprocessing", Modules: []string{"torch.multiprocessing", "multiprocessing"},
		Evidence: pyMP + "#contexts-and-start-methods"},
	{Name: "multiprocess", Modules: []string{"multiprocess"}, PicklesByValue: true,
		Default: multiprocessDefault,
		Evidence: "uqfoundation/multiprocess py3.10 to py3.15 multiprocess/context.py at 9fdfe7f (2026-06-13): " +
			"`_default_context = DefaultContext(_concrete_contexts['fork']) #FIXME: forkserver` on Linux " +
			"and `... ['fork']) #FIXME: spawn` on darwin, 'spawn' on win32 (CPython's context.py chose forkserver on Linux from 3.14 and spawn on macOS from 3.8)"},
}

// multiprocessDefault: multiprocess kept fork as its default wherever fork
// exists, on every Python version, when CPython moved macOS to spawn (3.8)
// and Linux to forkserver (3.14); Windows has only spawn.
func multiprocessDefault(c pytarget.Config) pytarget.StartMethod {
	if !c.HasFork() {
		return pytarget.Spawn
	}
	return pytarget.Fork
}

// Families returns the multiprocessing families.
func Families() []Family { return families }

// FamilyNamed returns the family called name.
func FamilyNamed(name string) (Family, bool) {
	for _, f := range families {
		if f.Name == name {
			return f, true
		}
	}
	return Family{}, false
}

// Rows returns every row, in table order.
func Rows() []API { return rows }

type methodKey struct {
	on   Kind
	name string
}

// The indexes: module-level rows by qualified name (exact) and by name
// inside a family (inFamily), method rows by receiver and name (a MapAny
// row under the receiver 0).
var exact, inFamily, methods = func() (map[string]*API, map[string]*API, map[methodKey]*API) {
	ex, fam, meth := map[string]*API{}, map[string]*API{}, map[methodKey]*API{}
	for i := range rows {
		r := &rows[i]
		for _, n := range r.Names {
			switch {
			case r.On != 0 || r.Kind == MapAny:
				meth[methodKey{r.On, n}] = r
			case r.Family == EachFamily:
				fam[n] = r
			default:
				ex[n] = r
			}
		}
	}
	return ex, fam, meth
}()

// Lookup finds the module-level row for a qualified name, and the family
// whose start method its processes use.
func Lookup(path string) (api *API, family string, ok bool) {
	if r, ok := exact[path]; ok {
		return r, r.Family, true
	}
	for _, f := range families {
		for _, m := range f.Modules {
			if rest, ok := strings.CutPrefix(path, m+"."); ok {
				if r, ok := inFamily[rest]; ok {
					return r, f.Name, true
				}
			}
		}
	}
	return nil, "", false
}

// LookupMethod finds the row for a method called on an object of kind on.
func LookupMethod(on Kind, name string) (*API, bool) {
	if on == 0 {
		return nil, false
	}
	r, ok := methods[methodKey{on, name}]
	return r, ok
}

// LookupAny finds the MapAny row for a method called on a receiver of any
// type; the caller checks the row's Workers keyword.
func LookupAny(name string) (*API, bool) {
	r, ok := methods[methodKey{0, name}]
	return r, ok
}

// Roots are the top-level modules a program names to reach a module-level
// API: the first identifier of each name, or the families' names for a row
// of EachFamily (every module of a family has its name as an identifier:
// torch.multiprocessing); for a MapAny row, the keyword that tells it apart
// (num_proc).
func (a *API) Roots() []string {
	if a.On != 0 {
		return nil
	}
	if a.Kind == MapAny {
		return []string{a.Workers.Keyword}
	}
	var out []string
	if a.Family == EachFamily {
		for _, f := range families {
			out = append(out, f.Name)
		}
		return out
	}
	for _, n := range a.Names {
		root, _, _ := strings.Cut(n, ".")
		out = appendNew(out, root)
	}
	return out
}

// Idents are the identifiers a call of the API cannot be written without:
// for each name, the one called first ("fork" for os.fork, "Pool" for
// pool.Pool, "SyncManager" for managers.SyncManager().start, the method
// name of a method row). An import alias renames it only where the import
// statement also writes it.
func (a *API) Idents() []string {
	var out []string
	for _, n := range a.Names {
		first, _, _ := strings.Cut(n, "()")
		out = appendNew(out, first[strings.LastIndexByte(first, '.')+1:])
	}
	return out
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
