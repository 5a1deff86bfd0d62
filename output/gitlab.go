package output

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"

	"github.com/cudaforklint/cudaforklint/finding"
)

// gitlabWriter writes GitLab's Code Quality report: a JSON array of issues
// in the Code Climate shape, which GitLab shows in merge requests when a job
// names the file under artifacts:reports:codequality (ruff's gitlab format
// is the same shape):
//
//	[{"description": "...", "check_name": "CFL001", "fingerprint": "...",
//	  "severity": "major", "location": {"path": "a.py", "lines": {"begin": 6, "end": 6}}}]
//
// Errors are "major", warnings "minor", infos "info". The fingerprint, which
// GitLab uses to tell new issues from fixed ones between the target branch
// and the merge request, is computed from the rule, the path, the message and
// the finding's rank among equal ones, not the line: moving code does not
// make an issue look new. A notebook's issue points at the JSON line where
// its cell's line is written, as the github format does. Syntax errors are
// issues too (check_name "SyntaxError"): the file was not analysed and the
// merge request should say so.
type gitlabWriter struct{}

type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

func (gitlabWriter) print(w io.Writer, r *Report, _ Options) error {
	issues := []gitlabIssue{}
	seen := map[string]int{}
	add := func(check, path, message, severity string, begin, end int) {
		key := check + "\x00" + path + "\x00" + message
		rank := seen[key]
		seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(rank)))
		issues = append(issues, gitlabIssue{
			Description: check + " " + message,
			CheckName:   check,
			Fingerprint: hex.EncodeToString(sum[:16]),
			Severity:    severity,
			Location:    gitlabLocation{Path: path, Lines: gitlabLines{Begin: begin, End: end}},
		})
	}
	for _, f := range visible(r) {
		if f.Suppressed {
			continue // GitLab has no suppressed state: it would show as open
		}
		begin, end := f.Start.Line, f.End.Line
		if f.File != nil {
			begin, end = f.File.Start.Line, f.File.End.Line
		}
		msg := f.Message
		if f.Status != "" {
			msg += " [" + f.Status + "]" // verify's runtime status, as in the concise format
		}
		add(f.Code, f.Path, msg, gitlabSeverity(f.Severity), begin, end)
	}
	for _, e := range r.SyntaxErrors {
		line := max(e.Line, 1)
		if e.Cell != 0 {
			line = 1 // the cell's line is not a line of the notebook's JSON
		}
		add("SyntaxError", e.Path, e.Message, "major", line, line)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}

func gitlabSeverity(s finding.Severity) string {
	switch s {
	case finding.Warning:
		return "minor"
	case finding.Info:
		return "info"
	}
	return "major"
}
