package model

// cowSet is a set that the copies of a simulation state share until one of
// them changes it. The simulation clones its state at every branch and loop
// and joins the copies after: with plain maps, each clone copied every module
// imported so far, and a repository whose entries import hundreds of modules
// (mosaicml/composer) spent minutes copying and intersecting sets that most
// arms never change.
type cowSet[K comparable] struct {
	d     *cowData[K]
	owned bool // d belongs to this set alone and may be written in place
}

type cowData[K comparable] struct{ m map[K]bool }

func newCowSet[K comparable]() cowSet[K] {
	return cowSet[K]{d: &cowData[K]{m: map[K]bool{}}, owned: true}
}

func (s *cowSet[K]) has(k K) bool { return s.d.m[k] }

func (s *cowSet[K]) add(k K) {
	if s.d.m[k] {
		return
	}
	s.own()
	s.d.m[k] = true
}

// share returns a copy of s; both then copy the data before their next write.
func (s *cowSet[K]) share() cowSet[K] {
	s.owned = false
	return cowSet[K]{d: s.d}
}

// own gives s its own data to write.
func (s *cowSet[K]) own() {
	if s.owned {
		return
	}
	m := make(map[K]bool, len(s.d.m)+1)
	for k := range s.d.m {
		m[k] = true
	}
	s.d, s.owned = &cowData[K]{m: m}, true
}

// intersect keeps the elements of s that o also holds. Sets that still share
// their data are equal: nothing to do.
func (s *cowSet[K]) intersect(o cowSet[K]) {
	if s.d == o.d {
		return
	}
	var gone []K
	for k := range s.d.m {
		if !o.d.m[k] {
			gone = append(gone, k)
		}
	}
	if len(gone) == 0 {
		return
	}
	s.own()
	for _, k := range gone {
		delete(s.d.m, k)
	}
}
