// Package finding is the output-side form of a diagnostic: positions resolved
// to paths, lines and columns (bytes and UTF-16), the rule's metadata filled
// in, fixes with their applicability. The driver turns analysis.Diagnostics
// into Findings; every output format (full, concise, json, github, sarif)
// reads only this package's types.
package finding

import "fmt"

// Severity is a rule's level.
type Severity uint8

const (
	Error Severity = iota
	Warning
	Info
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// Position is a point in a file. Line and Column are 1-based; Column counts
// bytes (as go/token and tree-sitter do), UTF16Column counts UTF-16 code units
// (as SARIF and LSP want). Offset is the 0-based byte offset.
type Position struct {
	Offset      int `json:"offset"`
	Line        int `json:"line"`
	Column      int `json:"column"`
	UTF16Column int `json:"utf16_column"`
}

// Location is a span in a file. Path is as the user named it (relative to the
// working directory when the file is under it).
//
// In a Jupyter notebook a location is in a cell: Cell is its 1-based number
// (every cell counts, markdown too, as ruff numbers them), Start and End
// count lines and columns in the cell, and their Offsets are in the Python
// module the kernel runs (package notebook), which is what fixes edit. File
// says where the span is written in the notebook's own file, a JSON
// document, for the formats that point into files (SARIF, GitHub
// annotations). Both are zero in a Python file.
type Location struct {
	Path  string    `json:"path"`
	Cell  int       `json:"cell,omitempty"`
	Start Position  `json:"start"`
	End   Position  `json:"end"`
	File  *FileSpan `json:"file,omitempty"`
}

// FileSpan is a span of a notebook's JSON file.
type FileSpan struct {
	Start FilePosition `json:"start"`
	End   FilePosition `json:"end"`
}

// FilePosition is a point of a notebook's JSON file: a 1-based line, and
// 1-based columns counted in characters (code points) and in UTF-16 code
// units.
type FilePosition struct {
	Line        int `json:"line"`
	Column      int `json:"column"`
	UTF16Column int `json:"utf16_column"`
}

// Related is a secondary location. A finding's Related list is in execution
// order (the call chain down to the CUDA initialization, the process start,
// the child's entry) and may include the primary location as one step; text
// and SARIF relatedLocations skip that step, SARIF codeFlows keep it.
type Related struct {
	Location
	Message string `json:"message"`
}

// Applicability says whether a fix may be applied without review (ruff's terms).
type Applicability uint8

const (
	Safe        Applicability = iota // applied by --fix
	Unsafe                           // applied by --fix --unsafe-fixes
	DisplayOnly                      // shown, never applied
)

func (a Applicability) String() string {
	switch a {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "display-only"
}

// Edit replaces the bytes of Location with NewText.
type Edit struct {
	Location
	NewText string `json:"new_text"`
}

// Fix is one suggested fix.
type Fix struct {
	Message       string        `json:"message"`
	Applicability Applicability `json:"applicability"`
	Edits         []Edit        `json:"edits"`
}

// Finding is one reported problem.
type Finding struct {
	Code     string   `json:"code"` // "CFL001"
	Name     string   `json:"name"` // "fork-after-cuda-init"
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Location
	Related []Related `json:"related,omitempty"`
	Fixes   []Fix     `json:"fixes,omitempty"`
	URL     string    `json:"url,omitempty"`
	// Suppressed is set when a noqa comment or per-file ignore covers the
	// finding; outputs leave suppressed findings out unless asked.
	Suppressed bool `json:"suppressed,omitempty"`
	// Status is set by `verify`: "confirmed", "not observed" or "runtime only".
	Status string `json:"status,omitempty"`
	// Evidence is what `verify` saw at run time, one line each.
	Evidence []string `json:"evidence,omitempty"`
}

// ToolError is a file or input that could not be checked.
type ToolError struct {
	Path string `json:"path,omitempty"`
	// Cell is the notebook cell Line is in (see Location), 0 in a Python
	// file.
	Cell    int    `json:"cell,omitempty"`
	Line    int    `json:"line,omitempty"` // 1-based, 0 when unknown
	Message string `json:"message"`
}

// Where names the error's place for a person: "path", "path:line" or, in a
// notebook, "path:cell 3:line".
func (e ToolError) Where() string {
	switch {
	case e.Path == "":
		return ""
	case e.Cell > 0 && e.Line > 0:
		return fmt.Sprintf("%s:cell %d:%d", e.Path, e.Cell, e.Line)
	case e.Cell > 0:
		return fmt.Sprintf("%s:cell %d", e.Path, e.Cell)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	return e.Path
}

// Notice is a non-fatal note about a file (such as a region tree-sitter could
// not parse, which the analysis worked around).
type Notice = ToolError
