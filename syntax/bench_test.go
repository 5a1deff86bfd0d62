package syntax

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// loadStdlib reads the standard library sources Parse accepts.
func loadStdlibT(b testing.TB) ([][]byte, int64) {
	files, _ := stdlibFiles(b)
	var srcs [][]byte
	var total int64
	for _, fn := range files {
		src, err := os.ReadFile(fn)
		if err != nil || checkSource(src) != nil {
			continue
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	return srcs, total
}

// BenchmarkParse measures Parse (tree-sitter, the C walk and the conversion)
// over the whole standard library, on one goroutine.
func BenchmarkParse(b *testing.B) {
	srcs, total := loadStdlibT(b)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			if _, err := Parse(src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseOnly measures tree-sitter alone (parse and close) on the
// same files, the baseline BenchmarkParse is compared with.
func BenchmarkParseOnly(b *testing.B) {
	srcs, total := loadStdlibT(b)
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(language)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			tree, err := p.ParseCtx(context.Background(), nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
}

// BenchmarkParseRatio alternates tree-sitter alone and Parse file by file,
// so that both see the same machine load, and reports Parse's time as a
// multiple of tree-sitter's ("ratio"). Run it with -cpu 1.
func BenchmarkParseRatio(b *testing.B) {
	srcs, total := loadStdlibT(b)
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(language)
	b.SetBytes(total)
	b.ResetTimer()
	var only, full time.Duration
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			t0 := time.Now()
			tree, err := p.ParseCtx(context.Background(), nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
			t1 := time.Now()
			if _, err := Parse(src); err != nil {
				b.Fatal(err)
			}
			only += t1.Sub(t0)
			full += time.Since(t1)
		}
	}
	b.ReportMetric(float64(full)/float64(only), "ratio")
	b.ReportMetric(float64(total)*float64(b.N)/only.Seconds()/1e6, "parse-only-MB/s")
	b.ReportMetric(float64(total)*float64(b.N)/full.Seconds()/1e6, "Parse-MB/s")
}

// BenchmarkParseParallel runs Parse on all cores (GOMAXPROCS goroutines).
func BenchmarkParseParallel(b *testing.B) {
	srcs, total := loadStdlibT(b)
	b.SetBytes(total)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			for _, src := range srcs {
				if _, err := Parse(src); err != nil {
					b.Error(err)
					return
				}
			}
		}
	})
}

// BenchmarkParseLarge parses one generated ~50 MB file.
func BenchmarkParseLarge(b *testing.B) {
	src := []byte(generatedSource(50 << 20))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		if len(f.Errors) > 0 {
			b.Fatalf("unexpected syntax errors: %v", f.Errors[:1])
		}
	}
}

// generatedSource returns valid Python of about n bytes: many small
// functions and classes with calls, imports, strings and comments.
func generatedSource(n int) string {
	const unit = `import os
from . import helpers as h  # relative

# Handlers are registered by the decorator below; each one validates its
# request, dispatches on the method and returns a JSON-serialisable result.
# The comments and docstrings keep the mix of code and prose close to real
# source files.
@h.decorate(level=3)
def handler_%d(request, *args, timeout=1.5, **kwargs):
    """Handle one request.

    Arguments:
        request: the incoming request; its method and path are read.
        timeout: seconds to wait for the backend before giving up.
        kwargs: options passed on to the processing step unchanged.

    Returns a dictionary with the result and the number of items seen, or
    the raw bytes of the requested file for POST and PUT requests.
    """
    data = [x * 2 for x in range(10) if x %% 3]
    if request.method == "GET" and not kwargs.get("skip"):
        for key, value in sorted(request.items()):
            print(f"{key}={value!r}", file=os.sys.stderr)
    elif request.method in ("POST", "PUT"):
        with open(request.path, "rb") as fh:
            return fh.read()
    try:
        result = h.process(data, mode="fast", **kwargs)
    except (ValueError, KeyError) as exc:
        raise RuntimeError("failed") from exc
    return {"result": result, "count": len(data)}


class Worker_%d(h.Base, metaclass=h.Meta):
    """A worker counting down from its limit, one step per iteration."""

    limit: int = 10

    def run(self):
        while self.limit > 0:
            self.limit -= 1
            yield self.limit


`
	var b strings.Builder
	b.Grow(n + len(unit))
	for i := 0; b.Len() < n; i++ {
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(unit, "%d", itoa(i)), "%%", "%"))
	}
	return b.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var buf [20]byte
	p := len(buf)
	for ; i > 0; i /= 10 {
		p--
		buf[p] = byte('0' + i%10)
	}
	return string(buf[p:])
}

// BenchmarkDecode measures Decode, what the parse-tree cache does instead
// of Parse, over the same files (their encodings made before the timer
// starts); compare its ns/op with BenchmarkParse's. "encoded-MB" is the
// size of the encodings, what the cache stores.
func BenchmarkDecode(b *testing.B) {
	srcs, total := loadStdlibT(b)
	var encs [][]byte
	var size int
	for _, src := range srcs {
		f, err := Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		e := AppendEncoded(nil, f, src)
		encs = append(encs, e)
		size += len(e)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			if _, err := Decode(encs[j], src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(size)/1e6, "encoded-MB")
}

// BenchmarkDeferBodies measures File.DeferBodies, the model's last step of
// loading a module, over the standard library: on parsed trees (the
// bodies encoded) and on decoded ones (the bodies' stored bytes kept).
// The trees are made before the timer runs, one set per iteration.
func BenchmarkDeferBodies(b *testing.B) {
	srcs, total := loadStdlibT(b)
	var encs [][]byte
	for _, src := range srcs {
		f, err := Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		encs = append(encs, AppendEncoded(nil, f, src))
	}
	for _, tc := range []struct {
		name string
		tree func(j int) *File
	}{
		{"parsed", func(j int) *File { f, _ := Parse(srcs[j]); return f }},
		{"decoded", func(j int) *File { f, _ := Decode(encs[j], srcs[j]); return f }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				files := make([]*File, len(srcs))
				for j := range srcs {
					files[j] = tc.tree(j)
				}
				b.StartTimer()
				for j, f := range files {
					f.DeferBodies(srcs[j], nil)
				}
			}
		})
	}
}
