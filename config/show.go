package config

// What --show-settings prints of a configuration besides its exported
// fields: the patterns as the user wrote them, and which per-file-ignores
// entries apply to a file.

// PerFileIgnore is a per-file-ignores entry that applies to a file: its
// pattern as written and the rule codes it turns off there.
type PerFileIgnore struct {
	Pattern string
	Codes   []string
}

// ExcludePatterns returns the configuration's exclude patterns as written
// (exclude, or the defaults when unset, then extend-exclude).
func (c *Config) ExcludePatterns() []string {
	return patternTexts(c.exclude)
}

// CommandLineExcludes returns the patterns of --exclude and
// --extend-exclude, as given.
func (l *Loader) CommandLineExcludes() []string {
	return patternTexts(l.ovExcl)
}

func patternTexts(ps []ignorePattern) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.text
	}
	return out
}
