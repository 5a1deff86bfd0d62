package model

import (
	"fmt"
	"os"
	"slices"
	"testing"
)

// TestFirstHitOfCyclesIndependentOfOrder: the searches of a child's code
// for its first certain and possible CUDA use give each member of a cycle
// of calls the same answer, whichever member is asked first. The first
// case is testdata/py/cfl001/recursive_embed.py, whose second member was
// answered "uses nothing" when the first was asked first (the Pool running
// it was reported as CFL003, its children never touching CUDA).
func TestFirstHitOfCyclesIndependentOfOrder(t *testing.T) {
	stack, err := os.ReadFile("../testdata/py/cfl001/recursive_embed.py")
	if err != nil {
		t.Fatal(err)
	}
	// Two members use CUDA, after their calls into the ring. A call into
	// the ring answers the ring's own use, the first in the file of its
	// members' uses: so third, whose call comes first, names first's.
	ring := `import torch

QUEUE = []

def first():
    if QUEUE:
        second()
    return torch.ones(1).cuda()

def second():
    third()

def third():
    if QUEUE:
        first()
    torch.cuda.synchronize()
`
	// The device is read from the environment: a possible use.
	maybe := `import os

import torch

DEVICE = os.environ.get("DEVICE")
PENDING = []

def encode_next():
    if PENDING:
        return encode_rest()
    return torch.zeros(4, device=DEVICE)

def encode_rest():
    return [encode_next() for _ in PENDING]
`
	files := memSource{"/p/stack.py": string(stack), "/p/ring.py": ring, "/p/maybe.py": maybe}
	tests := []struct {
		path    string
		members []string
		maybe   bool // ask maybeSearch, not touchSearch
		want    []string
	}{
		{"/p/stack.py", []string{"encode_next", "encode_rest"}, false, []string{".cuda() at 20", ".cuda() at 20"}},
		{"/p/ring.py", []string{"first", "second", "third"}, false, []string{".cuda() at 8", ".cuda() at 8", ".cuda() at 8"}},
		{"/p/maybe.py", []string{"encode_next", "encode_rest"}, true, []string{"`DEVICE` names a GPU at 11", "`DEVICE` names a GPU at 11"}},
	}
	for _, tt := range tests {
		for _, order := range permutations(len(tt.members)) {
			prog := NewProgram(files, Options{Roots: []string{"/p"}})
			m, err := prog.Module(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(tt.members))
			for _, i := range order {
				f := funcNamed(m, tt.members[i])
				search := prog.touchSearch(touchKey{})
				if tt.maybe {
					search = prog.maybeSearch()
				}
				h := search.search(callEvents(f, nil))
				got[i] = "nothing"
				if h.ok {
					got[i] = fmt.Sprintf("%s at %d", h.api, lineIn(m.Src, int(h.site.Span.Start)))
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s %v asked in the order %v:\n got %q\nwant %q", tt.path, tt.members, order, got, tt.want)
			}
		}
	}
}

// TestTouchSearchSkipsImportsTheParentDid: a child's import of a module
// the parent had imported at the fork runs nothing, so the search of the
// child's code does not enter that module's top level; one the parent had
// not imported runs there. Each set of imported modules has its own
// answers, whichever is asked first.
func TestTouchSearchSkipsImportsTheParentDid(t *testing.T) {
	files := memSource{
		"/p/gpu_setup.py": "import torch\n\nCAPABILITY = torch.cuda.get_device_capability()\n",
		"/p/train.py": `import shutil

def cleanup(path):
    import gpu_setup
    shutil.rmtree(path, ignore_errors=True)
`,
	}
	cases := []struct {
		parentImported bool
		want           string
	}{
		{true, "nothing"},
		{false, "torch.cuda.get_device_capability() at 3"},
	}
	for _, order := range permutations(len(cases)) {
		prog := NewProgram(files, Options{Roots: []string{"/p"}})
		m, err := prog.Module("/p/train.py")
		if err != nil {
			t.Fatal(err)
		}
		setup, err := prog.Module("/p/gpu_setup.py")
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range order {
			tt := cases[i]
			imported := newCowSet[moduleSetKey]()
			imported.add(m.setKey())
			if tt.parentImported {
				imported.add(setup.setKey())
			}
			h := prog.touchSearch(newTouchKey(false, &imported)).search(callEvents(funcNamed(m, "cleanup"), nil))
			got := "nothing"
			if h.ok {
				got = fmt.Sprintf("%s at %d", h.api, lineIn(h.site.Mod.Src, int(h.site.Span.Start)))
			}
			if got != tt.want {
				t.Errorf("parent imported gpu_setup: %v, asked in the order %v: got %q, want %q", tt.parentImported, order, got, tt.want)
			}
		}
	}
}
