package output

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/cudaforklint/cudaforklint/finding"
)

// jsonWriter writes the json format (one indented array) or json-lines (one
// compact object per line). The schema is documented in
// docs/integrations/json-output.md and is stable: fields are only added.
// Rows and columns are 1-based; columns count characters (code points), as
// ruff's do; end_location is the position just after the span. In a
// notebook, "cell" is the 1-based cell number (ruff's field) and rows and
// columns count in the cell; the field is left out elsewhere.
type jsonWriter struct{ lines bool }

type jsonLocation struct {
	Row    int `json:"row"`
	Column int `json:"column"`
}

type jsonEdit struct {
	Filename    string       `json:"filename"`
	Cell        int          `json:"cell,omitempty"`
	Content     string       `json:"content"`
	Location    jsonLocation `json:"location"`
	EndLocation jsonLocation `json:"end_location"`
}

type jsonFix struct {
	Applicability string     `json:"applicability"`
	Message       string     `json:"message"`
	Edits         []jsonEdit `json:"edits"`
}

type jsonRelated struct {
	Message     string       `json:"message"`
	Filename    string       `json:"filename"`
	Cell        int          `json:"cell,omitempty"`
	Location    jsonLocation `json:"location"`
	EndLocation jsonLocation `json:"end_location"`
}

type jsonFinding struct {
	Code        string        `json:"code"`
	Name        string        `json:"name"`
	Severity    string        `json:"severity"`
	Message     string        `json:"message"`
	Filename    string        `json:"filename"`
	Cell        int           `json:"cell,omitempty"`
	Location    jsonLocation  `json:"location"`
	EndLocation jsonLocation  `json:"end_location"`
	URL         string        `json:"url"`
	NoqaRow     int           `json:"noqa_row"`
	Related     []jsonRelated `json:"related"`
	Fix         *jsonFix      `json:"fix"`
	Suppressed  bool          `json:"suppressed"`
	Status      string        `json:"status,omitempty"`
	Evidence    []string      `json:"evidence,omitempty"`
}

func (jw jsonWriter) print(w io.Writer, r *Report, _ Options) error {
	src := newSources(r)
	shown := visible(r)
	objs := make([]jsonFinding, len(shown))
	for i := range shown {
		objs[i] = toJSON(src, &shown[i])
	}
	bw := bufio.NewWriter(w)
	if jw.lines {
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		for i := range objs {
			if err := enc.Encode(&objs[i]); err != nil {
				return err
			}
		}
		return bw.Flush()
	}
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(objs); err != nil {
		return err
	}
	return bw.Flush()
}

func jsonLoc(src *sources, l finding.Location, p finding.Position) jsonLocation {
	return jsonLocation{Row: p.Line, Column: src.charColumn(l, p)}
}

func toJSON(src *sources, f *finding.Finding) jsonFinding {
	o := jsonFinding{
		Code:        f.Code,
		Name:        f.Name,
		Severity:    f.Severity.String(),
		Message:     f.Message,
		Filename:    f.Path,
		Cell:        f.Cell,
		Location:    jsonLoc(src, f.Location, f.Start),
		EndLocation: jsonLoc(src, f.Location, f.End),
		URL:         f.URL,
		NoqaRow:     f.Start.Line,
		Related:     []jsonRelated{},
		Suppressed:  f.Suppressed,
		Status:      f.Status,
		Evidence:    f.Evidence,
	}
	for _, rel := range f.Related {
		o.Related = append(o.Related, jsonRelated{
			Message:     rel.Message,
			Filename:    rel.Path,
			Cell:        rel.Cell,
			Location:    jsonLoc(src, rel.Location, rel.Start),
			EndLocation: jsonLoc(src, rel.Location, rel.End),
		})
	}
	if fx := primaryFix(f); fx != nil {
		jf := &jsonFix{Applicability: fx.Applicability.String(), Message: fx.Message, Edits: []jsonEdit{}}
		for _, e := range fx.Edits {
			l := e.Location
			if l.Path == "" {
				l.Path = f.Path
			}
			jf.Edits = append(jf.Edits, jsonEdit{
				Filename:    l.Path,
				Cell:        l.Cell,
				Content:     e.NewText,
				Location:    jsonLoc(src, l, e.Start),
				EndLocation: jsonLoc(src, l, e.End),
			})
		}
		o.Fix = jf
	}
	return o
}
