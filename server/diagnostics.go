package server

import (
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// diagnostic converts a finding (its paths absolute).
func (s *session) diagnostic(f *finding.Finding) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    rangeOf(f.Location, s.enc),
		Severity: severity(f.Severity),
		Code:     f.Code,
		Source:   "cudaforklint",
		Message:  f.Message,
	}
	if f.URL != "" {
		d.CodeDescription = &protocol.CodeDescription{Href: f.URL}
	}
	for _, r := range f.Related {
		if r.Location == f.Location {
			// The primary location as a step of the chain: the
			// diagnostic already points there.
			continue
		}
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: s.uriLocked(r.Path), Range: rangeOf(r.Location, s.enc)},
			Message:  r.Message,
		})
	}
	return d
}

// uriLocked is the URI of a path: the client's own spelling for an open
// document.
func (s *session) uriLocked(path string) string {
	if d := s.docs[path]; d != nil {
		return d.uri
	}
	return uriOf(path)
}

func severity(s finding.Severity) int {
	switch s {
	case finding.Error:
		return protocol.SeverityError
	case finding.Warning:
		return protocol.SeverityWarning
	}
	return protocol.SeverityInformation
}

// rangeOf converts a finding's span: LSP lines and characters are 0-based;
// characters count UTF-16 code units or bytes, as negotiated.
func rangeOf(l finding.Location, enc string) protocol.Range {
	return protocol.Range{Start: positionOf(l.Start, enc), End: positionOf(l.End, enc)}
}

func positionOf(p finding.Position, enc string) protocol.Position {
	col := p.UTF16Column
	if enc == protocol.EncodingUTF8 {
		col = p.Column
	}
	return protocol.Position{Line: max(p.Line-1, 0), Character: max(col-1, 0)}
}
