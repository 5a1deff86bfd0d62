package procapi

// Argument references.
func pos(i int, keyword string) Arg { return Arg{Pos: i, Keyword: keyword} }
func kw(keyword string) Arg         { return Arg{Pos: -1, Keyword: keyword} }
func rest(i int) Arg                { return Arg{Pos: i, Rest: true} }
func binds(a Arg, b Binds) Arg      { a.Binds = b; return a }

const (
	pyMP      = "https://docs.python.org/3/library/multiprocessing.html"
	torchDL   = "https://pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader"
	loaderIt  = "the workers start when the loader is iterated (for, iter(), enumerate(), a trainer's fit), not when it is made"
	pygLoader = "pyg-team/pytorch_geometric torch_geometric/loader (subclasses of torch.utils.data.DataLoader; num_workers reaches it through **kwargs)"
)

// lightningStrategies are the strategy names that start processes with
// multiprocessing, and their start methods (ddp.py registers them; the
// find_unused_parameters variants behave the same). Plain "ddp" re-runs the
// script in subprocesses and is not a fork.
var lightningStrategies = map[string]string{
	"ddp_fork": "fork", "ddp_fork_find_unused_parameters_false": "fork", "ddp_fork_find_unused_parameters_true": "fork",
	"ddp_notebook": "fork", "ddp_notebook_find_unused_parameters_false": "fork", "ddp_notebook_find_unused_parameters_true": "fork",
	"ddp_spawn": "spawn", "ddp_spawn_find_unused_parameters_false": "spawn", "ddp_spawn_find_unused_parameters_true": "spawn",
}

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
		Args:     []Arg{binds(pos(3, "args"), BindsArgs), binds(pos(4, "kwargs"), BindsKwargs)},
		Evidence: pyMP + "#multiprocessing.Process",
		Note:     "Process(group, target, name, args, kwargs); a local subclass runs its run method"},
	{Kind: Pool, Family: EachFamily, Names: []string{"Pool", "pool.Pool"},
		Method:   pos(4, "context"),
		Targets:  []Arg{pos(1, "initializer")},
		Args:     []Arg{binds(pos(2, "initargs"), BindsArgs)},
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
		Method: pos(0, "method"), Force: pos(1, "force"),
		Evidence: pyMP + "#multiprocessing.set_start_method; Lib/multiprocessing/context.py " +
			"DefaultContext.set_start_method: `if self._actual_context is not None and not force: raise RuntimeError('context has already been set')`"},
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
		Args:     []Arg{binds(pos(3, "initargs"), BindsArgs)},
		Evidence: "https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.ProcessPoolExecutor",
		Note:     "ProcessPoolExecutor(max_workers, mp_context, initializer, initargs)"},

	// ---------------------------------------------------------------------
	// torch
	{Kind: Launch, Family: "multiprocessing", Names: []string{"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"},
		StartMethod: "spawn",
		Method:      pos(5, "start_method"),
		Targets:     []Arg{pos(0, "fn")},
		Args:        []Arg{binds(pos(1, "args"), BindsAfterIndex)},
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

	// webdataset's WebLoader is no subclass but a pipeline whose first stage
	// is torch's DataLoader(*args, **kw): the same arguments at the same
	// positions, and iterating it iterates that DataLoader (DataPipeline.invoke
	// calls iter() on it). Its fluid methods (the Chain row below) return a
	// copy of the pipeline over the same DataLoader.
	{Kind: Loader, Family: "multiprocessing", Names: []string{"webdataset.WebLoader", "webdataset.compat.WebLoader", "webdataset.dataset.WebLoader"},
		Workers: pos(5, "num_workers"), Method: loaderContext, Dataset: loaderDataset, Targets: loaderTargets,
		Persistent: loaderPersistent, PinMemory: loaderPinMemory,
		Evidence: "webdataset/webdataset src/webdataset/compat.py (class WebLoader(DataPipeline, FluidInterface): __init__(*args, **kw) calls " +
			"super().__init__(DataLoader(*args, **kw)), from 0.2.0 on); webdataset/dataset.py in 0.1.x (def WebLoader(*args, **kw): " +
			"Processor(DataLoader(*args, **kw), identity)); pipeline.py DataPipeline.invoke (iter() of a DataLoader stage)",
		Note: "the workers start each time the WebLoader (or a chain on it) is iterated, as torch's DataLoader's do. " +
			"webdataset.loader.WebLoader (2019 only, removed in February 2020) was a different class with its own processes and 4 workers by default: not this row"},

	{Kind: Loader, Family: "multiprocessing", Names: []string{"dgl.dataloading.GraphDataLoader", "dgl.dataloading.dataloader.GraphDataLoader"},
		Workers: kw("num_workers"), Method: kw("multiprocessing_context"), Dataset: pos(0, "dataset"),
		Targets:    []Arg{pos(1, "collate_fn"), kw("worker_init_fn")},
		Persistent: loaderPersistent, PinMemory: loaderPinMemory,
		Evidence: "https://www.dgl.ai/dgl_docs/generated/dgl.dataloading.GraphDataLoader.html (Bases: torch.utils.data.DataLoader; " +
			"GraphDataLoader(dataset, collate_fn=None, use_ddp=False, ddp_seed=0, **kwargs) hands its keywords to it)",
		Note: "a batched-graph loader: num_workers and the context come by keyword only"},

	// ---------------------------------------------------------------------
	// Loaders of other libraries: subclasses of torch's DataLoader that
	// hand num_workers on to it (by keyword: their own positions differ).
	// PyG's node and link loaders sample on the CPU and gather features in
	// the parent when the data is on the GPU, so their children do not use
	// it; the loaders whose collate indexes the data itself (RandomNode,
	// Cluster, GraphSAINT, ShaDow, Temporal) hand it to the children.
	{Kind: Loader, Family: "multiprocessing",
		Names: []string{"torch_geometric.loader.NeighborLoader", "torch_geometric.loader.LinkNeighborLoader",
			"torch_geometric.loader.HGTLoader", "torch_geometric.loader.NodeLoader", "torch_geometric.loader.LinkLoader",
			"torch_geometric.loader.NeighborSampler"},
		Workers: kw("num_workers"), Method: kw("multiprocessing_context"), Persistent: loaderPersistent, PinMemory: kw("pin_memory"),
		Evidence: pygLoader + " (NodeLoader/LinkLoader: the sampler converts the graph to CPU CSC, sampler/neighbor_sampler.py; " +
			"infer_filter_per_worker(data) keeps feature gathering in the parent for CUDA data, loader/utils.py)",
		Note: "a CUDA data object is benign here: the workers sample on the CPU and the parent gathers the features"},
	{Kind: Loader, Family: "multiprocessing",
		Names: []string{"torch_geometric.loader.RandomNodeLoader", "torch_geometric.loader.ClusterLoader",
			"torch_geometric.loader.GraphSAINTNodeSampler", "torch_geometric.loader.GraphSAINTEdgeSampler",
			"torch_geometric.loader.GraphSAINTRandomWalkSampler", "torch_geometric.loader.ShaDowKHopSampler",
			"torch_geometric.loader.TemporalDataLoader"},
		Workers: kw("num_workers"), Method: kw("multiprocessing_context"), Persistent: loaderPersistent, PinMemory: kw("pin_memory"),
		Args:     []Arg{pos(0, "data")},
		Evidence: pygLoader + " (random_node_loader.py, cluster.py, graph_saint.py, shadow.py, temporal_dataloader.py: the collate function indexes the data object in the worker)",
		Note:     "the workers collate from the data object: CUDA data makes them use CUDA (a worker fails, measured for RandomNodeLoader in /work/eval)"},
	{Kind: Loader, Family: "multiprocessing",
		Names:   []string{"torch_geometric.loader.DataListLoader", "torch_geometric.loader.DenseDataLoader"},
		Workers: kw("num_workers"), Method: kw("multiprocessing_context"), Dataset: loaderDataset, Persistent: loaderPersistent, PinMemory: kw("pin_memory"),
		Evidence: pygLoader + " (data_list_loader.py, dense_data_loader.py: (dataset, batch_size, shuffle, **kwargs))"},
	{Kind: Loader, Family: "multiprocessing", Names: []string{"monai.data.DataLoader"},
		Workers: pos(1, "num_workers"), Method: kw("multiprocessing_context"), Dataset: loaderDataset, Targets: []Arg{kw("collate_fn"), kw("worker_init_fn")},
		Persistent: loaderPersistent, PinMemory: kw("pin_memory"),
		Evidence: "https://docs.monai.io/en/stable/data.html#dataloader",
		Note:     "DataLoader(dataset, num_workers=0, **kwargs): MONAI's subclass takes num_workers second"},
	{Kind: Loader, Family: "multiprocessing", Names: []string{"monai.data.ThreadDataLoader"},
		Workers: kw("num_workers"), Method: kw("multiprocessing_context"), Dataset: loaderDataset, Targets: []Arg{kw("collate_fn"), kw("worker_init_fn")},
		Persistent: loaderPersistent, PinMemory: kw("pin_memory"),
		Evidence: "https://docs.monai.io/en/stable/data.html#threaddataloader",
		Note:     "its extra thread buffers the batches; num_workers > 0 still forks worker processes (unless use_thread_workers=True, which the row does not read)"},

	// ---------------------------------------------------------------------
	// Launchers above torch.
	{Kind: Launcher, Family: "multiprocessing", Names: []string{"accelerate.notebook_launcher", "accelerate.launchers.notebook_launcher"},
		StartMethod: "fork", Workers: pos(2, "num_processes"), MinWorkers: 2,
		Targets: []Arg{pos(0, "function")}, Args: []Arg{pos(1, "args")},
		Evidence: "huggingface/accelerate src/accelerate/launchers.py (num_processes > 1: elastic_launch or start_processes with start_method=\"fork\" on CUDA; " +
			"1 runs the function in place; None raises); launchers.json 'accelerate: notebook_launcher(num_processes=2) after is_available()'",
		Note: "refuses (ValueError) when an Accelerator exists in the parent, but not after other CUDA initializations: " +
			"accelerate 1.15 no longer checks torch.cuda.is_initialized(), and the children die with 'Cannot re-initialize CUDA in forked subprocess' (measured)"},
	// pytorch_lightning and lightning_fabric are canonicalized to lightning
	// (catalog.Canonical); their spellings are listed for the prefilter,
	// which reads identifiers.
	{Kind: Trainer, Family: "multiprocessing", Names: []string{"lightning.Trainer", "lightning.Fabric", "pytorch_lightning.Trainer", "lightning_fabric.Fabric"},
		Method: kw("strategy"), MethodNames: lightningStrategies, Device: kw("accelerator"),
		Evidence: "Lightning-AI/pytorch-lightning src/lightning/fabric/strategies/ddp.py and src/lightning/pytorch/strategies/ddp.py (ddp_fork and ddp_notebook register start_method=\"fork\", ddp_spawn \"spawn\"); " +
			"strategies/launchers/multiprocessing.py (torch.multiprocessing.start_processes); launchers.json 'lightning: Trainer(strategy='ddp_notebook').fit after CUDA context'",
		Note: "the check before forking (_check_bad_cuda_fork) asks torch.cuda._is_in_bad_fork(), which is False in the parent: it does not stop a fork after CUDA init (measured). " +
			"A strategy object (DDPStrategy(start_method=\"fork\")) and the interactive default (strategy=\"auto\" in a notebook forks) are not read"},
	{Kind: Trainer, Family: "multiprocessing", Names: []string{"joblib.Parallel"},
		Method: pos(1, "backend"), MethodNames: map[string]string{"multiprocessing": ""},
		Workers: pos(0, "n_jobs"), MinWorkers: 2,
		Evidence: "https://joblib.readthedocs.io/en/stable/parallel.html; launchers.json 'joblib: Parallel(backend='multiprocessing') after is_available(), child uses CUDA'",
		Note: "backend=\"multiprocessing\" runs the delayed functions in a multiprocessing Pool (forked on Linux before 3.14: measured); " +
			"the default loky backend starts fresh interpreters (measured: no fork) and threading none. " +
			"n_jobs defaults to None, one job, which runs them in the calling process (https://joblib.readthedocs.io/en/stable/generated/joblib.Parallel.html); " +
			"a negative n_jobs counts from the CPUs and starts workers; a parallel_config around the call is not read"},
	{Kind: MapAny, Family: "multiprocess", Names: []string{"map", "filter"}, Common: true,
		Workers: kw("num_proc"), MinWorkers: 2, Targets: []Arg{pos(0, "function")},
		Evidence: "huggingface/datasets src/datasets/arrow_dataset.py (map and filter with num_proc > 1 run the function in a multiprocess Pool of num_proc workers, multiprocess's default context); " +
			"that context forks on Linux and macOS on every Python, 3.14 and 3.15 included (uqfoundation/multiprocess py3.14/multiprocess/context.py: " +
			"`_default_context = DefaultContext(_concrete_contexts['fork']) #FIXME: forkserver`; the family's Default)",
		Note: "Dataset.map, Dataset.filter and DatasetDict's; not measured (datasets is not installed on the measuring machine). " +
			"The function is pickled with dill, so it may be a lambda or defined in __main__"},

	{Kind: Launch, Family: "multiprocessing", Names: []string{"sglang.Engine", "sglang.srt.entrypoints.engine.Engine"},
		StartMethod: "spawn",
		Evidence: "sgl-project/sglang python/sglang/srt/entrypoints/engine.py (Engine.__init__ launches the scheduler and detokenizer processes " +
			"after _set_envs_and_config calls mp.set_start_method(\"spawn\", force=True))",
		Note: "spawned at construction, so an unguarded script re-runs Engine(...) in each child (CFL005); " +
			"the global set_start_method(\"spawn\") it makes for later starts in the program is not modelled"},

	// ---------------------------------------------------------------------
	// Methods of the objects above.
	{Kind: Start, On: Process, Names: []string{"start"},
		Evidence: pyMP + "#multiprocessing.Process.start"},
	{Kind: Hand, On: Pool,
		Names:    []string{"map", "imap", "imap_unordered", "map_async"},
		Targets:  []Arg{pos(0, "func")},
		Args:     []Arg{binds(pos(1, "iterable"), BindsEach)},
		Evidence: pyMP + "#multiprocessing.pool.Pool.map",
		Note:     "each element of the iterable is one call's argument"},
	{Kind: Hand, On: Pool,
		Names:    []string{"starmap", "starmap_async"},
		Targets:  []Arg{pos(0, "func")},
		Args:     []Arg{binds(pos(1, "iterable"), BindsEachArgs)},
		Evidence: pyMP + "#multiprocessing.pool.Pool.starmap",
		Note:     "each element of the iterable is one call's tuple of arguments"},
	{Kind: Hand, On: Pool,
		Names:    []string{"apply", "apply_async"},
		Targets:  []Arg{pos(0, "func")},
		Args:     []Arg{binds(pos(1, "args"), BindsArgs), binds(pos(2, "kwds"), BindsKwargs)},
		Evidence: pyMP + "#multiprocessing.pool.Pool.apply",
		Note:     "apply(func, args, kwds)"},
	{Kind: Send, On: Channel, Names: []string{"put", "put_nowait", "send"},
		Args:     []Arg{pos(0, "obj")},
		Evidence: pyMP + "#multiprocessing.Queue.put",
		Note:     "a CUDA object sent through a queue or pipe makes the children that read it use CUDA"},
	{Kind: StartOnce, On: Executor, Names: []string{"submit"},
		Targets:  []Arg{pos(0, "fn")},
		Args:     []Arg{binds(rest(1), BindsRest)},
		Evidence: "https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.Executor.submit"},
	{Kind: Start, On: Trainer, Names: []string{"fit", "validate", "test", "predict"}, Common: true,
		Evidence: "https://lightning.ai/docs/pytorch/stable/common/trainer.html#methods",
		Note:     "the strategy's launcher starts the processes at the start of each run"},
	{Kind: Start, On: Trainer, Names: []string{"launch"}, Common: true,
		Targets:  []Arg{pos(0, "function")},
		Evidence: "https://lightning.ai/docs/fabric/stable/api/fabric_methods.html#launch",
		Note:     "Fabric.launch(function): the processes run function"},
	{Kind: Start, On: Trainer, Names: []string{"__call__"}, Common: true,
		Evidence: "https://joblib.readthedocs.io/en/stable/generated/joblib.Parallel.html",
		Note:     "Parallel(...)(delayed(f)(x) for x in xs): the workers run f (model/launchers.go reads the delayed calls)"},
	{Kind: Chain, On: Loader,
		Names: []string{"batched", "unbatched", "listed", "unlisted", "log_keys", "shuffle", "map", "decode", "map_dict", "select",
			"to_tuple", "map_tuple", "slice", "rename", "rsample", "rename_keys", "extract_keys", "xdecode", "mcached", "lmdb_cached",
			"compose", "with_epoch", "with_length", "repeat", "then"},
		Evidence: "webdataset/webdataset src/webdataset/compat.py (FluidInterface: each method returns self.compose(stage), or self); " +
			"pipeline.py (DataPipeline.compose copies the pipeline and its stage list, so the copy's first stage is the same DataLoader; " +
			"with_epoch, with_length and repeat return self); 0.1.x dataset.py Composable.then/compose and Shorthands",
		Note: "webdataset's fluid interface on a WebLoader: wds.WebLoader(ds, num_workers=4).unbatched().shuffle(1000).batched(32). " +
			"torch's DataLoader has none of these methods, so the row cannot mistake one of its calls"},
	{Kind: StartOnce, On: Executor, Names: []string{"map"}, Common: true,
		Targets:  []Arg{pos(0, "fn")},
		Args:     []Arg{binds(rest(1), BindsZip)},
		Evidence: "https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.Executor.map",
		Note:     "the prescan does not count `map` as a start: an uncalled function whose only start is executor.map of an executor made elsewhere is not simulated as an entry"},
}
