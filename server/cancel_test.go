package server

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// checkLog records the server's checks as they end, each as its document
// and the versions of the open documents it read ("main.py gpu.py=1
// main.py=2: cancelled"), and holds the checks hold selects until they
// are cancelled: a slow check, without depending on how long one takes.
type checkLog struct {
	dir  string
	hold func(sn *snapshot) bool
	held chan struct{} // receives once per check held

	mu    sync.Mutex
	ended []string
}

func (l *checkLog) hooks() *checkHooks {
	return &checkHooks{
		started: func(ctx context.Context, sn *snapshot) {
			if !l.hold(sn) {
				return
			}
			l.held <- struct{}{}
			select {
			case <-ctx.Done():
			case <-time.After(waitFor):
				// Never cancelled: the check completes, and the test
				// fails on the log.
			}
		},
		ended: func(sn *snapshot, cancelled bool) {
			state := "completed"
			if cancelled {
				state = "cancelled"
			}
			l.mu.Lock()
			l.ended = append(l.ended, fmt.Sprintf("%s %s: %s", l.rel(sn.path), l.versions(sn), state))
			l.mu.Unlock()
		},
	}
}

func (l *checkLog) rel(p string) string {
	r, _ := filepath.Rel(l.dir, p)
	return r
}

// versions spells the open documents' versions of a check, by name.
func (l *checkLog) versions(sn *snapshot) string {
	var out []string
	for p, v := range sn.versions {
		out = append(out, fmt.Sprintf("%s=%d", l.rel(p), v))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func (l *checkLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ended...)
}

// TestStaleCheckCancelled: a change that arrives while a check it makes
// stale is running (the checked document edited, or a module its last
// check read) cancels that check instead of letting it finish: the stale
// check ends cancelled, its diagnostics are never published, and the
// check of the new content runs next and publishes.
func TestStaleCheckCancelled(t *testing.T) {
	t.Run("the document edited", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "train.py")
		log := &checkLog{dir: dir, held: make(chan struct{}, 1)}
		log.hold = func(sn *snapshot) bool { return sn.versions[path] == 2 }
		c := startServer(t, clientOptions{folders: []string{dir}, hooks: log.hooks()})
		uri := c.open(path, clean)
		c.waitPublish(uri, 0, hasVersion(1))
		n := c.published()
		c.replaceAll(uri, hazard) // version 2: its check is held
		<-log.held
		v := c.replaceAll(uri, "\n"+hazard)
		p := c.waitPublish(uri, n, hasVersion(v))
		if got := codes(p.Diagnostics); !reflect.DeepEqual(got, []string{"CFL001"}) || p.Diagnostics[0].Range.Start.Line != 11 {
			t.Errorf("version %d: %s, want CFL001 on line 11 (0-based)", v, mustJSON(p.Diagnostics))
		}
		c.barrier(dir)
		for _, p := range c.publishesOf(uri, n) {
			if p.Version != nil && *p.Version == 2 {
				t.Errorf("the cancelled check of version 2 was published: %s", mustJSON(p))
			}
		}
		want := []string{"train.py train.py=1: completed", "train.py train.py=2: cancelled", "train.py train.py=3: completed"}
		if got := log.list(); !reflect.DeepEqual(got, want) {
			t.Errorf("checks:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})

	t.Run("a module it read edited", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.py": mainPy, "gpu.py": gpuPy})
		mainPath, gpuPath := filepath.Join(dir, "main.py"), filepath.Join(dir, "gpu.py")
		log := &checkLog{dir: dir, held: make(chan struct{}, 1)}
		log.hold = func(sn *snapshot) bool {
			return sn.path == mainPath && sn.versions[mainPath] == 2 && sn.versions[gpuPath] == 1
		}
		c := startServer(t, clientOptions{folders: []string{dir}, hooks: log.hooks()})
		gpuURI := c.open(gpuPath, gpuPy)
		c.barrier(dir)
		mainURI := c.open(mainPath, mainPy)
		c.barrier(dir)
		n := c.published()
		c.replaceAll(mainURI, "# edited\n"+mainPy) // its check is held
		<-log.held
		c.replaceAll(gpuURI, gpuInit)
		p := c.waitPublish(gpuURI, n, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
		if got := codes(p.Diagnostics); !reflect.DeepEqual(got, []string{"CFL001"}) {
			t.Errorf("gpu.py: %s, want CFL001", mustJSON(p.Diagnostics))
		}
		c.barrier(dir)
		want := []string{
			"gpu.py gpu.py=1: completed",
			"main.py gpu.py=1 main.py=1: completed",
			"main.py gpu.py=1 main.py=2: cancelled",
			"gpu.py gpu.py=2 main.py=2: completed",
			"main.py gpu.py=2 main.py=2: completed",
		}
		if got := log.list(); !reflect.DeepEqual(got, want) {
			t.Errorf("checks:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}
