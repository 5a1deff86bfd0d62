package analyzer

import (
	"go/token"
	"strings"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/noqa"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Suppression is the driver's, as in ruff and staticcheck: per-file-ignores
// and `# noqa` comments mark findings suppressed, and the directives that
// suppressed nothing become CFL100 (unused-noqa) findings in the files that
// select it. Only the driver sees every rule's findings, so only it can
// tell a directive is stale.

// suppressor applies suppressions to one run's findings.
type suppressor struct {
	conv    *converter
	policy  *config.Policy
	sources []sourceComments
	// files are the checked files' directives and token files, by
	// absolute path.
	files map[string]*directives
	order []string
	// imported are the directives of other files findings lie in (a local
	// module a checked file imports), read on demand; nil when unknown.
	imported map[string]*noqa.Set
}

// moduleSource is implemented by a pass result that loaded more files than
// the checked ones: a finding can lie in a local module a checked file
// imports (the initialization in a helper), and that module's `# noqa`
// comments apply to it as they would if it were checked too.
type moduleSource interface {
	Source(path string) (src []byte, comments []syntax.Comment, ok bool)
}

type directives struct {
	set *noqa.Set
	tf  *token.File
}

func newSuppressor(conv *converter, pol *config.Policy, sources []sourceComments) *suppressor {
	s := &suppressor{conv: conv, policy: pol, sources: sources, files: map[string]*directives{}, imported: map[string]*noqa.Set{}}
	for _, src := range sources {
		src.CheckedSources(func(path string, b []byte, comments []syntax.Comment, tf *token.File) {
			if _, ok := s.files[path]; ok {
				return
			}
			s.files[path] = &directives{set: noqa.Parse(b, comments), tf: tf}
			s.order = append(s.order, path)
		})
	}
	return s
}

// apply marks the suppressed findings. Findings carry paths relative to the
// working directory; directives are keyed by absolute path.
func (s *suppressor) apply(fs []finding.Finding) []finding.Finding {
	for i := range fs {
		f := &fs[i]
		abs := s.conv.abs(f.Path)
		if st := s.policy.File(abs); st != nil && st.PerFileIgnored(f.Code) {
			f.Suppressed = true
			continue
		}
		if set := s.directivesOf(abs); set != nil && set.Suppresses(f.Code, f.Start.Line) {
			f.Suppressed = true
		}
	}
	return fs
}

// directivesOf returns the directives of the file at abs: a checked file's,
// or an imported module's from the pass that loaded it.
func (s *suppressor) directivesOf(abs string) *noqa.Set {
	if d := s.files[abs]; d != nil {
		return d.set
	}
	if set, ok := s.imported[abs]; ok {
		return set
	}
	var set *noqa.Set
	for _, src := range s.sources {
		if ms, ok := src.(moduleSource); ok {
			if b, comments, ok := ms.Source(abs); ok {
				set = noqa.Parse(b, comments)
				break
			}
		}
	}
	s.imported[abs] = set
	return set
}

// unusedNoqa reports, in the checked files that select CFL100, the
// suppression comments that suppressed nothing (apply must have run).
func (s *suppressor) unusedNoqa() []finding.Finding {
	var out []finding.Finding
	doc := ruledoc.CFL100
	for _, path := range s.order {
		st := s.policy.File(path)
		d := s.files[path]
		if st == nil || !st.Selected(doc.Code) || d.tf == nil {
			continue
		}
		opts := noqa.UnusedOptions{
			Known:         func(code string) bool { _, ok := ruledoc.ByCode(code); return ok },
			IgnoreBlanket: true,
			Enabled:       st.Selected,
		}
		for _, u := range d.set.Unused(opts) {
			f := finding.Finding{
				Code: doc.Code, Name: doc.Name, Severity: doc.Severity, Message: unusedMessage(u), URL: doc.URL(),
				Location: s.conv.location(d.tf.Pos(int(u.Span.Start)), d.tf.Pos(int(u.Span.End))),
			}
			edit := finding.Edit{Location: s.conv.location(d.tf.Pos(u.Edit.Start), d.tf.Pos(u.Edit.End)), NewText: u.Edit.NewText}
			f.Fixes = []finding.Fix{{Message: "Remove the unused `noqa` directive", Applicability: finding.Safe, Edits: []finding.Edit{edit}}}
			out = append(out, f)
		}
	}
	return out
}

// unusedMessage says what is stale in a directive.
func unusedMessage(u noqa.Unused) string {
	if u.Blanket {
		return "Unused blanket `noqa` directive"
	}
	var parts []string
	if len(u.Unmatched) > 0 {
		parts = append(parts, "unused: "+codeList(u.Unmatched))
	}
	if len(u.Disabled) > 0 {
		parts = append(parts, "non-enabled: "+codeList(u.Disabled))
	}
	if len(u.Unknown) > 0 {
		parts = append(parts, "unknown: "+codeList(u.Unknown))
	}
	msg := "Unused `noqa` directive"
	if len(parts) > 0 {
		msg += " (" + strings.Join(parts, "; ") + ")"
	}
	return msg
}

func codeList(codes []string) string {
	q := make([]string, len(codes))
	for i, c := range codes {
		q[i] = "`" + c + "`"
	}
	return strings.Join(q, ", ")
}

// invalidNoqa turns malformed suppression comments into notices.
func (s *suppressor) invalidNoqa() []finding.Notice {
	var out []finding.Notice
	for _, path := range s.order {
		for _, inv := range s.files[path].set.Invalid() {
			out = append(out, finding.Notice{Path: path, Line: inv.Line, Message: inv.Message})
		}
	}
	return out
}
