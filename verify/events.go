package verify

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// Event is one record of the wrapper's log (see the package doc for the format).
type Event struct {
	Ev      string   `json:"ev"`
	PID     int      `json:"pid"`
	T       int64    `json:"t"`
	PPID    int      `json:"ppid,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	CUDA    *int     `json:"cuda,omitempty"`
	RC      *int     `json:"rc,omitempty"`
	Tainted int      `json:"tainted,omitempty"`
	Py      string   `json:"py,omitempty"`
	Stack   []Frame  `json:"stack,omitempty"`
	Skipped int      `json:"skipped,omitempty"`
	Trunc   int      `json:"trunc,omitempty"`
	Fn      string   `json:"fn,omitempty"`
	N       int      `json:"n,omitempty"`
	Child   int      `json:"child,omitempty"`
	Status  *int     `json:"status,omitempty"`
	Code    *int     `json:"code,omitempty"`
	// St is the process's start time in clock ticks since boot (start, fork, exec).
	St int64 `json:"st,omitempty"`
	// Keeps, Path: an exec record's new environment still loads the wrapper; the program.
	Keeps *int   `json:"keeps,omitempty"`
	Path  string `json:"path,omitempty"`
	Errno int    `json:"errno,omitempty"`
	// Target and Sig: a kill record's pid argument and signal.
	Target int `json:"target,omitempty"`
	Sig    int `json:"sig,omitempty"`
	// OK: a dlopen record's load succeeded (1) or failed (0); its Path is the name asked for.
	OK *int `json:"ok,omitempty"`
}

// Frame is one Python frame: the file, the line and the function, as CPython names them.
type Frame struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Func string `json:"func"`
}

// UnmarshalJSON reads the wrapper's compact form, [file, line, func].
func (f *Frame) UnmarshalJSON(b []byte) error {
	var a []json.RawMessage
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	if len(a) != 3 {
		return fmt.Errorf("frame has %d fields, want 3", len(a))
	}
	if err := json.Unmarshal(a[0], &f.File); err != nil {
		return err
	}
	if err := json.Unmarshal(a[1], &f.Line); err != nil {
		return err
	}
	return json.Unmarshal(a[2], &f.Func)
}

// MarshalJSON writes the same compact form.
func (f Frame) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{f.File, f.Line, f.Func})
}

func (f Frame) String() string { return fmt.Sprintf("%s:%d", f.File, f.Line) }

// ParseEvents reads a log. Lines that are not valid records (a record cut short when the disk
// filled, say) are skipped and counted in bad.
func ParseEvents(r io.Reader) (events []Event, bad int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var e Event
		if json.Unmarshal(line, &e) != nil || e.Ev == "" || e.PID <= 0 {
			bad++
			continue
		}
		events = append(events, e)
	}
	return events, bad, sc.Err()
}
