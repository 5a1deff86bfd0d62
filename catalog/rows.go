package catalog

// rows is the catalog. Keep rows grouped by library, each with its evidence.
var rows = []Entry{
	{Name: "torch.cuda.is_available", Shape: Call, Lib: "torch", Effect: InitDriver, When: UnlessNVMLCheck,
		Evidence: Evidence{"oracle", "torch: torch.cuda.is_available()"}},
	{Name: "torch.device", Shape: Call, Lib: "torch", Effect: NoEffect, Role: RoleDevice, Device: ArgRef{Pos: 0, Keyword: "type"},
		Evidence: Evidence{"oracle", "torch: torch.device('cuda')"}},
}

type alias struct{ from, to string }

// aliases are applied by Canonical, first match wins.
var aliases = []alias{
	{"cuda.core.experimental", "cuda.core"},
	{"cuda.cuda", "cuda.bindings.driver"},
	{"cuda.cudart", "cuda.bindings.runtime"},
}

var libraries = []string{"torch", "cupy", "cupyx", "jax", "jaxlib", "numba", "cuda", "pycuda", "tensorflow", "cudf", "triton"}
