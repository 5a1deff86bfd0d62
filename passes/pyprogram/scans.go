package pyprogram

import "slices"

// Scans are the byte scans Programs made of a run's files, handed to the
// pass of each program (runstate.State.Scans) so that its prefilter takes
// them instead of reading and scanning the same files again: on the
// standard library, Programs reads every file to split the run, and the
// prefilter of each program then read its reach once more.
//
// A scan depends on the file's bytes, which one run reads once (the
// driver's reader keeps them), on the extra initializers, and on the import
// roots, which are the policy's that carries the scans (config.Policy's
// ImportRoots, a function of each file's directory); a prefilter with other
// extra initializers scans afresh. The pass's prefilter also takes
// Programs' Bloom filter of identifiers, which holds every identifier of
// every file read, not only those of its reach: more tokens only add
// submodule edges, so its reach can only grow, and its verdict stays sound
// (a file kept that it could have skipped costs time, not findings).
type Scans struct {
	extra  []string
	tokens *tokenSet
	files  map[string]byteFacts
}

// scans records the files pf has scanned.
func (pf *prefilter) scans(extra []string) *Scans {
	s := &Scans{extra: extra, tokens: pf.tokens, files: map[string]byteFacts{}}
	for _, nd := range pf.nodes {
		if nd.scanned {
			s.files[nd.path] = nd.byteFacts
		}
	}
	return s
}

// usable reports whether the scans were made with these settings.
func (s *Scans) usable(extra []string) bool {
	return s != nil && slices.Equal(s.extra, extra)
}
