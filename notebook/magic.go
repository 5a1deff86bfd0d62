package notebook

import (
	"regexp"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// IPython accepts, besides Python, lines that start with an escape (IPython's
// inputtransformer2: `%magic`, `%%magic` on a cell's first line, `!shell`,
// `!!shell`, `?obj`, `obj?`, `/f x`, `,f x`, `;f x`), assignments of a
// magic or shell command's result (`x = !ls`, `x = %who_ls`), and
// "automagics", line magics written without their `%` (`pip install x`).
// It recognises them only where a statement starts: not inside a string, a
// bracket or after a backslash. neutralise finds those lines the same way
// and replaces each by a placeholder of exactly the same length, so that
// the rest of the cell keeps its offsets, lines and columns:
//
//	!nvidia-smi            → "0" and spaces (an expression statement: a
//	                         valid body for an indented block, unlike a
//	                         comment)
//	x = !ls                → "x = 0" and spaces (x stays bound)
//	%time model.cuda()     → "0;    model.cuda()" (the statement runs)
//	x = %time f()          → "x =       f()"
//	%%time (first line)    → spaces; the body is Python and stays
//	%%bash (first line)    → the whole cell becomes spaces
//
// A magic line that ends in a backslash continues on the next line, which
// becomes spaces too.
//
// A cell that ends inside a bracket, a string or a continued line cannot
// compile: the kernel runs none of it (SyntaxError), and in the joined
// module it would swallow the cells after it. It becomes spaces, all of it.
// So does a cell pasted with interpreter prompts (`>>> x`, `In [1]: x`):
// IPython strips them, which moves every column, so it is not analyzed.

// bodyCellMagics run their body as Python in the kernel's namespace.
var bodyCellMagics = map[string]bool{"time": true, "timeit": true, "capture": true, "prun": true, "debug": true}

// stmtLineMagics run the rest of their line as a Python statement; the
// value is the set of options that take an argument.
var stmtLineMagics = map[string]map[string]bool{
	"time":   {},
	"timeit": {"-n": true, "-r": true, "-p": true},
	"prun":   {"-s": true, "-l": true, "-T": true, "-D": true},
}

// automagics are the line magics IPython runs without `%` when automagic
// is on (the default): ruff's list (crates/ruff_notebook/src/cell.rs), and
// the shell commands IPython defines as aliases on POSIX systems
// (IPython/core/alias.py, default_aliases), which are line magics too.
var automagics = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`alias alias_magic autoawait autocall automagic bookmark cd code_wrap
		colors conda config debug dhist dirs doctest_mode edit env gui history killbgscripts load
		load_ext loadpy logoff logon logstart logstate logstop lsmagic macro magic mamba matplotlib
		micromamba notebook page pastebin pdb pdef pdoc pfile pinfo pinfo2 pip popd pprint precision
		prun psearch psource pushd pwd pycat pylab quickref recall rehashx reload_ext rerun reset
		reset_selective run save sc set_env sx system tb time timeit unalias unload_ext who who_ls
		whos xdel xmode
		cat clear cp ldir less lf lk ll ls lx man mkdir more mv rm rmdir`) {
		automagics[w] = true
	}
}

// pyKeywords may follow a name in Python (`reset and x`): a line where one
// does is Python, not an automagic.
var pyKeywords = map[string]bool{"and": true, "or": true, "not": true, "in": true, "is": true,
	"if": true, "else": true, "for": true, "as": true, "lambda": true}

var (
	// helpEnd is `obj?`, `obj.attr??`, `np.*load*?`, `%magic?`.
	helpEnd = regexp.MustCompile(`^%{0,2}[A-Za-z_][\w.*]*\?{1,2}\s*$`)
	// assignMagic is `x = !cmd`, `a, b = %magic ...`: the group ends
	// where the command starts.
	assignMagic = regexp.MustCompile(`^([A-Za-z_][\w.]*(\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*)[!%]`)
	// automagic is a line-magic name, blanks, and an argument that cannot
	// continue a Python expression after a name.
	automagic = regexp.MustCompile(`^([A-Za-z_]\w*)[ \t]+([A-Za-z0-9_"'~$]|--?[A-Za-z])`)
	// prompt is the first line of a cell pasted from an interpreter
	// (IPython's classic_prompt and ipython_prompt transforms).
	prompt = regexp.MustCompile(`^(>>>( |\r?\n|$)|In \[\d+\]: )`)
)

// neutralise returns text with IPython's lines replaced by placeholders of
// the same length, which lines (0-based) were replaced, the cell magic of
// the first line ("%%time"), if any, and why the cell is not analyzed at
// all, if it is not ("" otherwise), in which case every line is replaced.
func neutralise(text string) (string, []bool, string, string) {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	magic := make([]bool, len(lines))
	out := make([]string, len(lines))
	copy(out, lines)
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	cellMagic := ""
	if first < len(lines) && prompt.MatchString(lines[first]) {
		return blankAll(lines, magic), magic, "", "the cell is written with interpreter prompts (>>> or In [1]:), which IPython strips"
	}
	if first < len(lines) && strings.HasPrefix(strings.TrimLeft(lines[first], " \t"), "%%") {
		name := strings.Fields(strings.TrimLeft(lines[first], " \t%"))
		cellMagic = "%%"
		if len(name) > 0 {
			cellMagic += name[0]
		}
		if len(name) == 0 || !bodyCellMagics[name[0]] {
			return blankAll(lines, magic), magic, cellMagic, ""
		}
		out[first], magic[first] = blank(lines[first]), true
		first++
	} else {
		first = 0
	}
	var lx lexer
	for i := first; i < len(lines); i++ {
		if !lx.atStatementStart() {
			lx.scan(lines[i])
			continue
		}
		repl, ok := placeholder(lines[i])
		if !ok {
			lx.scan(lines[i])
			continue
		}
		out[i], magic[i] = repl, true
		// A backslash at the end continues the magic on the next line.
		for continues(lines[i]) && i+1 < len(lines) {
			i++
			out[i], magic[i] = blank(lines[i]), true
		}
		lx = lexer{}
	}
	if !lx.atStatementStart() {
		return blankAll(lines, magic), magic, cellMagic, "the cell ends inside a bracket, a string or a continued line: the kernel would run none of it"
	}
	return strings.Join(out, ""), magic, cellMagic, ""
}

// blankAll replaces every line by spaces and marks it.
func blankAll(lines []string, magic []bool) string {
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(blank(l))
		magic[i] = true
	}
	return b.String()
}

// body splits a line into its content and its line ending.
func body(line string) (string, string) {
	content := strings.TrimSuffix(line, "\n")
	if strings.HasSuffix(content, "\r") {
		content = content[:len(content)-1]
	}
	return content, line[len(content):]
}

// blank replaces a line's content by spaces.
func blank(line string) string {
	content, end := body(line)
	return strings.Repeat(" ", len(content)) + end
}

func continues(line string) bool {
	content, _ := body(line)
	return strings.HasSuffix(content, "\\")
}

// placeholder returns the replacement of a line that starts a statement,
// and whether the line is IPython syntax at all.
func placeholder(line string) (string, bool) {
	content, end := body(line)
	rest := strings.TrimLeft(content, " \t")
	indent := content[:len(content)-len(rest)]
	if rest == "" {
		return "", false
	}
	switch rest[0] {
	case '%':
		if stmt, ok := lineMagicStatement(rest); ok && stmt >= 2 {
			return indent + "0;" + strings.Repeat(" ", stmt-2) + rest[stmt:] + end, true
		}
		return filler(indent, rest) + end, true
	case '!', '?', '/', ',', ';':
		return filler(indent, rest) + end, true
	}
	if strings.HasSuffix(strings.TrimRight(rest, " \t"), "?") && helpEnd.MatchString(rest) {
		return filler(indent, rest) + end, true
	}
	if m := assignMagicIndex(rest); m != nil {
		lhs := rest[:m[3]]
		cmd := rest[m[3]:]
		if stmt, ok := lineMagicStatement(cmd); ok {
			return indent + lhs + strings.Repeat(" ", stmt) + cmd[stmt:] + end, true
		}
		return indent + lhs + "0" + strings.Repeat(" ", len(cmd)-1) + end, true
	}
	if isAutomagic(rest) {
		return filler(indent, rest) + end, true
	}
	return "", false
}

// assignMagicIndex matches assignMagic, on lines that can hold one.
func assignMagicIndex(rest string) []int {
	if !strings.ContainsAny(rest, "!%") {
		return nil
	}
	return assignMagic.FindStringSubmatchIndex(rest)
}

// isAutomagic reports whether a line is a line magic written without its
// `%`: a magic's name followed by an argument that cannot continue a
// Python expression after a name, or by any other argument on a line that
// is not a Python statement (`ls ./data`, `rm -rf build/`, `ls *.py`).
// `cd` and `pushd` take paths, which may start with `/` or `.`:
// `cd /content` is a directory change, never a division of a variable
// named cd. A line that is Python stays Python: an assignment
// (`ls = [`, which IPython never reads as a magic either), a line that
// opens a bracket or a string it does not close (the statement goes on),
// and a valid statement (`ls / 2`).
func isAutomagic(rest string) bool {
	name := rest
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		name = rest[:i]
	}
	if !automagics[name] {
		return false
	}
	args := strings.Fields(rest[len(name):])
	if len(args) == 0 || pyKeywords[args[0]] {
		return false
	}
	if name == "cd" || name == "pushd" || automagic.MatchString(rest) {
		return true
	}
	if args[0][0] == '=' || args[0][0] == ',' {
		return false
	}
	var lx lexer
	lx.scan(rest)
	if !lx.atStatementStart() {
		return false
	}
	f, err := syntax.Parse([]byte(rest + "\n"))
	return err == nil && len(f.Errors) > 0
}

// filler is a placeholder expression statement as long as indent+rest.
func filler(indent, rest string) string {
	return indent + "0" + strings.Repeat(" ", len(rest)-1)
}

// lineMagicStatement returns where the Python statement of a
// statement-running line magic (`%time f()`, `%timeit -n 10 f()`) starts in
// rest, which begins with its `%`.
func lineMagicStatement(rest string) (int, bool) {
	if strings.HasPrefix(rest, "%%") {
		return 0, false
	}
	i := 1
	for i < len(rest) && (isWordByte(rest[i])) {
		i++
	}
	withArg, ok := stmtLineMagics[rest[1:i]]
	if !ok {
		return 0, false
	}
	takesArg := false
	for {
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
			i++
		}
		if i >= len(rest) {
			return 0, false
		}
		if !takesArg && rest[i] != '-' {
			return i, true
		}
		j := i
		for j < len(rest) && rest[j] != ' ' && rest[j] != '\t' {
			j++
		}
		takesArg = !takesArg && withArg[rest[i:j]]
		i = j
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lexer follows Python's lexical state across lines, enough to tell where
// a statement can start: not inside a string, a bracket, or after a
// backslash.
type lexer struct {
	quote  byte // the open string's quote, 0 outside strings
	triple bool
	depth  int
	cont   bool // the last line ended in a backslash
}

func (l *lexer) atStatementStart() bool { return l.quote == 0 && l.depth == 0 && !l.cont }

// scan advances over one line.
func (l *lexer) scan(line string) {
	content, _ := body(line)
	l.cont = false
	for i := 0; i < len(content); i++ {
		c := content[i]
		if l.quote != 0 {
			switch {
			case c == '\\':
				if i+1 == len(content) {
					l.cont = true
				}
				i++
			case c == l.quote && !l.triple:
				l.quote = 0
			case c == l.quote && strings.HasPrefix(content[i:], strings.Repeat(string(c), 3)):
				l.quote, l.triple = 0, false
				i += 2
			}
			continue
		}
		switch c {
		case '#':
			return
		case '\'', '"':
			l.quote = c
			if strings.HasPrefix(content[i:], strings.Repeat(string(c), 3)) {
				l.triple = true
				i += 2
			}
		case '(', '[', '{':
			l.depth++
		case ')', ']', '}':
			if l.depth > 0 {
				l.depth--
			}
		case '\\':
			if i+1 == len(content) {
				l.cont = true
			}
		}
	}
	// A one-quote string cannot span lines without a backslash.
	if l.quote != 0 && !l.triple && !l.cont {
		l.quote = 0
	}
}
