package syntax

// TreeCache keeps parsed files between runs, keyed by their bytes: a tree is
// a function of the source alone (and of this build of the parser), so a
// file whose bytes did not change need not be parsed again. Decoding a
// stored tree (Decode) costs a fraction of tree-sitter's parse.
type TreeCache interface {
	// Load returns the tree stored for src, if there is one, decoded in
	// arenas (DecodeIn).
	Load(src []byte, arenas *Arenas) (*File, bool)
	// Store keeps f, the tree Parse returned for src.
	Store(src []byte, f *File)
}

// ParseCached is ParseIn through c: the tree c holds for src, or ParseIn's,
// which c then keeps. Only trees are cached; a source Parse refuses is
// refused again each time (CheckSource is cheap). A nil c parses.
func ParseCached(src []byte, c TreeCache, arenas *Arenas) (*File, error) {
	if c == nil {
		return ParseIn(src, arenas)
	}
	if f, ok := c.Load(src, arenas); ok {
		return f, nil
	}
	f, err := ParseIn(src, arenas)
	if err == nil {
		c.Store(src, f)
	}
	return f, err
}
