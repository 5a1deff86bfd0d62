package model

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// cowSet is a set that the copies of a simulation state share until one of
// them changes it. The simulation clones its state at every branch and loop
// and joins the copies after: with plain maps, each clone copied every module
// imported so far, and a repository whose entries import hundreds of modules
// (mosaicml/composer) spent minutes copying and intersecting sets that most
// arms never change.
//
// The elements are a sorted slice: a copy is one
// allocation and a memmove, an intersection a merge, and membership a
// binary search. As maps, the copies and intersections of composer's run
// (2.3 million copies of 34 modules on average) were a sixth of its CPU
// time, and their garbage most of the rest.
type cowSet[K cmp.Ordered] struct {
	d     *cowData[K]
	owned bool // d belongs to this set alone and may be written in place
}

type cowData[K cmp.Ordered] struct{ keys []K }

func newCowSet[K cmp.Ordered]() cowSet[K] {
	return cowSet[K]{d: &cowData[K]{}, owned: true}
}

func (s *cowSet[K]) has(k K) bool {
	_, ok := slices.BinarySearch(s.d.keys, k)
	return ok
}

func (s *cowSet[K]) add(k K) {
	i, ok := slices.BinarySearch(s.d.keys, k)
	if ok {
		return
	}
	if s.owned {
		s.d.keys = slices.Insert(s.d.keys, i, k)
		return
	}
	keys := make([]K, len(s.d.keys)+1)
	copy(keys, s.d.keys[:i])
	keys[i] = k
	copy(keys[i+1:], s.d.keys[i:])
	s.d, s.owned = &cowData[K]{keys: keys}, true
}

// equal reports whether s and o hold the same elements.
func (s *cowSet[K]) equal(o cowSet[K]) bool {
	return s.d == o.d || slices.Equal(s.d.keys, o.d.keys)
}

// share returns a copy of s; both then copy the data before their next write.
func (s *cowSet[K]) share() cowSet[K] {
	s.owned = false
	return cowSet[K]{d: s.d}
}

// intersect keeps the elements of s that o also holds. Sets that still share
// their data are equal: nothing to do.
func (s *cowSet[K]) intersect(o cowSet[K]) {
	if s.d == o.d {
		return
	}
	a, b := s.d.keys, o.d.keys
	// The first element of a that b lacks: before it, a is kept as it is.
	i, j := 0, 0
	for i < len(a) {
		for j < len(b) && b[j] < a[i] {
			j++
		}
		if j == len(b) || b[j] != a[i] {
			break
		}
		i++
	}
	if i == len(a) {
		return
	}
	var keys []K
	if s.owned {
		keys = a[:i] // written in place: the writes trail the reads
	} else {
		keys = make([]K, i, len(a)-1)
		copy(keys, a[:i])
	}
	for ; i < len(a); i++ {
		for j < len(b) && b[j] < a[i] {
			j++
		}
		if j < len(b) && b[j] == a[i] {
			keys = append(keys, a[i])
		}
	}
	if s.owned {
		s.d.keys = keys
	} else {
		s.d, s.owned = &cowData[K]{keys: keys}, true
	}
}

// The sets hold numbers, not pointers: comparing
// two needs no load from memory, and the collector does not scan a set's
// keys. Modules and objects are numbered when they are made; the order
// only has to be the same throughout a run, since nothing iterates a set.
var moduleIDs, objectIDs atomic.Uint64

type moduleSetKey uint64

func (m *Module) setKey() moduleSetKey { return moduleSetKey(m.id) }

type objectSetKey uint64

func (o *Object) setKey() objectSetKey { return objectSetKey(o.id) }

// newObject numbers a new object for the sets that hold it.
func newObject(o *Object) *Object {
	o.id = objectIDs.Add(1)
	return o
}

// siteSetKey is a site as its module's number and the site's number in
// its module (siteNumber).
type siteSetKey uint64

func (s Site) setKey() siteSetKey {
	if s.Mod == nil {
		return siteSetKey(loneSites.number(s.Span))
	}
	return siteSetKey(s.Mod.id<<32 | uint64(s.Mod.sites.number(s.Span)))
}

// siteNumbers numbers the spans of one module's sites as sets meet them.
type siteNumbers struct {
	mu   sync.Mutex
	nums map[syntax.Span]uint32
}

func (n *siteNumbers) number(sp syntax.Span) uint32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	num, ok := n.nums[sp]
	if !ok {
		if n.nums == nil {
			n.nums = map[syntax.Span]uint32{}
		}
		num = uint32(len(n.nums))
		n.nums[sp] = num
	}
	return num
}

// loneSites numbers the spans of sites without a module (none is expected
// in a set; numbered apart all the same, as module 0).
var loneSites siteNumbers
