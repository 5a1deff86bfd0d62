package model

import "testing"

// TestReadingBindsACopy checks that reading a method stored on self, through
// an instance, binds the method to that instance in a copy of the stored
// set. The evaluator hands cached sets out without copying them (union),
// so binding in place would rewrite the attribute's cached value, and the
// class it was stored with, for every later reader.
func TestReadingBindsACopy(t *testing.T) {
	const src = `class Base:
    def __init__(self):
        self.cb = self.run

    def run(self):
        return "ran"

class Sub(Base):
    pass

def stored(obj):
    return obj.cb

r = Sub().cb
s = stored(Base())
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	var base, sub *Class
	for _, c := range m.Classes {
		switch c.Name {
		case "Base":
			base = c
		case "Sub":
			sub = c
		}
	}
	selfOf := func(expr string) []*Class {
		var out []*Class
		for _, v := range m.Eval(m.Scope.Bindings[expr][0].Value, m.Scope) {
			if v.Kind == VFunc && v.Func.Name == "run" {
				out = append(out, v.Self)
			}
		}
		return out
	}
	if got := selfOf("r"); len(got) != 1 || got[0] != sub {
		t.Fatalf("Sub().cb is bound to %v, want Sub", got)
	}
	// The set stored by Base.__init__ still binds run to Base.
	b := base.SelfAttrs["cb"][0]
	var ev evaluator
	for _, v := range ev.binding(b) {
		if v.Kind == VFunc && v.Self != base {
			t.Errorf("self.cb's cached value is bound to %v after Sub().cb was read, want Base", v.Self.Name)
		}
	}
	if got := selfOf("s"); len(got) != 1 || got[0] != base {
		t.Errorf("Base().cb is bound to %v, want Base", got)
	}
}

// TestUnion checks union's sets: an empty set takes the other set itself
// when it is one, capped so that an append copies, and anything else goes
// through add (duplicates dropped, at most maxValues).
func TestUnion(t *testing.T) {
	str := func(ss ...string) []Value {
		var out []Value
		for _, s := range ss {
			out = append(out, Value{Kind: VStr, Str: s})
		}
		return out
	}
	many := make([]string, maxValues+3)
	for i := range many {
		many[i] = string(rune('a' + i))
	}
	tests := []struct {
		name     string
		out, vs  []Value
		want     []Value
		sharesVs bool
	}{
		{"empty takes a set", nil, str("a", "b"), str("a", "b"), true},
		{"empty takes no duplicates", nil, str("a", "b", "a"), str("a", "b"), false},
		{"empty takes at most maxValues", nil, str(many...), str(many[:maxValues]...), false},
		{"adds what is new", str("a"), str("b", "a"), str("a", "b"), false},
		{"nothing new", str("a", "b"), str("b"), str("a", "b"), false},
		{"empty set adds nothing", nil, nil, nil, false},
	}
	for _, tt := range tests {
		got := union(tt.out, tt.vs)
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %d values, want %d", tt.name, len(got), len(tt.want))
		}
		for i := range got {
			if !sameValue(&got[i], &tt.want[i]) {
				t.Errorf("%s: value %d is %q, want %q", tt.name, i, got[i].Str, tt.want[i].Str)
			}
		}
		shares := len(got) > 0 && len(tt.vs) > 0 && &got[0] == &tt.vs[0]
		if shares != tt.sharesVs {
			t.Errorf("%s: shares the set it was given: %v, want %v", tt.name, shares, tt.sharesVs)
		}
		if shares {
			if cap(got) != len(got) {
				t.Errorf("%s: shared set has room to append into (cap %d, len %d)", tt.name, cap(got), len(got))
			}
			more := add(got, Value{Kind: VStr, Str: "z"})
			if &more[0] == &tt.vs[0] {
				t.Errorf("%s: add wrote into the shared set", tt.name)
			}
		}
	}
}
