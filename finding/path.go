package finding

import (
	"path/filepath"
	"strings"
)

// A finding's paths (its Location, Related, Fix edits; a ToolError's, a
// Notice's, a SyntaxError's) are as users read them: relative to the run's
// working directory where they lie below it, absolute otherwise. RelPath
// makes one, AbsPath undoes it: the one pair every package uses, so that
// the driver and its callers agree on the convention.

// RelPath returns path, absolute, as a finding names it: relative to
// workDir when it lies below it, unchanged otherwise (and when it is
// already relative).
func RelPath(workDir, path string) string {
	if path == "" || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(workDir, path)
	if err != nil || !relBelow(rel) {
		return path
	}
	return rel
}

// Within reports whether path is dir or lies below it. Both are absolute,
// or both relative to the same directory; neither need be clean.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && relBelow(rel)
}

// relBelow reports whether rel, a filepath.Rel result, does not climb out
// of its base ("..data" is a name below it, not a climb).
func relBelow(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// AbsPath returns the absolute, clean path of a path a finding names
// (RelPath's inverse); with workDir "", a relative path stays relative.
func AbsPath(workDir, path string) string {
	if filepath.IsAbs(path) || workDir == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(workDir, path)
}
