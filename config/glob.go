package config

import (
	"fmt"
	"regexp"
	"strings"
)

// Two glob dialects are used, both compiled to regular expressions over
// slash-separated paths relative to an anchor directory:
//
//   - gitignore patterns (.gitignore files, and exclude / extend-exclude):
//     git's rules from gitignore(5). A pattern with no '/' except a trailing
//     one matches a name at any depth; any other pattern is anchored at the
//     anchor directory. A trailing '/' matches directories only. '*' and '?'
//     do not match '/'; "**/" at the start, "/**" at the end and "/**/" in
//     the middle match any number of directories; '[...]' is a class ('!' or
//     '^' negates); '\' escapes the next character; a leading '!' negates
//     (re-includes). A file under an excluded directory stays excluded.
//   - ruff's per-file-ignores globs (globset's defaults): '*' matches any
//     run of characters including '/', so "tests/*" covers tests/a/b.py;
//     '**' is the same; '?' is one character; '[...]' and '{a,b}' work; a
//     leading '!' makes the ignore apply to files that do NOT match. A
//     pattern matches when it matches the path relative to the config file's
//     directory or the file's base name (as ruff matches the absolute path
//     and the base name).

// ignorePattern is one compiled gitignore-style line.
type ignorePattern struct {
	text    string // as written, for messages
	negate  bool
	dirOnly bool
	re      *regexp.Regexp
	// base is set for a pattern matched against the path's last component
	// alone (compileIgnore): how, and lit, the name or the suffix.
	base baseMatch
	lit  string
}

// baseMatch says how a pattern that can only match a path's last
// component matches it.
type baseMatch uint8

const (
	wholePath  baseMatch = iota // re, against the whole relative path
	baseRegexp                  // re, against the last component
	baseEquals                  // the last component is lit
	baseSuffix                  // the last component ends with lit ("*" then lit)
)

// compileIgnore compiles one gitignore line; ok is false for blank lines and
// comments.
func compileIgnore(line string) (p ignorePattern, ok bool, err error) {
	p.text = line
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return p, false, nil
	}
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return p, false, nil
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	body, err := translateGitGlob(line)
	if err != nil {
		return p, false, fmt.Errorf("bad pattern %q: %w", p.text, err)
	}
	switch {
	case anchored:
		p.re, err = regexp.Compile("^" + body + "$")
	case !strings.ContainsAny(line, "[") && !strings.Contains(line, "**"):
		// Without a class or "**", body matches no '/' (the line has none,
		// '*' and '?' match none), so "^(?:.*/)?body$" matches exactly
		// when body matches the last component: test that alone, and
		// without a regular expression where a comparison does
		// (TestIgnoreBaseMatch). Checking a tree matches every component
		// of every path against every default exclude.
		p.re, err = regexp.Compile("^" + body + "$")
		p.base = baseRegexp
		if rest, star := strings.CutPrefix(line, "*"); !strings.ContainsAny(line, `?\`) && !strings.ContainsAny(rest, "*") {
			p.base, p.lit = baseEquals, line
			if star {
				p.base, p.lit = baseSuffix, rest
			}
		}
	default:
		p.re, err = regexp.Compile("^(?:.*/)?" + body + "$")
	}
	if err != nil {
		return p, false, fmt.Errorf("bad pattern %q: %w", p.text, err)
	}
	return p, true, nil
}

// trimTrailingSpace drops trailing spaces unless escaped with a backslash.
func trimTrailingSpace(s string) string {
	for strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t") {
		if strings.HasSuffix(s, `\ `) {
			return s
		}
		s = s[:len(s)-1]
	}
	return s
}

// match reports whether rel (slash-separated, relative to the pattern's
// anchor) matches; isDir says whether rel names a directory.
func (p *ignorePattern) match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.base == wholePath {
		return p.re.MatchString(rel)
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	switch p.base {
	case baseEquals:
		return base == p.lit
	case baseSuffix:
		return strings.HasSuffix(base, p.lit)
	}
	return p.re.MatchString(base)
}

// translateGitGlob turns a gitignore glob (without its leading '!', trailing
// '/' and leading '/') into a regular expression body.
func translateGitGlob(g string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(g); {
		c := g[i]
		switch {
		case c == '*' && strings.HasPrefix(g[i:], "**"):
			atStart := i == 0 || g[i-1] == '/'
			after := i + 2
			atEnd := after == len(g)
			if atStart && atEnd {
				b.WriteString(".*") // "**" or "x/**": everything
				i = after
			} else if atStart && g[after] == '/' {
				b.WriteString("(?:.*/)?") // "**/" : any leading directories
				i = after + 1
			} else {
				b.WriteString("[^/]*") // a "**" inside a name acts as '*'
				i = after
			}
		case c == '*':
			b.WriteString("[^/]*")
			i++
		case c == '?':
			b.WriteString("[^/]")
			i++
		case c == '[':
			cls, n, err := translateClass(g[i:])
			if err != nil {
				return "", err
			}
			b.WriteString(cls)
			i += n
		case c == '\\':
			if i+1 < len(g) {
				b.WriteString(regexp.QuoteMeta(g[i+1 : i+2]))
				i += 2
			} else {
				b.WriteString(`\\`)
				i++
			}
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			i++
		}
	}
	return b.String(), nil
}

// translateClass translates a bracket expression at the start of s and
// returns it with the number of bytes consumed. An unterminated '[' is a
// literal '['.
func translateClass(s string) (string, int, error) {
	i := 1
	var b strings.Builder
	b.WriteString("[")
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		b.WriteString("^/") // a negated class never matches '/'
		i++
	}
	first := true
	for i < len(s) {
		c := s[i]
		if c == ']' && !first {
			b.WriteString("]")
			return b.String(), i + 1, nil
		}
		first = false
		switch c {
		case '\\':
			if i+1 < len(s) {
				b.WriteString(regexp.QuoteMeta(s[i+1 : i+2]))
				i += 2
				continue
			}
		case '[':
			if strings.HasPrefix(s[i:], "[:") {
				if end := strings.Index(s[i+2:], ":]"); end >= 0 {
					b.WriteString(s[i : i+2+end+2]) // [:alpha:] is RE2 syntax too
					i += 2 + end + 2
					continue
				}
			}
			b.WriteString(`\[`)
			i++
			continue
		case ']', '^':
			b.WriteString(`\` + string(c))
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
	return `\[`, 1, nil
}

// ruffGlob is one per-file-ignores pattern.
type ruffGlob struct {
	text   string
	negate bool
	re     *regexp.Regexp
}

// compileRuffGlob compiles a per-file-ignores key.
func compileRuffGlob(pat string) (*ruffGlob, error) {
	g := &ruffGlob{text: pat}
	if strings.HasPrefix(pat, "!") {
		g.negate = true
		pat = pat[1:]
	}
	pat = strings.TrimPrefix(pat, "./")
	var b strings.Builder
	b.WriteString("^")
	depth := 0
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '*':
			if strings.HasPrefix(pat[i:], "**/") && (i == 0 || pat[i-1] == '/') {
				b.WriteString("(?:.*/)?") // "**/" also matches no directory
				i += 2
				continue
			}
			for i+1 < len(pat) && pat[i+1] == '*' {
				i++
			}
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			cls, n, err := translateClass(pat[i:])
			if err != nil {
				return nil, err
			}
			b.WriteString(cls)
			i += n - 1
		case '{':
			depth++
			b.WriteString("(?:")
		case '}':
			if depth == 0 {
				return nil, fmt.Errorf("bad glob %q: unmatched '}'", g.text)
			}
			depth--
			b.WriteString(")")
		case ',':
			if depth > 0 {
				b.WriteString("|")
			} else {
				b.WriteString(",")
			}
		case '\\':
			if i+1 < len(pat) {
				i++
				b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
			}
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("bad glob %q: unclosed '{'", g.text)
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("bad glob %q: %w", g.text, err)
	}
	g.re = re
	return g, nil
}

// matches reports whether the glob applies to a file, given its path
// relative to the config directory ("" when outside it) and base name.
func (g *ruffGlob) matches(rel, base string) bool {
	m := g.re.MatchString(base) || rel != "" && g.re.MatchString(rel)
	return m != g.negate
}
