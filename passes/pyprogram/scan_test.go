package pyprogram

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strconv"
	"testing"
)

// TestProcessAPITripwire fails when the model's table of process-starting
// APIs (model/mpapi.go, mpCall) changes: the prefilter's token bits
// (baseTokens) are derived by hand from it. Update them, then this list.
func TestProcessAPITripwire(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../../model/mpapi.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		fd, ok := n.(*ast.FuncDecl)
		if !ok || (fd.Name.Name != "mpCall" && fd.Name.Name != "mpFamily") {
			return true
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				got = append(got, s)
			}
			return true
		})
		return false
	})
	got = distinct(got)
	want := distinct([]string{
		"JoinableQueue", "Manager", "Pipe", "Pool", "Process", "Queue", "SimpleQueue",
		"concurrent.futures.ProcessPoolExecutor", "concurrent.futures.process.ProcessPoolExecutor",
		"context", "context.Process", "fn", "forkserver.set_forkserver_preload", "get_context",
		"initargs", "initializer", "kwargs", "managers.SyncManager().start", "method", "module_names",
		"mp_context", "multiprocess", "multiprocess.", "multiprocessing", "multiprocessing", "multiprocessing",
		"multiprocessing", "multiprocessing", "multiprocessing.", "num_workers", "num_workers",
		"os.fork", "os.forkpty", "pool.Pool", "pty.fork", "queues.JoinableQueue", "queues.Queue",
		"queues.SimpleQueue", "set_forkserver_preload", "set_start_method", "start_method", "target",
		"args", "torch.multiprocessing.", "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes",
		"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader", "torch_geometric.loader.DataLoader",
		"torch_geometric.loader.DataLoader", "()", "args", "",
	})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("model/mpapi.go's process APIs changed: check the prefilter's baseTokens (scan.go) and relevantBits (prefilter.go), then update this list.\ngot  %q\nwant %q", got, want)
	}
}

func distinct(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
