package model

import "testing"

// TestAttributeStores checks what a read of an attribute gives after
// stores on the object through a name: the last store that runs before the
// read replaces what the constructor, or an earlier store, put there; a
// store that may not run leaves both.
func TestAttributeStores(t *testing.T) {
	const cfg = "class Config:\n    def __init__(self):\n        self.workers = 4\n"
	tests := []struct{ name, src, want string }{
		{"store after the constructor", cfg + "c = Config()\nc.workers = 0\nuse(c.workers)\n", "0"},
		{"no store", cfg + "c = Config()\nuse(c.workers)\n", "4"},
		{"read before the store", cfg + "c = Config()\nuse(c.workers)\nc.workers = 0\n", "4"},
		{"two stores", cfg + "c = Config()\nc.workers = 0\nc.workers = 2\nuse(c.workers)\n", "2"},
		{"conditional store", cfg + "import sys\nc = Config()\nif sys.argv[1:]:\n    c.workers = 0\nuse(c.workers)\n", "0,4"},
		{"store in a loop after the read", cfg + "c = Config()\nfor i in range(3):\n    use(c.workers)\n    c.workers = 0\n", "0,4"},
		{"rebound after the store", cfg + "c = Config()\nc.workers = 0\nc = Config()\nuse(c.workers)\n", "4"},
		{"another attribute stored", cfg + "c = Config()\nc.batch = 0\nuse(c.workers)\n", "4"},
		{"stores in a factory, then by its caller",
			"class Node:\n    pass\ndef defaults():\n    n = Node()\n    n.workers = 4\n    n.batch = 64\n    return n\n" +
				"c = defaults()\nc.workers = 0\nuse(c.workers)\n", "0"},
		{"a factory's stores alone",
			"class Node:\n    pass\ndef defaults():\n    n = Node()\n    n.workers = 4\n    return n\nc = defaults()\nuse(c.workers)\n", "4"},
		{"store read through a constructor that keeps the object",
			cfg + "class Trainer:\n    def __init__(self, config):\n        self.config = config\n" +
				"c = Config()\nc.workers = 0\nt = Trainer(c)\nuse(t.config.workers)\n", "0"},
		{"stored in a function", cfg + "def main():\n    c = Config()\n    c.workers = 0\n    use(c.workers)\n", "0"},
		{"stored on an unknown parameter", cfg + "def run(c):\n    c.workers = 0\n    use(c.workers)\n", "?"},
		{"a namespace", "import types\nns = types.SimpleNamespace(workers=4)\nns.workers = 0\nuse(ns.workers)\n", "0"},
		{"a property", "class Config:\n    @property\n    def workers(self):\n        return 4\n    @workers.setter\n    def workers(self, n):\n        pass\n" +
			"c = Config()\nc.workers = 0\nuse(c.workers)\n", "4"},
		{"__setattr__", "class Config:\n    def __init__(self):\n        self.workers = 4\n    def __setattr__(self, k, v):\n        pass\n" +
			"c = Config()\nc.workers = 0\nuse(c.workers)\n", "4"},
		{"read in a function the module defines", cfg + "c = Config()\nc.workers = 0\ndef main():\n    use(c.workers)\n", "0,4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := usedValues(t, tt.src); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
