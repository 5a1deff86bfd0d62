package procapi

// Argument references.
func pos(i int, keyword string) Arg { return Arg{Pos: i, Keyword: keyword} }
func kw(keyword string) Arg         { return Arg{Pos: -1, Keyword: keyword} }
func rest(i int) Arg                { return Arg{Pos: i, Rest: true} }

const (
	pyMP     = "https://docs.python.org/3/library/multiprocessing.html"
	torchDL  = "https://pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader"
	loaderIt = "the workers start when the loader is iterated (for, iter(), enumerate(), a trainer's fit), not when it is made"
)

// How torch.utils.data.DataLoader takes the arguments that matter:
// DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler,
// num_workers, collate_fn, pin_memory, drop_last, timeout, worker_init_fn,
// multiprocessing_context, generator, *, prefetch_factor,
// persistent_workers, pin_memory_device).
var (
	loaderContext    = pos(11, "multiprocessing_context")
	loaderDataset    = pos(0, "dataset")
	loaderTargets    = []Arg{pos(6, "collate_fn"), pos(10, "worker_init_fn")}
	loaderPersistent = kw("persistent_workers")
	loaderPinMemory  = pos(7, "pin_memory")
)

// rows is the table: module-level APIs grouped by library, then the methods
// of the objects they make.
var rows = []API{
	// ---------------------------------------------------------------------
	// os and pty: a bare fork of the calling process.
	{Kind: Fork, Names: []string{"os.fork", "os.forkpty", "pty.fork"}, StartMethod: "fork",
		Evidence: "https://docs.python.org/3/library/os.html#os.fork",
		Note:     "the child is the arm of `if pid == 0:`; one that calls os.exec* runs a new program"},

	// ---------------------------------------------------------------------
	// multiprocessing, torch.multiprocessing and multiprocess.
	{Kind: Process, Family: EachFamily, Names: []string{"Process", "context.Process"},
		Targets:  []Arg{pos(1, "target")},
		Args:     []Arg{pos(3, "args"), pos(4, "kwargs")},
		Evidence: pyMP + "#multiprocessing.Process",
		Note:     "Process(group, target, name, args, kwargs); a local subclass runs its run method"},
	{Kind: Pool, Family: EachFamily, Names: []string{"Pool", "pool.Pool"},
		Method:   pos(4, "context"),
		Targets:  []Arg{pos(1, "initializer")},
		Args:     []Arg{pos(2, "initargs")},
		Evidence: pyMP + "#multiprocessing.pool.Pool",
		Note:     "Pool(processes, initializer, initargs, maxtasksperchild, context); the workers start in the constructor"},
	{Kind: Manager, Family: EachFamily, Names: []string{"Manager", "managers.SyncManager().start"},
		Evidence: pyMP + "#multiprocessing.Manager",
		Note:     "the server process runs only the manager's code"},
	{Kind: Channel, Family: EachFamily,
		Names:    []string{"Queue", "SimpleQueue", "JoinableQueue", "queues.Queue", "queues.SimpleQueue", "queues.JoinableQueue"},
		Evidence: pyMP + "#multiprocessing.Queue"},
	{Kind: Channel, Family: EachFamily, Names: []string{"Pipe"}, Pair: true,
		Evidence: pyMP + "#multiprocessing.Pipe"},
	{Kind: Context, Family: EachFamily, Names: []string{"get_context"},
		Method:   pos(0, "method"),
		Evidence: pyMP + "#multiprocessing.get_context"},
	{Kind: SetMethod, Family: EachFamily, Names: []string{"set_start_method"},
		Method:   pos(0, "method"),
		Evidence: pyMP + "#multiprocessing.set_start_method"},
	{Kind: Preload, Family: EachFamily, Names: []string{"set_forkserver_preload", "forkserver.set_forkserver_preload"},
		Modules:  pos(0, "module_names"),
		Evidence: pyMP + "#multiprocessing.set_forkserver_preload",
		Note: "the forkserver imports these modules before it forks any child; by default it imports __main__. " +
			"CPython spells forkserver.set_forkserver_preload's parameter modules_names: there only the position is read"},

	// ---------------------------------------------------------------------
	// concurrent.futures
	{Kind: Executor, Family: "multiprocessing",
		Names:    []string{"concurrent.futures.ProcessPoolExecutor", "concurrent.futures.process.ProcessPoolExecutor"},
		Method:   pos(1, "mp_context"),
		Targets:  []Arg{pos(2, "initializer")},
		Evidence: "https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.ProcessPoolExecutor",
		Note:     "ProcessPoolExecutor(max_workers, mp_context, initializer, initargs); initargs are not followed yet"},

	// ---------------------------------------------------------------------
	// torch
	{Kind: Launch, Family: "multiprocessing", Names: []string{"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"},
		StartMethod: "spawn",
		Method:      pos(5, "start_method"),
		Targets:     []Arg{pos(0, "fn")},
		Args:        []Arg{pos(1, "args")},
		Evidence:    "https://pytorch.org/docs/stable/multiprocessing.html#spawning-subprocesses",
		Note:        "spawn(fn, args, nprocs, join, daemon, start_method); start_processes takes the same arguments"},
	{Kind: Loader, Family: "multiprocessing", Names: []string{"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"},
		Workers: pos(5, "num_workers"), Method: loaderContext, Dataset: loaderDataset, Targets: loaderTargets,
		Persistent: loaderPersistent, PinMemory: loaderPinMemory,
		Evidence: torchDL, Note: loaderIt},
	{Kind: Loader, Family: "multiprocessing", Names: []string{"torch_geometric.loader.DataLoader"},
		Workers: kw("num_workers"), Method: loaderContext, Dataset: loaderDataset, Targets: loaderTargets,
		Persistent: loaderPersistent, PinMemory: loaderPinMemory,
		Evidence: "https://pytorch-geometric.readthedocs.io/en/latest/modules/loader.html#torch_geometric.loader.DataLoader",
		Note: "DataLoader(dataset, batch_size, shuffle, follow_batch, exclude_keys, **kwargs) hands its keywords to torch's DataLoader: " +
			"num_workers comes by keyword only (the other positions are torch's, as the model has always read them)"},

	// ---------------------------------------------------------------------
	// Methods of the objects above.
	{Kind: Start, On: Process, Names: []string{"start"},
		Evidence: pyMP + "#multiprocessing.Process.start"},
	{Kind: Hand, On: Pool,
		Names:    []string{"map", "imap", "imap_unordered", "starmap", "apply", "apply_async", "map_async", "starmap_async"},
		Targets:  []Arg{pos(0, "func")},
		Args:     []Arg{pos(1, "iterable"), pos(1, "args")},
		Evidence: pyMP + "#multiprocessing.pool.Pool.map",
		Note:     "map-like methods take (func, iterable), apply-like ones (func, args)"},
	{Kind: Send, On: Channel, Names: []string{"put", "put_nowait", "send"},
		Args:     []Arg{pos(0, "obj")},
		Evidence: pyMP + "#multiprocessing.Queue.put",
		Note:     "a CUDA object sent through a queue or pipe makes the children that read it use CUDA"},
	{Kind: StartOnce, On: Executor, Names: []string{"submit"},
		Targets:  []Arg{pos(0, "fn")},
		Args:     []Arg{rest(1)},
		Evidence: "https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.Executor.submit"},
	{Kind: StartOnce, On: Executor, Names: []string{"map"}, Common: true,
		Targets:  []Arg{pos(0, "fn")},
		Args:     []Arg{rest(1)},
		Evidence: "https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.Executor.map",
		Note:     "the prescan does not count `map` as a start: an uncalled function whose only start is executor.map of an executor made elsewhere is not simulated as an entry"},
}
