package model

// valueState is the Program's memory for the value analysis (device.go,
// child.go): caches that are not per binding or per function summary.
// Like every memo of the model it is unguarded: a Program is simulated by
// one goroutine.
type valueState struct {
	maybe map[*Function]*maybeMemo
}

// values returns p's value state, made on first use.
func (p *Program) values() *valueState {
	if p.vals == nil {
		p.vals = &valueState{maybe: map[*Function]*maybeMemo{}}
	}
	return p.vals
}
