package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
)

// --stdin-filename PATH: the source comes from standard input (an editor's
// buffer, a pre-commit hook's staged content) and is checked as the file
// at PATH would be: with PATH's project, settings and local imports, and
// reported under PATH. The buffer stands for the file on disk for that run
// (analyzer.Options.Overlay), which need not exist. With --fix the fixed
// source goes to standard output, as ruff does, and the file is not
// written.

// stdinPaths returns the paths to check and the overlay holding standard
// input's content under the absolute name of stdinName, or none when
// stdinName is "". The paths given must be "-" or none.
func stdinPaths(stdinName string, paths []string, stdin io.Reader, workDir string) ([]string, map[string][]byte, error) {
	if stdinName == "" {
		for _, p := range paths {
			if p == "-" {
				return nil, nil, errors.New(`"-" reads the source from standard input: name the file it stands for with --stdin-filename PATH`)
			}
		}
		return paths, nil, nil
	}
	for _, p := range paths {
		if p != "-" {
			return nil, nil, fmt.Errorf("--stdin-filename checks standard input only; %q cannot be checked with it", p)
		}
	}
	if stdin == nil {
		return nil, nil, errors.New("--stdin-filename: there is no standard input")
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		return nil, nil, fmt.Errorf("reading standard input: %w", err)
	}
	abs := stdinName
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(workDir, abs)
	}
	return []string{stdinName}, map[string][]byte{filepath.Clean(abs): src}, nil
}

// stdinFixed returns the content of the standard input's file after --fix:
// the fixed source, or the buffer as given when nothing was fixed.
func (r *checkRun) stdinFixed(out *fixOutcome) []byte {
	for abs, src := range r.stdin {
		for _, f := range out.files {
			if filepath.Clean(r.abs(f.path)) == abs {
				return f.after
			}
		}
		return src
	}
	return nil
}
