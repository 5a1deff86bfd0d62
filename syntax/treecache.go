package syntax

// TreeCache keeps parsed files between runs, keyed by their bytes: a tree is
// a function of the source alone (and of this build of the parser), so a
// file whose bytes did not change need not be parsed again. Decoding a
// stored tree (Decode) costs a fraction of tree-sitter's parse.
type TreeCache interface {
	// Load returns the tree stored for src, if there is one.
	Load(src []byte) (*File, bool)
	// Store keeps f, the tree Parse returned for src.
	Store(src []byte, f *File)
}

// ParseCached is Parse through c: the tree c holds for src, or Parse's,
// which c then keeps. Only trees are cached; a source Parse refuses is
// refused again each time (CheckSource is cheap). A nil c parses.
func ParseCached(src []byte, c TreeCache) (*File, error) {
	if c == nil {
		return Parse(src)
	}
	if f, ok := c.Load(src); ok {
		return f, nil
	}
	f, err := Parse(src)
	if err == nil {
		c.Store(src, f)
	}
	return f, err
}
