// Package model is the Python model the rules stand on.
//
// It turns parsed files (syntax.File) into:
//
//   - modules with their scopes and bindings: imports and aliases (import torch
//     as th, from torch import cuda, relative imports, local modules of the
//     project), functions, classes and methods, the main guard;
//   - abstract values for expressions (value.go, eval.go): qualified paths of
//     library APIs ("torch.cuda.is_available", "cupy.cuda.Device().use"),
//     local functions and classes, string and int constants, multiprocessing
//     contexts, process/pool/executor/DataLoader objects, CUDA devices and
//     CUDA-resident objects — a simple, flow-insensitive constant propagation;
//   - per-function event summaries (summary.go): the CUDA initializations
//     (looked up in package catalog), process starts with their start method
//     and the code each child runs, start-method settings, local imports and
//     calls into other local functions, in execution order, with branches and
//     loops kept as such;
//   - the simulation (simulate.go) of one entry module — or one uncalled
//     function — on one target configuration (Python version and platform),
//     which walks those summaries in order, tracks whether CUDA has been
//     initialized in the process, resolves every start method, and records the
//     hazards the rules report.
//
// The model never names a CUDA library API itself (that is the catalog's job)
// nor a process API (multiprocessing, concurrent.futures, os.fork,
// torch.multiprocessing, DataLoader: that is package procapi's table, whose
// calls procapi.go handles).
package model
