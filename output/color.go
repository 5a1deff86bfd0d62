package output

import (
	"fmt"
	"os"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"
)

// ColorEnabled decides whether to colour output written to f, for
// --color=auto|always|never. "auto" colours only a terminal, and never when
// NO_COLOR is set to anything non-empty (https://no-color.org) or TERM is
// "dumb"; FORCE_COLOR (non-empty, not "0") forces it on. getenv is
// os.Getenv in production.
func ColorEnabled(mode string, f *os.File, getenv func(string) string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
	default:
		return false, fmt.Errorf("unknown --color value %q (want auto, always or never)", mode)
	}
	if getenv("NO_COLOR") != "" {
		return false, nil
	}
	if v := getenv("FORCE_COLOR"); v != "" && v != "0" {
		return true, nil
	}
	if getenv("TERM") == "dumb" || f == nil {
		return false, nil
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()), nil
}

// palette holds one printer's colours. fatih/color decides globally from
// os.Stdout whether to colour (color.NoColor), which is wrong when writing
// to a file or a pipe other than stdout, so every colour is switched on or
// off explicitly here.
type palette struct {
	bold, path, errCode, warnCode, infoCode, fixMark, caret, gutter, help, note, dim *color.Color
}

func newPalette(on bool) *palette {
	p := &palette{
		bold:     color.New(color.Bold),
		path:     color.New(color.Bold),
		errCode:  color.New(color.FgRed, color.Bold),
		warnCode: color.New(color.FgYellow, color.Bold),
		infoCode: color.New(color.FgCyan, color.Bold),
		fixMark:  color.New(color.FgCyan),
		caret:    color.New(color.FgRed, color.Bold),
		gutter:   color.New(color.FgBlue, color.Bold),
		help:     color.New(color.FgCyan, color.Bold),
		note:     color.New(color.FgBlue, color.Bold),
		dim:      color.New(color.Faint),
	}
	for _, c := range []*color.Color{p.bold, p.path, p.errCode, p.warnCode, p.infoCode, p.fixMark, p.caret, p.gutter, p.help, p.note, p.dim} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}
