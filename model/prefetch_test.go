package model

import (
	"sync"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// countingSource counts the parses of each file.
type countingSource struct {
	memSource
	mu     sync.Mutex
	parses map[string]int
}

func (c *countingSource) Parse(path string) (*syntax.File, []byte, error) {
	c.mu.Lock()
	c.parses[path]++
	c.mu.Unlock()
	return c.memSource.Parse(path)
}

func (c *countingSource) count(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parses[path]
}

// TestPrefetchParsesAheadWithoutLoading checks that the local modules a
// loaded module imports, transitively, are parsed once, ahead, and are not
// loaded (not in Loaded) until the analysis asks for them; a file nothing
// imports is not parsed.
func TestPrefetchParsesAheadWithoutLoading(t *testing.T) {
	src := &countingSource{memSource: memSource{
		"/p/a.py":            "import b\n\ndef f():\n    from pkg import c\n",
		"/p/b.py":            "x = 1\n",
		"/p/pkg/__init__.py": "",
		"/p/pkg/c.py":        "from . import d\n",
		"/p/pkg/d.py":        "y = 2\n",
		"/p/other.py":        "z = 3\n",
	}, parses: map[string]int{}}
	p := NewProgram(src, Options{})
	if _, err := p.Module("/p/a.py"); err != nil {
		t.Fatal(err)
	}
	p.PrefetchImports(2)
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.ahead.mu.Lock()
		done := p.ahead.active == 0 && len(p.ahead.queue) == 0
		p.ahead.mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("prefetch did not finish")
		}
		time.Sleep(time.Millisecond)
	}
	for _, f := range []string{"/p/b.py", "/p/pkg/__init__.py", "/p/pkg/c.py", "/p/pkg/d.py"} {
		if n := src.count(f); n != 1 {
			t.Errorf("%s parsed %d times ahead, want 1", f, n)
		}
	}
	if n := src.count("/p/other.py"); n != 0 {
		t.Errorf("other.py, imported by nothing, parsed %d times", n)
	}
	if got := len(p.Loaded()); got != 1 {
		t.Errorf("%d modules loaded after prefetching, want 1 (a.py)", got)
	}
	d, err := p.Module("/p/pkg/d.py")
	if err != nil || d == nil || d.Name != "pkg.d" {
		t.Fatalf("Module(pkg/d.py) = %v, %v", d, err)
	}
	if n := src.count("/p/pkg/d.py"); n != 1 {
		t.Errorf("pkg/d.py parsed %d times, want 1 (taken from the prefetch)", n)
	}
	if got := len(p.Loaded()); got != 2 {
		t.Errorf("%d modules loaded, want 2", got)
	}
}
