package model

import (
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// ValueKind classifies abstract values.
type ValueKind uint8

const (
	VUnknown   ValueKind = iota
	VPath                // a library module, attribute or call result: Path ("torch.cuda", "cupy.cuda.Device()")
	VModule              // a local module: Mod
	VFunc                // a local function or method: Func (Path set when an external decorator wraps it)
	VClass               // a local class: Class
	VInstance            // an instance of a local class: Class
	VStr                 // a string constant: Str (Interp: an f-string whose literal prefix is Str)
	VInt                 // an int constant: Int
	VConst               // True, False, None
	VList                // a list or tuple display: Elems
	VDict                // a dict display or comprehension: Elems are its values, Keys its constant keys
	VNamespace           // an attribute bag (argparse's parse_args(), SimpleNamespace): Elems and Keys as VDict's, by attribute name
	VContext             // a multiprocessing context (get_context): Method
	VObject              // a process, pool, executor, DataLoader or os.fork result: Obj
	VObjMethod           // a method of an Object (pool.map): Obj, Str is the method name
	VDevice              // a device object (torch.device): Dev is the device it names
)

// Value is one possible value of an expression. Expressions evaluate to a
// small set of Values (a name bound in two places has two).
type Value struct {
	Kind ValueKind
	// Interp marks an f-string (VStr): Str is its literal prefix.
	Interp bool
	// Alt marks a module, or a function of one, that a dynamic import
	// chooses among others (dynattr.go): calling it gives its values but
	// not its effects, which depend on a choice the model cannot see.
	Alt bool
	// Dev is where the value lives (a tensor, module or array), or the
	// device a device object names; DevNone for everything else (device.go).
	Dev Device
	// Read marks a plain read of an object on Dev (plainRead) that no
	// path shows: an attribute of a value the model knows only by its
	// device (checkpoint.cfg.sample_rate, where checkpoint was unpacked
	// from a GPU load), or the one value merge folds such a read into
	// (the None an image processor was before a branch read it from a
	// GPU model). Dev is its object's, but where it lives is not known.
	Read bool

	Path  string
	Mod   *Module
	Func  *Function
	Class *Class
	Str   string
	Int   int
	// seq holds the elements of a VList, VDict or VNamespace, read
	// through elems and keys; nil for every other value. Behind a pointer, since few
	// values have elements and a Value is copied wherever a set is: 40
	// bytes less on each copy (a Value was 160 bytes with the slices in
	// it), measured at about 5 % of the CPU and of the peak memory of a
	// repository the size of composer.
	seq *elements
	// Method is the start method of a VContext, and of the VPath values
	// reached through one (ctx.Process); nil for every other value. What
	// it points to is never changed: values share it. A pointer, since
	// most values have none and a Value is copied wherever a set is.
	Method *MethodSpec
	Obj    *Object
	// Self marks the implicit receiver of a bound method (self.m): the
	// receiver's class.
	Self *Class
	// Env is the call context a value carries (context.go): for an
	// instance, the context of the __init__ call that made it (its
	// attributes are read there); for a function, the context of the
	// function it is nested in (its free variables) or, for a bound method,
	// the receiver's.
	Env *callContext
	// Partial holds the arguments functools.partial bound to a function.
	Partial *argList
}

// elements are a container's: Elems its elements, and for a VDict or a
// VNamespace Keys the key of each ("" when not a constant string). Values
// share them; they are never written into once a Value holds them.
type elements struct {
	Elems []Value
	Keys  []string
}

// elems are the elements of a VList, VDict or VNamespace; nil for other
// values.
func (v Value) elems() []Value {
	if v.seq == nil {
		return nil
	}
	return v.seq.Elems
}

// keys are the keys of a VDict's or VNamespace's elements (elems).
func (v Value) keys() []string {
	if v.seq == nil {
		return nil
	}
	return v.seq.Keys
}

// withSeq is v holding elems, and keys for a dict or namespace, as a
// new container (elems and keys are taken, not copied).
func (v Value) withSeq(elems []Value, keys []string) Value {
	v.seq = nil
	if len(elems) > 0 || len(keys) > 0 {
		v.seq = &elements{Elems: elems, Keys: keys}
	}
	return v
}

// listOf is a VList of elems.
func listOf(elems ...Value) Value { return Value{Kind: VList}.withSeq(elems, nil) }

// spec is v's start method (Value.Method), the zero MethodSpec when it
// has none.
func (v *Value) spec() MethodSpec {
	if v.Method == nil {
		return MethodSpec{}
	}
	return *v.Method
}

// MethodKind says how a start method was chosen.
type MethodKind uint8

const (
	MethodDefault  MethodKind = iota // the family's current default (set_start_method or the platform's)
	MethodExplicit                   // named in the source: Method
	MethodUnknown                    // chosen by an expression the model cannot evaluate
)

// MethodSpec is a start method as the source chooses it.
type MethodSpec struct {
	// Family is "multiprocessing" (also torch.multiprocessing and
	// concurrent.futures) or "multiprocess" (the dill-based fork of it, with
	// its own global context).
	Family string
	Kind   MethodKind
	Method pytarget.StartMethod
	// Lit is the string literal that names the method ("fork"), for fixes.
	Lit Site
}

// ObjectKind classifies the process-starting objects.
type ObjectKind uint8

const (
	ObjProcess  ObjectKind = iota // multiprocessing.Process (or a subclass): forks at start()
	ObjPool                       // multiprocessing.Pool: forks its workers when created
	ObjExecutor                   // ProcessPoolExecutor: forks at the first submit/map
	ObjLoader                     // DataLoader(num_workers>0): forks when iterated
	ObjFork                       // the pid returned by os.fork()/os.forkpty()/pty.fork()
	ObjManager                    // multiprocessing.Manager(): a server process
	ObjSpawn                      // torch.multiprocessing.spawn/start_processes
	ObjChannel                    // a multiprocessing Queue, SimpleQueue, JoinableQueue or Pipe end
	ObjTrainer                    // a trainer whose run methods start processes (launchers.go)
)

func (k ObjectKind) String() string {
	return [...]string{"Process", "Pool", "ProcessPoolExecutor", "DataLoader", "os.fork", "Manager", "torch.multiprocessing.spawn", "Queue", "Trainer"}[k]
}

// Site is a span in a module.
type Site struct {
	Mod  *Module
	Span syntax.Span
}

// Valid reports whether s names a place.
func (s Site) Valid() bool { return s.Mod != nil }

// Target is code a child process runs.
type Target struct {
	Func *Function // nil when the target could not be resolved
	Site Site      // where the target is named (target=..., pool.map(f, ...))
	Desc string    // how it is named, for messages ("worker", "self.run")
	// API is set for a library function the catalog says touches CUDA
	// (executor.submit(cuda.to_device, ...)).
	API string
	// Builtin marks one of Python's builtin functions that runs none of
	// the program's code and no GPU work of its own (pool.map(len, xs)):
	// the child uses CUDA only through what it is handed.
	Builtin bool
	// Ctx binds Func's parameters to what the parent hands the child
	// (args=, the elements of a map's iterable, partial's arguments,
	// initargs, the instance of a callable object or Process subclass); nil
	// when nothing useful is known.
	Ctx *callContext
}

// Object is a process-starting object created at one call site.
type Object struct {
	id      uint64 // orders the sets of objects (cowset.go): newObject
	Kind    ObjectKind
	Site    Site // the creating call
	Method  MethodSpec
	Targets []Target
	// ArgsDev is where the objects passed to the children (args=, pool.map
	// arguments) live, joined, and ArgsSite where the worst of them is
	// passed: CUDA objects make the children use CUDA.
	ArgsDev  Device
	ArgsSite Site
	// NoWorkersWithCUDA: the count of workers is zero wherever
	// torch.cuda.is_available() returns True (cudaoff.go), so no child
	// meets a parent's CUDA.
	NoWorkersWithCUDA bool
	// Channels are the queues and pipes handed to the children; a channel
	// the parent puts CUDA objects into (CarriesCUDA) makes the children use
	// CUDA when they read it.
	Channels    []*Object
	CarriesCUDA bool
	// Loader details.
	Persistent bool // persistent_workers=True: forks once, on the first iteration
	// WorkersFlag is the command-line option (argparse, default 0) the
	// number of workers comes from: the loader forks only when it is set.
	WorkersFlag string
	// WorkersSeen: every value of the number of workers is a number that
	// starts workers, so that iterating the loader certainly starts them.
	WorkersSeen bool
	PinMemory   bool // pin_memory=True: the parent initializes CUDA after forking
	AssumedCPU  bool // the dataset could not be resolved: assumed CPU-only
	// os.fork details: the arm of `if pid == 0:` that runs in the child.
	ChildBody  []syntax.Stmt
	ChildScope *Scope
	ChildFound bool
	ChildExecs bool // the child calls an os.exec* function: it runs a new program
}
