package model

import (
	"math/rand/v2"
	"testing"
)

type testKey int

// TestCowSetAgainstMaps drives sets through random adds, shares and
// intersections, as the simulation's clones and joins do, and checks each
// against a plain map after every step: a write to one set must never show
// in a set it shared its data with.
func TestCowSetAgainstMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sets := []cowSet[testKey]{newCowSet[testKey]()}
	want := []map[testKey]bool{{}}
	for step := range 20000 {
		i := r.IntN(len(sets))
		switch op := r.IntN(10); {
		case op <= 1 && len(sets) < 40: // clone
			sets = append(sets, sets[i].share())
			m := map[testKey]bool{}
			for k := range want[i] {
				m[k] = true
			}
			want = append(want, m)
		case op <= 6: // add
			k := testKey(r.IntN(64))
			sets[i].add(k)
			want[i][k] = true
		default: // join
			j := r.IntN(len(sets))
			sets[i].intersect(sets[j])
			for k := range want[i] {
				if !want[j][k] {
					delete(want[i], k)
				}
			}
		}
		for n := range sets {
			if len(sets[n].d.keys) != len(want[n]) {
				t.Fatalf("step %d: set %d holds %v, want %v", step, n, sets[n].d.keys, want[n])
			}
			for k := range testKey(64) {
				if sets[n].has(k) != want[n][k] {
					t.Fatalf("step %d: set %d has(%d) = %v, want %v", step, n, k, sets[n].has(k), want[n][k])
				}
			}
		}
	}
}

// TestCowSetIntersectCopies: a shared set that an intersection shrinks
// gets data of its own, which a later intersection may compact in place
// without touching the set it was shared with.
func TestCowSetIntersectCopies(t *testing.T) {
	a := newCowSet[testKey]()
	for _, k := range []testKey{1, 2, 3, 4} {
		a.add(k)
	}
	x := a.share()
	b := newCowSet[testKey]()
	for _, k := range []testKey{1, 2, 3} {
		b.add(k)
	}
	x.intersect(b) // drops 4 only: x keeps a prefix of a's keys
	c := newCowSet[testKey]()
	c.add(1)
	c.add(3)
	x.intersect(c) // drops 2: compacts x's own keys in place
	for _, k := range []testKey{1, 2, 3, 4} {
		if !a.has(k) {
			t.Errorf("a lost %d to an intersection of its copy: %v", k, a.d.keys)
		}
	}
	if x.has(2) || x.has(4) || !x.has(1) || !x.has(3) {
		t.Errorf("x = %v, want [1 3]", x.d.keys)
	}
}
