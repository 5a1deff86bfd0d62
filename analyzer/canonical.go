package analyzer

import (
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
)

// canonicalPaths gives findings in a module loaded through a symlinked
// directory the path of the file itself. Python imports a file under the
// name it is reached by, so the model loads DeepSpeed's
// accelerator/cuda_accelerator.py again as deepspeed/accelerator/... (a
// link to ../accelerator) and finds its hazards there; reported under the
// link, they name a path that is no file in the repository (code scanning
// cannot annotate it) and come twice when the file is checked too. The
// path becomes the checked file with the same real path, or else the real
// path when it lies in the working directory; positions are unchanged (the
// bytes are the same). It runs after suppression, which reads the
// directives of the module as loaded, and before dedupe.
func canonicalPaths(fs []finding.Finding, workDir string, checked []string) {
	c := newCanonicalizer(workDir, checked)
	for i := range fs {
		f := &fs[i]
		f.Path = c.path(f.Path)
		for j := range f.Related {
			f.Related[j].Path = c.path(f.Related[j].Path)
		}
		for j := range f.Fixes {
			for k := range f.Fixes[j].Edits {
				e := &f.Fixes[j].Edits[k]
				e.Path = c.path(e.Path)
			}
		}
	}
}

type canonicalizer struct {
	workDir, realWorkDir string
	checked              []string
	byReal               map[string]string // a checked file's real path → its path; built when first needed
	memo                 map[string]string
}

func newCanonicalizer(workDir string, checked []string) *canonicalizer {
	c := &canonicalizer{workDir: workDir, checked: checked, memo: map[string]string{}}
	for _, f := range checked {
		c.memo[finding.RelPath(workDir, f)] = finding.RelPath(workDir, f)
	}
	return c
}

// path returns the path a finding's (working-directory-relative) path is
// reported under.
func (c *canonicalizer) path(rel string) string {
	if out, ok := c.memo[rel]; ok {
		return out
	}
	out := c.resolve(rel)
	c.memo[rel] = out
	return out
}

func (c *canonicalizer) resolve(rel string) string {
	abs := finding.AbsPath(c.workDir, rel)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || real == abs {
		return rel
	}
	if c.byReal == nil {
		c.byReal = map[string]string{}
		if wd, err := filepath.EvalSymlinks(c.workDir); err == nil {
			c.realWorkDir = wd
		}
		for _, f := range c.checked {
			if r, err := filepath.EvalSymlinks(f); err == nil {
				if _, ok := c.byReal[r]; !ok {
					c.byReal[r] = f
				}
			}
		}
	}
	if f, ok := c.byReal[real]; ok {
		return finding.RelPath(c.workDir, f)
	}
	// Links above the working directory (/tmp on macOS) are not the
	// project's: the path is rebuilt on the working directory as given.
	if c.realWorkDir != "" {
		if r, err := filepath.Rel(c.realWorkDir, real); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			if own := filepath.Join(c.workDir, r); own != abs {
				return finding.RelPath(c.workDir, own)
			}
		}
	}
	return rel
}
