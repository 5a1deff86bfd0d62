package ruledoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
)

// Linter is the "linter" field of the JSON form, as ruff names the plugin a
// rule comes from.
const Linter = "cudaforklint"

// FixLine is the fix-availability sentence ruff prints under the title, or ""
// when no fix exists (ruff prints nothing then).
func (d *Doc) FixLine() string {
	switch d.FixAvailable {
	case "always":
		return "Fix is always available."
	case "sometimes":
		return "Fix is sometimes available."
	}
	return ""
}

// PascalName is Name in PascalCase ("fork-after-cuda-init" →
// "ForkAfterCudaInit"), the form SARIF's reportingDescriptor.name wants.
func (d *Doc) PascalName() string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(d.Name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }) {
		r, n := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[n:])
	}
	return b.String()
}

// section is one "## Title" block of the explanation.
type section struct {
	title string
	body  string // Markdown
}

// sections lists the explanation in ruff's order; empty optional sections
// (Known problems, Use instead, References) are left out.
func (d *Doc) sections() []section {
	var s []section
	add := func(title, body string) {
		if body = strings.TrimSpace(body); body != "" {
			s = append(s, section{title, body})
		}
	}
	add("What it does", d.WhatItDoes)
	add("Why is this bad?", d.WhyIsThisBad)
	if ex := strings.Trim(d.Example, "\n"); strings.TrimSpace(ex) != "" {
		body := fence(ex)
		if use := strings.Trim(d.UseInstead, "\n"); strings.TrimSpace(use) != "" {
			body += "\n\nUse instead:\n\n" + fence(use)
		}
		s = append(s, section{"Example", body})
	}
	add("Fix safety", d.FixSafety)
	add("Versions affected", d.Versions)
	add("Known problems", d.KnownProblems)
	if len(d.References) > 0 {
		var b strings.Builder
		for i, r := range d.References {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("- " + strings.TrimSpace(r))
		}
		s = append(s, section{"References", b.String()})
	}
	return s
}

func fence(code string) string { return "```python\n" + code + "\n```" }

// Explanation is the Markdown body shared by every rendering: the sections
// from "## What it does" on, without the title.
func (d *Doc) Explanation() string {
	var b strings.Builder
	for i, s := range d.sections() {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("## " + s.title + "\n\n" + s.body)
	}
	b.WriteByte('\n')
	return b.String()
}

// Text renders the rule for `cudaforklint rule CODE`, in the shape of `ruff
// rule`: the title, the linter and fix lines, then the explanation as
// Markdown (ruff prints its Markdown as is, and so do we).
func (d *Doc) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s)\n\n", d.Name, d.Code)
	fmt.Fprintf(&b, "Derived from the **%s** linter.\n\n", Linter)
	if l := d.FixLine(); l != "" {
		b.WriteString(l + "\n\n")
	}
	b.WriteString(d.Explanation())
	return b.String()
}

// PlainText is Text without Markdown emphasis, for SARIF help.text, which
// consumers show verbatim.
func (d *Doc) PlainText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s\n\n", d.Name, d.Code, d.Summary)
	if l := d.FixLine(); l != "" {
		b.WriteString(l + "\n\n")
	}
	b.WriteString(d.Explanation())
	b.WriteString("\nFull documentation: " + d.URL() + "\n")
	return b.String()
}

// Markdown renders the rule page (docs/rules/CODE.md) and SARIF
// help.markdown: the title, a line of metadata, the explanation.
func (d *Doc) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s)\n\n", d.Name, d.Code)
	meta := []string{
		"Default severity: " + d.Severity.String(),
		"Enabled by default: " + yesNo(d.DefaultEnabled),
	}
	if l := d.FixLine(); l != "" {
		meta = append(meta, l)
	} else {
		meta = append(meta, "No fix is available.")
	}
	b.WriteString(strings.Join(meta, " · ") + "\n\n")
	if s := strings.TrimSpace(d.Summary); s != "" {
		b.WriteString(s + ".\n\n")
	}
	b.WriteString(d.Explanation())
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// FullDescription is SARIF's fullDescription.text: the "What it does"
// prose as plain text, cut to GitHub's limit of 1024 characters.
func (d *Doc) FullDescription() string {
	s := strings.TrimSpace(d.WhatItDoes)
	if s == "" {
		s = d.Summary
	}
	return Truncate(s, 1024)
}

// Truncate cuts s to at most n characters (runes), ending in "…" when cut.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRightFunc(string(r[:n-1]), unicode.IsSpace) + "…"
}

// JSON is a rule as `cudaforklint rule --all --output-format json` prints it;
// the field names follow `ruff rule --output-format json`.
type JSON struct {
	Name             string   `json:"name"`
	Code             string   `json:"code"`
	Linter           string   `json:"linter"`
	Summary          string   `json:"summary"`
	MessageFormats   []string `json:"message_formats"`
	Fix              string   `json:"fix"`
	FixAvailability  string   `json:"fix_availability"` // "Always", "Sometimes", "None"
	Explanation      string   `json:"explanation"`
	Preview          bool     `json:"preview"`
	DefaultSeverity  string   `json:"default_severity"`
	EnabledByDefault bool     `json:"enabled_by_default"`
	URL              string   `json:"url"`
}

// JSON returns the rule's JSON form.
func (d *Doc) JSON() JSON {
	avail := "None"
	switch d.FixAvailable {
	case "always":
		avail = "Always"
	case "sometimes":
		avail = "Sometimes"
	}
	fix := d.FixLine()
	if fix == "" {
		fix = "Fix is not available."
	}
	return JSON{
		Name:             d.Name,
		Code:             d.Code,
		Linter:           Linter,
		Summary:          d.Summary,
		MessageFormats:   []string{d.Summary},
		Fix:              fix,
		FixAvailability:  avail,
		Explanation:      d.Explanation(),
		DefaultSeverity:  d.Severity.String(),
		EnabledByDefault: d.DefaultEnabled,
		URL:              d.URL(),
	}
}

// WriteJSON writes docs as a JSON array (`rule --all`), or one object when
// len(docs) == 1 and single is set (`rule CODE`), indented, newline-ended.
func WriteJSON(w io.Writer, docs []*Doc, single bool) error {
	var v any
	if single && len(docs) == 1 {
		v = docs[0].JSON()
	} else {
		all := make([]JSON, len(docs))
		for i, d := range docs {
			all[i] = d.JSON()
		}
		v = all
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteText writes docs for `rule CODE` / `rule --all`, separated by a blank
// line.
func WriteText(w io.Writer, docs []*Doc) error {
	for i, d := range docs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, d.Text()); err != nil {
			return err
		}
	}
	return nil
}

// IndexFile is the name of the rule index WriteDocs writes next to the pages.
const IndexFile = "README.md"

// Index renders the rule index page: one table row per rule.
func Index(docs []*Doc) string {
	var b strings.Builder
	b.WriteString("# Rules\n\n")
	b.WriteString("<!-- Generated from the rules' ruledoc.Doc; do not edit. -->\n\n")
	b.WriteString("| Code | Name | Summary | Severity | Default | Fix |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, d := range sorted(docs) {
		fix := ""
		switch d.FixAvailable {
		case "always":
			fix = "🛠️"
		case "sometimes":
			fix = "🛠️ (sometimes)"
		}
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s | %s | %s |\n",
			d.Code, d.Code, d.Name, strings.ReplaceAll(d.Summary, "|", `\|`), d.Severity, yesNo(d.DefaultEnabled), fix)
	}
	b.WriteString("\n## What an error means\n\n")
	b.WriteString(ErrorPolicy)
	b.WriteString("\n\n## The Pythons a program runs on\n\n")
	b.WriteString(PythonRange())
	b.WriteString("\n")
	return b.String()
}

func sorted(docs []*Doc) []*Doc {
	out := append([]*Doc(nil), docs...)
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// pageHeader marks generated pages.
const pageHeader = "<!-- Generated from the rule's ruledoc.Doc by ruledoc.WriteDocs; do not edit. -->\n\n"

// Page is the content of docs/rules/CODE.md.
func (d *Doc) Page() string { return pageHeader + d.Markdown() }

// expectedFiles maps a file name in the docs directory to its content.
func expectedFiles(docs []*Doc) map[string]string {
	m := map[string]string{IndexFile: Index(docs)}
	for _, d := range docs {
		m[d.Code+".md"] = d.Page()
	}
	return m
}

// WriteDocs writes dir/CODE.md for every rule and dir/README.md (the
// index), and removes CODE.md pages of rules that no longer exist (files
// whose name looks like a code followed by .md).
func WriteDocs(dir string, docs []*Doc) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	want := expectedFiles(docs)
	for name, content := range want {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok && isPageName(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// isPageName reports whether name looks like a generated page: an
// uppercase-letters-then-digits code followed by ".md".
func isPageName(name string) bool {
	code, ok := strings.CutSuffix(name, ".md")
	if !ok || code == "" {
		return false
	}
	i := 0
	for i < len(code) && code[i] >= 'A' && code[i] <= 'Z' {
		i++
	}
	if i == 0 || i == len(code) {
		return false
	}
	for ; i < len(code); i++ {
		if code[i] < '0' || code[i] > '9' {
			return false
		}
	}
	return true
}

// CheckDocs compares dir with what WriteDocs would write for docs and returns
// an error listing every missing, stale or extra page (nil when up to date).
// A test calls it so that committed pages never drift from the Docs:
//
//	if err := ruledoc.CheckDocs("../docs/rules", ruledoc.All()); err != nil { t.Fatal(err) }
func CheckDocs(dir string, docs []*Doc) error {
	want := expectedFiles(docs)
	var problems []string
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, os.ErrNotExist):
			problems = append(problems, name+": missing")
		case err != nil:
			problems = append(problems, name+": "+err.Error())
		case !bytes.Equal(got, []byte(want[name])):
			problems = append(problems, name+": out of date")
		}
	}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if _, ok := want[e.Name()]; !ok && isPageName(e.Name()) {
				problems = append(problems, e.Name()+": no such rule")
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("rule docs in %s differ from the rules' ruledoc.Doc (regenerate them with ruledoc.WriteDocs):\n\t%s",
			dir, strings.Join(problems, "\n\t"))
	}
	return nil
}

// SARIFLevel is the SARIF level of a severity: error, warning or note.
func SARIFLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "note"
}

// ProblemSeverity is GitHub's properties.problem.severity of a severity:
// error, warning or recommendation.
func ProblemSeverity(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "recommendation"
}

// SARIFMarkdown is Markdown for SARIF help.markdown. GitHub turns every line
// break in it into a hard break, so soft-wrapped paragraph lines are joined
// (code blocks, headings, list items and table rows keep their lines).
func (d *Doc) SARIFMarkdown() string { return Unwrap(d.Markdown()) }

// Unwrap joins soft-wrapped lines of Markdown paragraphs and list items.
func Unwrap(md string) string {
	lines := strings.Split(md, "\n")
	var out []string
	inFence, joinable := false, false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			inFence = !inFence
			out = append(out, l)
			joinable = false
		case inFence:
			out = append(out, l)
		case t == "":
			out = append(out, l)
			joinable = false
		case blockStart(t):
			out = append(out, l)
			joinable = !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "|")
		case joinable:
			out[len(out)-1] += " " + t
		default:
			out = append(out, l)
			joinable = true
		}
	}
	return strings.Join(out, "\n")
}

func blockStart(t string) bool {
	if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, ">") ||
		strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") {
		return true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}
