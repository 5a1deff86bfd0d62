package syntax

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestRejectedSource(t *testing.T) {
	cases := []struct {
		name, src string
		kind      error
		line      int
		msg       string
	}{
		{"NUL", "import os\nx = 1\x00\n", ErrNUL, 2, "source contains a NUL byte at line 2"},
		{"NUL first", "\x00", ErrNUL, 1, "source contains a NUL byte at line 1"},
		{"invalid UTF-8", "a = 1\nb = 2\ns = 'caf\xe9'\n", ErrInvalidUTF8, 3, "source is not valid UTF-8: invalid byte 0xe9 at line 3"},
		{"truncated sequence", "s = '\xe2\x82'\n", ErrInvalidUTF8, 1, "source is not valid UTF-8: invalid byte 0xe2 at line 1"},
		{"latin-1 cookie", "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n", ErrEncoding, 1,
			`source encoding "latin-1" (declared at line 1) is not supported; only UTF-8 source can be analysed`},
		{"cookie on line 2", "#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-15 :\ns = '\xa4'\n", ErrEncoding, 2,
			`source encoding "iso-8859-15" (declared at line 2) is not supported; only UTF-8 source can be analysed`},
		{"cookie names a UTF-8 lookalike", "# coding=cp1252\nx = '\xc3\xa9'\n", ErrEncoding, 1,
			`source encoding "cp1252" (declared at line 1) is not supported; only UTF-8 source can be analysed`},
		{"utf-16 cookie", "# coding: utf-16\nx = 1\n", ErrEncoding, 1,
			`source encoding "utf-16" (declared at line 1) is not supported; only UTF-8 source can be analysed`},
		// CPython: "SyntaxError: encoding problem: nope"; an ASCII body does not make the name known.
		{"unknown cookie", "# coding: nope\nx = 1\n", ErrEncoding, 1,
			`source encoding "nope" (declared at line 1) is unknown: Python refuses to run this file (SyntaxError: encoding problem)`},
		// CPython: "'rot13' is not a text encoding".
		{"bytes codec cookie", "# -*- coding: rot13 -*-\nx = 1\n", ErrEncoding, 1,
			`source encoding "rot13" (declared at line 1) is unknown: Python refuses to run this file (SyntaxError: encoding problem)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse([]byte(tc.src))
			if f != nil || err == nil {
				t.Fatalf("got file %v, err %v; want an error", f, err)
			}
			var se *SourceError
			if !errors.As(err, &se) || !errors.Is(err, tc.kind) {
				t.Fatalf("error %#v is not a *SourceError of kind %v", err, tc.kind)
			}
			if se.Line != tc.line || err.Error() != tc.msg {
				t.Errorf("got line %d %q, want line %d %q", se.Line, err.Error(), tc.line, tc.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message is not one line: %q", err.Error())
			}
		})
	}
}

// TestSourceSizeLimit: Span offsets are int32, so Parse (and Decode)
// refuse a source longer than math.MaxInt32 bytes. The guard is tried on
// lengths: no such source is allocated.
func TestSourceSizeLimit(t *testing.T) {
	cases := []struct {
		n  int64
		ok bool
	}{
		{0, true},
		{10 << 20, true},
		{math.MaxInt32, true},
		{math.MaxInt32 + 1, false},
		{1 << 40, false},
	}
	for _, tc := range cases {
		if tc.n > math.MaxInt {
			continue // not a length on this platform
		}
		err := checkSize(int(tc.n))
		if tc.ok {
			if err != nil {
				t.Errorf("%d bytes: %v, want no error", tc.n, err)
			}
			continue
		}
		var se *SourceError
		if !errors.As(err, &se) || !errors.Is(err, ErrTooLarge) {
			t.Errorf("%d bytes: error %#v, want a *SourceError of kind ErrTooLarge", tc.n, err)
			continue
		}
		if want := fmt.Sprintf("source too large (%d bytes; at most 2147483647 are supported)", tc.n); err.Error() != want {
			t.Errorf("%d bytes: %q, want %q", tc.n, err.Error(), want)
		}
	}
}

func TestAcceptedSource(t *testing.T) {
	cases := []struct {
		name, src, want string
		comments        int
	}{
		{"empty", "", "", 0},
		{"only newlines", "\n\n\n", "", 0},
		{"only comments", "# a\n# b\n\n   # c", "", 3},
		{"no trailing newline", "import os\nf()", "(import os)\n(call f)", 0},
		{"CRLF", "import os\r\nif x:\r\n    f()  # c\r\nelse:\r\n    g()\r\n", "(import os)\n(if x (call f) else: (call g))", 1},
		{"tabs", "if x:\n\tif y:\n\t\tf()\n\tg()\n", "(if x (if y (call f)) (call g))", 0},
		{"form feed", "\fimport os\n\f\ndef f():\n    pass\n", "(import os)\n(def f () (pass))", 0},
		{"BOM", "\ufeffimport os\nf()\n", "(import os)\n(call f)", 0},
		{"utf-8 cookie", "# -*- coding: utf-8 -*-\nx = 'é'\n", `(= [x] "é")`, 1},
		{"UTF8 cookie spelling", "# vim: set fileencoding=UTF_8 :\nx = 1\n", "(= [x] 1)", 1},
		{"ascii cookie", "#!/usr/bin/python\n# coding: ascii\nx = 1\n", "(= [x] 1)", 2},
		{"latin-1 cookie on pure ASCII", "# -*- coding: latin-1 -*-\nx = 'abc'\n", `(= [x] "abc")`, 1},
		{"Emacs-style cookie suffix", "# -*- coding: utf-8-unix -*-\nx = 1\n", "(= [x] 1)", 1},
		{"alias spelled with spaces and case", "# coding: Latin_1\nx = 1\n", "(= [x] 1)", 1},
		{"dotted alias", "# coding: ansi_x3.4_1968\nx = 1\n", "(= [x] 1)", 1},
		{"cookie after code is no cookie", "x = 1\n# coding: latin-1\ny = 'é'\n", "(= [x] 1)\n(= [y] \"é\")", 1},
		{"cookie on line 3 is no cookie", "#!/usr/bin/python\n#\n# coding: latin-1\ny = 'é'\n", `(= [y] "é")`, 3},
		{"non-ASCII identifiers", "café = naïve()\n", "(= [café] (call naïve))", 0},
		{"line continuation", "x = 1 + \\\n    2\n", "(= [x] (+ 1 2))", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			if got := DumpFile(f); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if len(f.Comments) != tc.comments {
				t.Errorf("%d comments, want %d", len(f.Comments), tc.comments)
			}
			if len(f.Errors) > 0 {
				t.Errorf("unexpected errors %v", f.Errors)
			}
		})
	}
}

// TestBOMOffsets checks that offsets stay relative to the original bytes,
// BOM included.
func TestBOMOffsets(t *testing.T) {
	src := "\ufeffimport os\nf()  # c\n"
	f := mustParse(t, src)
	if got := f.Body[0].Pos(); got != (Span{3, 12}) {
		t.Errorf("import at %v, want {3 12}", got)
	}
	if got := f.Body[1].Pos(); got != (Span{13, 16}) {
		t.Errorf("call at %v, want {13 16}", got)
	}
	if c := f.Comments[0]; c.Span != (Span{18, 21}) || c.Text != "# c" {
		t.Errorf("comment %+v", c)
	}
}

// TestCRLFComments checks that comments do not include the carriage return.
func TestCRLFComments(t *testing.T) {
	f := mustParse(t, "x = 1  # one\r\n# two\r\n")
	if len(f.Comments) != 2 || f.Comments[0].Text != "# one" || f.Comments[1].Text != "# two" {
		t.Errorf("comments %q", f.Comments)
	}
}
