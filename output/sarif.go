package output

// SARIF 2.1.0 output, modelled on staticcheck's lintcmd/sarif.go. What its
// consumers do with it (GitHub's "SARIF support for code scanning" page,
// staticcheck's notes, microsoft/sarif-vscode-extension's source, and the
// SARIF multitool's "Sarif;Gh" rules):
//
// GitHub code scanning
//   - Reads tool.driver.name (to filter by tool), version/semanticVersion
//     (to tell an upgrade from a code change), and rules[] with id,
//     shortDescription.text and fullDescription.text (≤1024 characters each),
//     help.text, and optionally name (≤255), help.markdown (shown instead of
//     help.text; every line break becomes a hard break, so paragraphs are
//     unwrapped), defaultConfiguration.level, properties.tags (20 kept, 10
//     shown), properties.precision and properties.problem.severity (error,
//     warning or recommendation; "note" is not one). No security-severity:
//     these are correctness findings, not security ones.
//   - Shows the first sentence of message.text when short of space. Markdown
//     in message.text is stripped except links; relatedLocations are shown
//     only when linked from the message as [text](id), so every related
//     location is linked.
//   - Uses only the first of locations[]. A relative uri is taken relative to
//     the repository root; we write paths relative to the working directory
//     with uriBaseId %SRCROOT% (and originalUriBaseIds with the working
//     directory), as staticcheck and semgrep do. Paths must be stable across
//     runs or every alert is closed and reopened.
//   - Columns: the default run.columnKind is utf16CodeUnits and we set it
//     explicitly; endColumn is the column after the last character.
//   - partialFingerprints.primaryLocationLineHash: upload-sarif computes it
//     when missing, but keeps (with a warning) a value the tool supplies, and
//     an API upload computes nothing; LineHashes ports the action's function
//     exactly, so the two agree.
//   - Ignores fixes. Ingests suppressed results (suppressions[{kind:
//     "inSource"}]) as open alerts (seen in github/codeql-action#1230 and
//     several repositories that had to filter them), so suppressed findings
//     are left out unless --show-suppressed.
//   - Limits: 10 MB gzip-compressed per upload, 25,000 results per run (5,000
//     shown), 1,000 locations per result, 10,000 thread-flow locations.
//   - A run with only warnings does not fail a check by default.
//
// VS Code SARIF Viewer (microsoft/sarif-vscode-extension)
//   - Opens .sarif/**.sarif in the workspace by itself; resolves %SRCROOT%
//     through originalUriBaseIds, then the workspace folder.
//   - Turns result.fixes into quick fixes (so fixes are written, with
//     UTF-16 regions, though GitHub ignores them); display-only fixes are left
//     out since the viewer would apply them.
//   - Shows shortDescription/fullDescription but not help; a rule without a
//     name shows a dash; shows suppressed results by default.
//   - codeFlows are shown as a step list: built from Related in execution
//     order (call chain, CUDA initialization, process start, child).
//
// Notebooks (.ipynb)
//   - A location in a notebook cell points at the notebook file, its region
//     at the lines and UTF-16 columns of the JSON where the cell's text is
//     written (finding.Location.File), so code scanning shows the alert on
//     the right line of the file. partialFingerprints are left for
//     upload-sarif to compute from that line, and notebook fixes are not
//     written: they edit the cells' Python, not the JSON's bytes.
//
// The multitool (`validate --rule-kind "Sarif;Gh"`, .ci/sarif-validate.sh)
// additionally wants informationUri and version, PascalCase rule names that
// differ from the id, and the final 2.1.0 schema URI.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

const (
	sarifSchema    = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	srcRoot        = "%SRCROOT%"
	InformationURI = "https://github.com/cudaforklint/cudaforklint"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult                    `json:"results"`
	ColumnKind         string                           `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name,omitempty"`
	ShortDescription     sarifText           `json:"shortDescription"`
	FullDescription      sarifText           `json:"fullDescription"`
	Help                 sarifText           `json:"help"`
	HelpURI              string              `json:"helpUri,omitempty"`
	DefaultConfiguration *sarifConfiguration `json:"defaultConfiguration,omitempty"`
	Properties           *sarifRuleProps     `json:"properties,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags            []string `json:"tags,omitempty"`
	Precision       string   `json:"precision,omitempty"`
	ProblemSeverity string   `json:"problem.severity,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifThreadFlowLocation struct {
	Location       sarifLocation `json:"location"`
	ExecutionOrder int           `json:"executionOrder"`
}

type sarifCodeFlow struct {
	ThreadFlows []struct {
		Locations []sarifThreadFlowLocation `json:"locations"`
	} `json:"threadFlows"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	Properties      map[string]string     `json:"properties,omitempty"`
}

type sarifSuppression struct {
	Kind string `json:"kind"`
}

type sarifResult struct {
	RuleID              string              `json:"ruleId"`
	RuleIndex           int                 `json:"ruleIndex"`
	Level               string              `json:"level"`
	Message             sarifText           `json:"message"`
	Locations           []sarifLocation     `json:"locations"`
	RelatedLocations    []sarifLocation     `json:"relatedLocations,omitempty"`
	CodeFlows           []sarifCodeFlow     `json:"codeFlows,omitempty"`
	PartialFingerprints map[string]string   `json:"partialFingerprints,omitempty"`
	Fixes               []sarifFix          `json:"fixes,omitempty"`
	Suppressions        *[]sarifSuppression `json:"suppressions,omitempty"` // nil: not written; empty: not suppressed
	Properties          map[string]any      `json:"properties,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                   `json:"executionSuccessful"`
	ExitCode                   int                    `json:"exitCode"`
	CommandLine                string                 `json:"commandLine,omitempty"`
	Arguments                  []string               `json:"arguments,omitempty"`
	WorkingDirectory           *sarifArtifactLocation `json:"workingDirectory,omitempty"`
	ToolExecutionNotifications []sarifNotification    `json:"toolExecutionNotifications,omitempty"`
}

type sarifWriter struct{}

func (sarifWriter) print(w io.Writer, r *Report, _ Options) error {
	log := buildSARIF(r)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

func buildSARIF(r *Report) *sarifLog {
	src := newSources(r)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            "cudaforklint",
			Version:         r.Version,
			SemanticVersion: semver(r.Version),
			InformationURI:  InformationURI,
			Rules:           []sarifRule{},
		}},
		Results:    []sarifResult{},
		ColumnKind: "utf16CodeUnits",
	}
	if r.WorkDir != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: dirURI(r.WorkDir)}}
	}
	ruleIndex := map[string]int{}
	for _, d := range r.Rules {
		ruleIndex[d.Code] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(d))
	}
	hashes := map[string][]string{}
	for _, f := range visible(r) {
		idx, ok := ruleIndex[f.Code]
		if !ok {
			// A code outside the enabled rules (such as a stale-noqa report):
			// describe it from the finding so ruleIndex stays valid.
			idx = len(run.Tool.Driver.Rules)
			ruleIndex[f.Code] = idx
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, adhocRule(&f))
		}
		run.Results = append(run.Results, sarifResultOf(&f, idx, src, hashes, r.ShowSuppressed))
	}
	run.Invocations = []sarifInvocation{invocation(r)}
	return &sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

// semver returns v when it is a plain semantic version (no "v", no suffix
// such as "(devel)"), else "".
func semver(v string) string {
	v = strings.TrimPrefix(v, "v")
	core, _, _ := strings.Cut(v, "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return ""
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return ""
		}
	}
	return v
}

func sarifRuleOf(d *ruledoc.Doc) sarifRule {
	tags := d.Tags
	if len(tags) > 20 {
		tags = tags[:20]
	}
	return sarifRule{
		ID:                   d.Code,
		Name:                 ruledoc.Truncate(d.PascalName(), 255),
		ShortDescription:     sarifText{Text: ruledoc.Truncate(d.Summary, 1024)},
		FullDescription:      sarifText{Text: d.FullDescription()},
		Help:                 sarifText{Text: d.PlainText(), Markdown: d.SARIFMarkdown()},
		HelpURI:              d.URL(),
		DefaultConfiguration: &sarifConfiguration{Level: ruledoc.SARIFLevel(d.Severity)},
		Properties: &sarifRuleProps{
			Tags:            tags,
			Precision:       d.Precision,
			ProblemSeverity: ruledoc.ProblemSeverity(d.Severity),
		},
	}
}

func adhocRule(f *finding.Finding) sarifRule {
	name := f.Name
	if name == "" {
		name = f.Code
	}
	d := &ruledoc.Doc{Code: f.Code, Name: name, Summary: name, Severity: f.Severity}
	r := sarifRule{
		ID:                   f.Code,
		ShortDescription:     sarifText{Text: name},
		FullDescription:      sarifText{Text: name},
		Help:                 sarifText{Text: name},
		HelpURI:              f.URL,
		DefaultConfiguration: &sarifConfiguration{Level: ruledoc.SARIFLevel(f.Severity)},
		Properties:           &sarifRuleProps{ProblemSeverity: ruledoc.ProblemSeverity(f.Severity)},
	}
	if f.Name != "" {
		r.Name = d.PascalName()
	}
	return r
}

// artifact returns the SARIF artifact location of a finding path: relative
// to %SRCROOT% when relative, a file URI when absolute.
func artifact(path string) sarifArtifactLocation {
	if path == "" {
		return sarifArtifactLocation{URI: ""}
	}
	if filepath.IsAbs(path) {
		return sarifArtifactLocation{URI: fileURI(path)}
	}
	return sarifArtifactLocation{URI: relURI(path), URIBaseID: srcRoot}
}

// relURI escapes a relative path as a URI reference; a ':' is escaped so the
// first segment cannot read as a scheme.
func relURI(p string) string {
	u := (&url.URL{Path: filepath.ToSlash(p)}).EscapedPath()
	return strings.ReplaceAll(u, ":", "%3A")
}

func fileURI(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

func dirURI(dir string) string {
	u := fileURI(dir)
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

func region(start, end finding.Position) *sarifRegion {
	if start.Line < 1 {
		return nil
	}
	reg := &sarifRegion{StartLine: start.Line, StartColumn: max(start.UTF16Column, 1)}
	if end.Line >= start.Line {
		reg.EndLine = end.Line
		reg.EndColumn = max(end.UTF16Column, 1)
		if end.Line == start.Line && reg.EndColumn < reg.StartColumn {
			reg.EndColumn = reg.StartColumn
		}
	}
	return reg
}

func physical(loc finding.Location) sarifPhysicalLocation {
	if loc.File != nil {
		// A notebook: the region is where the span is written in its JSON.
		s, e := loc.File.Start, loc.File.End
		return sarifPhysicalLocation{ArtifactLocation: artifact(loc.Path), Region: region(
			finding.Position{Line: s.Line, UTF16Column: s.UTF16Column},
			finding.Position{Line: e.Line, UTF16Column: e.UTF16Column})}
	}
	return sarifPhysicalLocation{ArtifactLocation: artifact(loc.Path), Region: region(loc.Start, loc.End)}
}

// escapeMessage escapes what SARIF's message syntax gives a meaning
// (§3.11.5): '[' and ']' (link brackets) get a backslash, and so does a
// backslash right before one of them; other backslashes are literal.
func escapeMessage(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[' || c == ']':
			b.WriteByte('\\')
		case c == '\\' && i+1 < len(s) && (s[i+1] == '[' || s[i+1] == ']'):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func sarifResultOf(f *finding.Finding, idx int, src *sources, hashes map[string][]string, showSuppressed bool) sarifResult {
	res := sarifResult{
		RuleID:    f.Code,
		RuleIndex: idx,
		Level:     ruledoc.SARIFLevel(f.Severity),
		Locations: []sarifLocation{{PhysicalLocation: physical(f.Location)}},
	}
	// message.text: the message as its first sentence, then every related
	// location linked by id (GitHub shows only linked ones).
	var msg strings.Builder
	msg.WriteString(escapeMessage(strings.TrimRight(f.Message, ".")))
	msg.WriteString(".")
	var links []string
	for i := range f.Related {
		rel := &f.Related[i]
		if sameSpan(f, rel) {
			continue
		}
		id := len(res.RelatedLocations) + 1
		text := rel.Message
		if text == "" {
			text = fmt.Sprintf("%s:%d", rel.Path, rel.Start.Line)
		}
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
			ID:               &id,
			PhysicalLocation: physical(rel.Location),
			Message:          &sarifText{Text: rel.Message},
		})
		links = append(links, fmt.Sprintf("[%s](%d)", escapeMessage(text), id))
	}
	if len(links) > 0 {
		msg.WriteString(" Related: " + strings.Join(links, "; ") + ".")
	}
	res.Message = sarifText{Text: msg.String()}

	if len(f.Related) > 0 {
		var cf sarifCodeFlow
		cf.ThreadFlows = make([]struct {
			Locations []sarifThreadFlowLocation `json:"locations"`
		}, 1)
		for i, rel := range f.Related {
			cf.ThreadFlows[0].Locations = append(cf.ThreadFlows[0].Locations, sarifThreadFlowLocation{
				Location:       sarifLocation{PhysicalLocation: physical(rel.Location), Message: &sarifText{Text: rel.Message}},
				ExecutionOrder: i + 1,
			})
		}
		res.CodeFlows = []sarifCodeFlow{cf}
	}

	if f.Cell == 0 {
		if h := lineHash(f.Path, f.Start.Line, src, hashes); h != "" {
			res.PartialFingerprints = map[string]string{"primaryLocationLineHash": h}
		}
	}

	for _, fx := range f.Fixes {
		if fx.Applicability == finding.DisplayOnly || notebookFix(fx) {
			continue
		}
		sf := sarifFix{
			Description:     sarifText{Text: fx.Message},
			ArtifactChanges: []sarifArtifactChange{},
			Properties:      map[string]string{"applicability": fx.Applicability.String()},
		}
		byPath := map[string]int{}
		for _, e := range fx.Edits {
			path := e.Path
			if path == "" {
				path = f.Path
			}
			i, ok := byPath[path]
			if !ok {
				i = len(sf.ArtifactChanges)
				byPath[path] = i
				sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(path)})
			}
			reg := region(e.Start, e.End)
			if reg == nil {
				continue
			}
			sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, sarifReplacement{
				DeletedRegion:   *reg,
				InsertedContent: sarifText{Text: e.NewText},
			})
		}
		res.Fixes = append(res.Fixes, sf)
	}
	if showSuppressed {
		sup := []sarifSuppression{}
		if f.Suppressed {
			sup = append(sup, sarifSuppression{Kind: "inSource"})
		}
		res.Suppressions = &sup
	}
	if f.Status != "" || len(f.Evidence) > 0 {
		res.Properties = map[string]any{}
		if f.Status != "" {
			res.Properties["status"] = f.Status
		}
		if len(f.Evidence) > 0 {
			res.Properties["evidence"] = f.Evidence
		}
	}
	return res
}

// notebookFix reports whether a fix edits a notebook: its edits are made on
// the cells' Python, which a SARIF replacement of the JSON file's bytes
// cannot express; `check --fix` applies them.
func notebookFix(fx finding.Fix) bool {
	for _, e := range fx.Edits {
		if e.Cell > 0 {
			return true
		}
	}
	return false
}

// lineHash returns the fingerprint of a file's line, or "" when the file
// cannot be read or lies outside the working directory (upload-sarif skips
// those too).
func lineHash(path string, line int, src *sources, cache map[string][]string) string {
	if filepath.IsAbs(path) || line < 1 {
		return ""
	}
	h, ok := cache[path]
	if !ok {
		if f := src.get(path); f.err == nil {
			h = LineHashes(f.data)
		}
		cache[path] = h
	}
	if line > len(h) {
		return ""
	}
	return h[line-1]
}

func invocation(r *Report) sarifInvocation {
	inv := sarifInvocation{
		ExecutionSuccessful: r.ExitCode == 0 || r.ExitCode == 1,
		ExitCode:            r.ExitCode,
	}
	if len(r.Args) > 0 {
		inv.CommandLine = shellJoin(r.Args)
		inv.Arguments = append([]string{}, r.Args[1:]...)
	}
	if r.WorkDir != "" {
		inv.WorkingDirectory = &sarifArtifactLocation{URI: dirURI(r.WorkDir)}
	}
	note := func(level string, e finding.ToolError) {
		n := sarifNotification{Level: level, Message: sarifText{Text: e.Message}}
		if e.Cell > 0 {
			// A line in a notebook cell is not a line of the file.
			where := fmt.Sprintf("cell %d", e.Cell)
			if e.Line > 0 {
				where += fmt.Sprintf(", line %d", e.Line)
			}
			n.Message.Text = where + ": " + e.Message
		}
		if e.Path != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: artifact(e.Path)}}
			if e.Line > 0 && e.Cell == 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: e.Line}
			}
			n.Locations = []sarifLocation{loc}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	for _, e := range r.Errors {
		note("error", e)
	}
	for _, n := range r.Notices {
		note("warning", n)
	}
	return inv
}

// shellJoin quotes args for a POSIX shell, for commandLine.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
