package model

import (
	"slices"
	"testing"
)

// TestEffectsWalk checks the order in which effects walks a summary's event
// tree and that stopping the loop stops it.
func TestEffectsWalk(t *testing.T) {
	eff := func(api string) event { return event{kind: evEffect, eff: effect{kind: effUse, api: api}} }
	events := []event{
		eff("a"),
		{kind: evBranch, arms: [][]event{{eff("b")}, nil, {eff("c"), loopEvent([]event{eff("d")})}}},
		{kind: evGuard, arms: [][]event{{eff("e"), {kind: evBranch, arms: [][]event{{eff("f")}}}}, nil}},
		eff("g"),
	}
	tests := []struct {
		stopAt string
		want   []string
	}{
		{"", []string{"a", "b", "c", "d", "e", "f", "g"}},
		{"a", []string{"a"}},
		{"d", []string{"a", "b", "c", "d"}},
		{"f", []string{"a", "b", "c", "d", "e", "f"}},
	}
	for _, tt := range tests {
		var got []string
		for e := range effects(events) {
			got = append(got, e.api)
			if e.api == tt.stopAt {
				break
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("stopping at %q: walked %q, want %q", tt.stopAt, got, tt.want)
		}
	}
	if got := slices.Collect(effects(nil)); len(got) != 0 {
		t.Errorf("no events: walked %v", got)
	}
}
