package model

import (
	"context"
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

// loadCounting makes a program over files whose parses are counted, and
// loads entry.
func loadCounting(t *testing.T, files memSource, entry string) (*Program, *countingSource) {
	t.Helper()
	src := &countingSource{memSource: files, parses: map[string]int{}}
	p := NewProgram(src, Options{})
	if _, err := p.Module(entry); err != nil {
		t.Fatal(err)
	}
	return p, src
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
	p, src := loadCounting(t, memSource{
		"/p/a.py":            "import b\n\ndef f():\n    from pkg import c\n",
		"/p/b.py":            "x = 1\n",
		"/p/pkg/__init__.py": "",
		"/p/pkg/c.py":        "from . import d\n",
		"/p/pkg/d.py":        "y = 2\n",
		"/p/other.py":        "z = 3\n",
	}, "/p/a.py")
	p.PrefetchImports(context.Background(), 2)
	waitPrefetch(t, p)
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

// waitPrefetch waits until p's prefetch workers are idle.
func waitPrefetch(t *testing.T, p *Program) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.ahead.mu.Lock()
		done := p.ahead.active == 0 && len(p.ahead.queue) == 0
		p.ahead.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("prefetch did not finish")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestParseAheadThenLoad checks that a file parsed ahead for its syntax
// errors (the files the prefilter skips) is not loaded, that loading it
// later takes that parse instead of parsing again, and that its imports
// are then parsed ahead as if it had been built when loaded.
func TestParseAheadThenLoad(t *testing.T) {
	p, src := loadCounting(t, memSource{
		"/p/main.py":   "import helper\n",
		"/p/helper.py": "import deep\nbroken(\n",
		"/p/deep.py":   "x = 1\n",
	}, "/p/main.py")
	f, body, err := p.ParseAhead("/p/helper.py")
	if err != nil || len(f.Errors) == 0 || string(body) != "import deep\nbroken(\n" {
		t.Fatalf("ParseAhead(helper.py) = %v errors, %q, %v; want the syntax error and the source", f, body, err)
	}
	if got := len(p.Loaded()); got != 1 {
		t.Errorf("%d modules loaded after ParseAhead, want 1 (main.py)", got)
	}
	p.PrefetchImports(context.Background(), 2)
	waitPrefetch(t, p)
	h, err := p.Module("/p/helper.py")
	if err != nil || h == nil || h.File != f {
		t.Fatalf("Module(helper.py) = %v, %v; want the module parsed ahead", h, err)
	}
	if n := src.count("/p/helper.py"); n != 1 {
		t.Errorf("helper.py parsed %d times, want 1", n)
	}
	waitPrefetch(t, p)
	if n := src.count("/p/deep.py"); n != 1 {
		t.Errorf("deep.py, imported by helper.py, parsed %d times ahead once helper.py was loaded, want 1", n)
	}
	if _, _, err := p.ParseAhead("/p/helper.py"); err != nil || src.count("/p/helper.py") != 1 {
		t.Errorf("ParseAhead of a loaded module parsed it again (%v)", err)
	}
}
