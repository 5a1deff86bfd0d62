package config

import (
	"regexp"
	"testing"
)

// TestIgnoreBaseMatch: an unanchored pattern that compileIgnore matches
// against the last component alone (by name, by suffix or by a regular
// expression) matches exactly the paths that git's general form,
// "^(?:.*/)?body$" on the whole relative path, matches; a pattern with a
// class or "**", which may match a '/', keeps the general form.
func TestIgnoreBaseMatch(t *testing.T) {
	patterns := []struct {
		line string
		want baseMatch
	}{
		{".git", baseEquals},
		{"__pycache__", baseEquals},
		{"build", baseEquals},
		{"*.pyc", baseSuffix},
		{"*", baseSuffix},
		{"*_test.py", baseSuffix},
		{"*build*", baseRegexp},
		{"b?ild", baseRegexp},
		{`te\*st`, baseRegexp},
		{"*.py?", baseRegexp},
		{"[bc]uild", wholePath},
		{"[!a]", wholePath},
		{"**", wholePath},
		{"a**b", wholePath},
		{"/build", wholePath},
		{"docs/build", wholePath},
	}
	paths := []string{
		".", "build", "build.py", "rebuild", "a/build", "a/b/build", "build/a", "a/build/b",
		".git", "x/.git", ".gitignore", "x.pyc", "a/b/x.pyc", "x.pyc/y", "pyc",
		"buuild", "bxild/c", "te*st", "a/te*st", "test", "a_test.py", "a/_test.py",
		"a/b/c.py", "a/b/c.pyx", "b/c", "a/b", "__pycache__", "p/__pycache__", "docs/build",
	}
	for _, tc := range patterns {
		p, ok, err := compileIgnore(tc.line)
		if !ok || err != nil {
			t.Fatalf("%q: ok %v, %v", tc.line, ok, err)
		}
		if p.base != tc.want {
			t.Errorf("%q: matched as %d, want %d", tc.line, p.base, tc.want)
		}
		line := tc.line
		anchored := false
		for _, c := range line {
			anchored = anchored || c == '/'
		}
		if anchored {
			continue
		}
		body, err := translateGitGlob(line)
		if err != nil {
			t.Fatal(err)
		}
		general := regexp.MustCompile("^(?:.*/)?" + body + "$")
		for _, rel := range paths {
			if got, want := p.match(rel, true), general.MatchString(rel); got != want {
				t.Errorf("%q on %q: %v, git's form gives %v", tc.line, rel, got, want)
			}
		}
	}
}
