package model

import (
	"strings"
	"testing"
)

// callShape renders the local calls among events, with their structure: a
// call as the callee's qualified name, a branch as (arm|arm), a loop as
// *{body}; other events are left out.
func callShape(events []event) string {
	var parts []string
	for i := range events {
		e := &events[i]
		switch e.kind {
		case evEffect:
			if e.eff.kind == effCall {
				parts = append(parts, e.eff.fn.QualName)
			}
		case evBranch:
			var arms []string
			for _, a := range e.arms {
				arms = append(arms, callShape(a))
			}
			parts = append(parts, "("+strings.Join(arms, "|")+")")
		case evLoop:
			parts = append(parts, "*{"+callShape(e.body())+"}")
		case evGuard:
			if s := callShape(e.body()); s != "" {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, " ")
}

// runnerPrelude defines what the runner calls in the tests below.
const runnerPrelude = `import fire
def main(data, workers=2):
    pass
def train():
    pass
def evaluate():
    pass
class Tool:
    def __init__(self, device="cuda"):
        self.device = device
    def run(self):
        pass
    def _helper(self):
        pass
    def __len__(self):
        return 0
class Chain(Tool):
    def setup(self):
        return self
`

// TestRunnerCalls checks what a python-fire call runs: the function it is
// handed, each command of a dict as an alternative, a class's __init__ and
// then any one of its methods (any sequence of them when one returns self),
// an instance's methods; nothing for fire.Fire() or a look-alike.
func TestRunnerCalls(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"fire.Fire(main)", "main"},
		{"fire.Fire(component=main)", "main"},
		{"fire.core.Fire(main, command=['x'])", "main"},
		{"from fire import Fire\nFire(main)", "main"},
		{"if __name__ == '__main__':\n    fire.Fire(main)", "main"},
		{`fire.Fire({"train": train, "eval": evaluate})`, "(train|evaluate)"},
		{`commands = {"train": train, "eval": evaluate}` + "\nfire.Fire(commands)", "(train|evaluate)"},
		{"fire.Fire(Tool)", "Tool.__init__ (Tool._helper|Tool.run|)"},
		{"fire.Fire(Tool())", "Tool.__init__ (Tool._helper|Tool.run|)"},
		{"fire.Fire(Chain)", "Tool.__init__ *{(Tool._helper|Tool.run|Chain.setup|)}"},
		{`fire.Fire({"tool": Tool, "main": main})`, "(Tool.__init__ (Tool._helper|Tool.run|)|main)"},
		{"fire.Fire()", ""},
		{"import other\nother.Fire(main)", ""},
		{"def Fire(x):\n    pass\nFire(main)", "Fire"},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": runnerPrelude + tt.src + "\n"}, "/p/m.py")
		if got := callShape(m.topSummary()); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

// TestRunnerComponentsArePrescanned checks that a function handing a
// function or a class to fire.Fire may start processes when what it hands
// may: the prescan counts the component, and a local class's methods, as
// called.
func TestRunnerComponentsArePrescanned(t *testing.T) {
	src := `import fire
from multiprocessing import Pool
def main():
    Pool(2)
class Tool:
    def run(self):
        Pool(2)
def idle():
    pass
def cli():
    fire.Fire(main)
def tool_cli():
    fire.Fire(Tool)
def commands():
    fire.Fire({"main": main, "idle": idle})
def idle_cli():
    fire.Fire(idle)
`
	p := NewProgram(memSource{"/p/m.py": src}, Options{})
	if _, err := p.Module("/p/m.py"); err != nil {
		t.Fatal(err)
	}
	may := map[string]bool{}
	for f, ok := range p.mayStart() {
		may[f.QualName] = ok
	}
	for name, want := range map[string]bool{"cli": true, "tool_cli": true, "commands": true, "idle_cli": false} {
		if may[name] != want {
			t.Errorf("%s: may start %v, want %v", name, may[name], want)
		}
	}
}
