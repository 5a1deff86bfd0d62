// Package model is the Python model the rules stand on.
//
// It turns parsed files (syntax.File) into:
//
//   - modules with their scopes and bindings: imports and aliases (import torch
//     as th, from torch import cuda, relative imports, local modules of the
//     project, star imports of local modules: starimport.go), functions,
//     classes and methods, the main guards as written (guard.go:
//     conjunctions, early exits, current_process().name);
//   - abstract values for expressions (value.go, eval.go): qualified paths of
//     library APIs ("torch.cuda.is_available", "cupy.cuda.Device().use"),
//     local functions and classes, string and int constants, multiprocessing
//     contexts, process/pool/executor/DataLoader objects, and where tensors,
//     modules and arrays live (device.go) — a simple, flow-insensitive
//     constant propagation; reading a property of a local class's
//     instance (@property, cached_property, property(getter)) is the value
//     its getter returns on that instance (property.go);
//   - per-function event summaries (summary.go): the CUDA initializations
//     (looked up in package catalog), process starts with their start method
//     and the code each child runs, start-method settings, local imports and
//     calls into other local functions, in execution order, with branches and
//     loops kept as such; a property's getter runs where the property is
//     read; a DataLoader starts its workers where it is iterated, which
//     iteration.go decides (for, iter(), a trainer's fit, through wrappers
//     and into the local functions it is passed to);
//   - lazy imports (lazy.go, PEP 810, Python 3.15): an import made lazy by the
//     `lazy` keyword or __lazy_modules__ does what it does where its name is
//     first read, on the versions that have lazy imports;
//   - the simulation (simulate.go) of one entry module — or one uncalled
//     function — on one target configuration (Python version and platform),
//     which walks those summaries in order, tracks whether CUDA has been
//     initialized in the process, resolves every start method, and records the
//     hazards the rules report.
//
// # Where values live
//
// Every value carries an abstract device (Device): DevCPU for tensors made
// without a device or with device="cpu", from NumPy or Python data, or
// brought back with .cpu()/.numpy(); DevCUDA for tensors and modules moved or
// made on a GPU (device="cuda[:n]", .cuda(), .to(<a CUDA device>), a cupy or
// jax array, a numba device array) and for device objects, strings and
// indices that name a GPU — `torch.device("cuda" if
// torch.cuda.is_available() else "cpu")` names one, since the checked
// program is assumed to run where a GPU is; DevDefault for tensors made
// without a device, which live on torch's default device (CUDA only after
// torch.set_default_device("cuda"), which the simulation tracks); and
// DevUnknown for values placed by a device expression the model cannot
// evaluate. Methods keep the device (x.float(), x.sum()), move it (.cuda(),
// .to(...), .cpu()) or leave it (.item() and .tolist() give Python data).
//
// A method called on a CPU value is not CUDA use; on a CUDA value inside a
// child it is (ChildUsesCUDA: CFL001). Unknown stays unknown: a child that
// touches a DevUnknown value gets ChildUnknown with a reason that names the
// value ("the analysis could not tell whether `dev` names a GPU"), which the
// rules report as CFL001, like a child whose code cannot be seen — the
// child fails if the guess "CPU" is wrong, and the message says what to
// check. Values the model knows nothing about (an unbound parameter, a
// library object) are DevNone, not DevUnknown: only a value that is
// positively placed on a device by an unknown expression is unknown.
//
// # What a child receives
//
// The values a parent hands its children reach the children's code: a
// child's entry function is evaluated and summarized in a call context
// (context.go) that binds its parameters to what the parent passes —
// Process(args=, kwargs=), the elements of Pool.map's iterable and the
// tuples of starmap's, apply's args, executor.submit's and map's arguments,
// initializer with initargs, functools.partial's bound arguments, the free
// variables of a closure, and self for a callable object's __call__, a
// Process subclass's run and a Dataset's __getitem__ (the instance the
// parent made, whose attributes are what its constructor stored). A child
// handed "cuda:0" that allocates on it uses CUDA; a Dataset holding the
// parent's CUDA tensors (in its attributes, or a TensorDataset of them)
// makes its workers use CUDA. Contexts serve the parent's own calls too:
// a helper called with a constant, a worker factory passed as an argument
// and called by the callee, a process made by a factory and started by
// another function are all followed with the values of the call.
//
// Contexts are interned by the values they bind, made only when an argument
// tells something (a constant, a function, an object, a device), at most
// maxContextsPerFunc per function and maxContextDepth deep; beyond that a
// function is evaluated as everywhere else (parameters: unknown, or their
// default).
//
// # Process objects as values
//
// Processes, pools and executors are values like any other: kept in
// variables, attributes (self.pool = Pool()), lists and dicts (filled by
// append, extend, d[k] = ..., comprehensions; containers.go), passed to
// functions and returned from factories. Starting one wherever it ends up —
// `for p in procs: p.start()`, `procs[0].start()`, `self.pool.map(...)` —
// is a start of the object made where it was created.
//
// # Constants and command-line options
//
// A branch whose test every possible value decides the same way takes one
// arm (truth.go): `if num_workers > 1:` in a helper its caller hands 1,
// `if self.fn is None:` where the constructor left None. argparse's
// parse_args() gives a namespace whose options are their default or
// whatever the user passes (namespace.go), so `--device` defaulting to
// "cuda" names a GPU, and a DataLoader whose num_workers is an option
// defaulting to 0 is still a start, whose message says it forks only when
// the option is set.
//
// The model never names a CUDA library API itself (that is the catalog's job)
// nor a process API (multiprocessing, concurrent.futures, os.fork,
// torch.multiprocessing, DataLoader: that is package procapi's table, whose
// calls procapi.go handles, and procapi.ImportSetters, the libraries that set
// the start method when imported). The library calls that iterate a
// DataLoader, or hand it on, are iteration.go's loaderCalls table; those that
// run the program's own code in the calling process (python-fire's
// Fire(main)) are runners.go's runners table.
package model
