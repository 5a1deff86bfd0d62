package syntax

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// checkFile verifies the invariants every parse result must satisfy: spans
// inside the source, Start <= End, every node inside its parent, no nil
// where the documentation promises a value, parallel slices of equal
// length, comments and errors in source order, and Inspect terminating.
func checkFile(src []byte, f *File) error {
	var errs []string
	add := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}
	whole := Span{0, int32(len(src))}
	// The path to the node being checked, rendered only for messages (deep
	// trees would make eager rendering quadratic).
	var stack []string
	at := func(last string) string {
		p := strings.Join(stack, "")
		if len(p) > 200 {
			p = "..." + p[len(p)-200:]
		}
		return p + last
	}
	var walk func(v reflect.Value, parent Span, elem string)
	walk = func(v reflect.Value, parent Span, elem string) {
		stack = append(stack, elem)
		defer func() { stack = stack[:len(stack)-1] }()
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				return
			}
			stack = stack[:len(stack)-1]
			walk(v.Elem(), parent, elem)
			stack = append(stack, elem)
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), parent, "["+strconv.Itoa(i)+"]")
			}
		case reflect.Struct:
			t := v.Type()
			if sp, ok := v.Addr().Interface().(interface{ Pos() Span }); ok && t != reflect.TypeOf(Span{}) {
				s := sp.Pos()
				if s.Start < 0 || s.Start > s.End || int(s.End) > len(src) {
					add("%s (%s): bad span %v (source has %d bytes)", at(""), t.Name(), s, len(src))
				}
				if !parent.Contains(s) {
					add("%s (%s): span %v outside its parent %v", at(""), t.Name(), s, parent)
				}
				parent = s
			}
			for _, fd := range nodeFields(v) {
				if fd.Anonymous {
					continue
				}
				fv := fd.value
				name := t.Name() + "." + fd.Name
				if fd.Type.Kind() == reflect.Interface && fv.IsNil() && !mayBeNil[name] {
					add("%s.%s: nil", at(""), fd.Name)
				}
				if fd.Type.Kind() == reflect.Slice && fd.Type.Elem().Kind() == reflect.Interface {
					for j := 0; j < fv.Len(); j++ {
						if fv.Index(j).IsNil() && !mayBeNil[name+"[]"] {
							add("%s.%s[%d]: nil", at(""), fd.Name, j)
						}
					}
				}
				walk(fv, parent, "."+fd.Name)
			}
			switch n := v.Addr().Interface().(type) {
			case *Dict:
				if len(n.Keys) != len(n.Values) {
					add("%s: %d keys, %d values", at(""), len(n.Keys), len(n.Values))
				}
			case *Compare:
				if len(n.Ops) != len(n.Comparators) {
					add("%s: %d ops, %d comparators", at(""), len(n.Ops), len(n.Comparators))
				}
			case *Comprehension:
				if n.Kind == DictComp && n.Value == nil {
					add("%s: dict comprehension without value", at(""))
				}
			}
		}
	}
	for i, s := range f.Body {
		if s == nil {
			add("Body[%d]: nil", i)
			continue
		}
		walk(reflect.ValueOf(s), whole, fmt.Sprintf("Body[%d]", i))
		stack = stack[:0]
	}
	last := int32(-1)
	for i, c := range f.Comments {
		if c.Start < 0 || c.Start > c.End || int(c.End) > len(src) || c.Start < last {
			add("Comments[%d]: bad or unordered span %v", i, c.Span)
			continue
		}
		last = c.End
		if c.Text != string(src[c.Start:c.End]) || !strings.HasPrefix(c.Text, "#") {
			add("Comments[%d]: text %q does not match source", i, c.Text)
		}
	}
	last = -1
	for i, e := range f.Errors {
		if e.Start < 0 || e.Start > e.End || int(e.End) > len(src) || e.Start < last {
			add("Errors[%d]: bad or unordered span %v", i, e)
		}
		last = e.End
	}
	// Inspect must visit every node once and terminate; f(nil) balances.
	depth, visits := 0, 0
	for _, s := range f.Body {
		Inspect(s, func(n Node) bool {
			if n == nil {
				depth--
				return true
			}
			depth++
			visits++
			if _, ok := n.(Stmt); !ok {
				if _, ok := n.(Expr); !ok {
					add("Inspect visited a %T", n)
				}
			}
			return true
		})
	}
	if depth != 0 {
		add("Inspect: %d unbalanced nil calls", depth)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// mayBeNil lists the interface fields documented as optional.
var mayBeNil = map[string]bool{
	"WithItem.Target":     true,
	"ExceptHandler.Type":  true,
	"MatchCase.Guard":     true,
	"Assign.Value":        true,
	"Assign.Annotation":   true,
	"Return.Value":        true,
	"Param.Default":       true,
	"Param.Annotation":    true,
	"Comprehension.Value": true,
	"Dict.Keys[]":         true,
}

// mustParse parses src, failing the test on error or broken invariants.
func mustParse(t testing.TB, src string) *File {
	t.Helper()
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\nsource:\n%s", err, src)
	}
	if err := checkFile([]byte(src), f); err != nil {
		t.Fatalf("invariants broken: %v\nsource:\n%s", err, src)
	}
	return f
}

var stdlibOnce struct {
	sync.Once
	files []string
	size  int64
	err   string
}

// stdlibFiles returns the .py files of the machine's Python standard library
// (site-packages excluded), or skips the test when there is none.
func stdlibFiles(tb testing.TB) ([]string, int64) {
	tb.Helper()
	stdlibOnce.Do(func() {
		out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
		if err != nil {
			stdlibOnce.err = "python3 not available: " + err.Error()
			return
		}
		root := strings.TrimSpace(string(out))
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && (d.Name() == "site-packages" || d.Name() == "dist-packages") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".py") {
				if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
					stdlibOnce.files = append(stdlibOnce.files, path)
					stdlibOnce.size += info.Size()
				}
			}
			return nil
		})
		sort.Strings(stdlibOnce.files)
		if len(stdlibOnce.files) == 0 {
			stdlibOnce.err = "no standard library sources under " + root
		}
	})
	if stdlibOnce.err != "" {
		tb.Skip(stdlibOnce.err)
	}
	return stdlibOnce.files, stdlibOnce.size
}

// nodeField is one field of a node as the tests walk it.
type nodeField struct {
	reflect.StructField
	value reflect.Value
}

// nodeFields are the exported fields of the struct v, and for a function
// definition its body (Body), which it keeps in unexported fields.
func nodeFields(v reflect.Value) []nodeField {
	var out []nodeField
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if fd := t.Field(i); fd.IsExported() {
			out = append(out, nodeField{fd, v.Field(i)})
		}
	}
	if !v.CanAddr() {
		return out
	}
	if d, ok := v.Addr().Interface().(*FunctionDef); ok {
		out = append(out, nodeField{reflect.StructField{Name: "Body", Type: reflect.TypeOf([]Stmt(nil))}, reflect.ValueOf(d.Body())})
	}
	return out
}
