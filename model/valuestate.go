package model

import (
	"hash/maphash"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// valueState is the Program's memory for the value analysis (device.go,
// child.go): caches that are not per binding or per function summary.
// Like every memo of the model it is unguarded: a Program is simulated by
// one goroutine.
type valueState struct {
	maybe map[*Function]*hitCell
	// contexts are the call contexts made so far, by key (context.go);
	// perFunc how many each function has been given for the module
	// simulated now (newEntry), and given which, made for it or for a
	// module before it.
	contexts map[ctxKey][]*callContext
	seed     maphash.Seed
	perFunc  map[*Function]int
	given    map[*callContext]bool
	// perFuncConst counts the constant contexts likewise (constcontext.go).
	perFuncConst map[*Function]int
	// entry counts the modules simulated as __main__ so far (newEntry),
	// and budgetReads the questions asked of the module's budget
	// (intern): a summary built while one was asked holds what that
	// module's budget allowed, and is built again for the next module
	// (Function.summaryOf).
	entry       uint32
	budgetReads uint64
	// byFunc lists each function's contexts, and plain the functions called
	// (or handed to a child) without one.
	byFunc map[*Function][]*callContext
	plain  map[*Function]bool
	// receivers index the contexts of methods by their receiver
	// (containers.go).
	receivers map[*Function]*receiverIndex
	// spareParams are parameter maps of probe contexts, for reuse
	// (context.go: borrowParams).
	spareParams []map[*Binding][]Value
	// appends and classStores index what scopes and classes store into
	// containers (containers.go).
	appends     map[*Scope]map[string][]appended
	classStores map[*Class]map[string][]appended
	// ctxObjects are the process objects made by calls evaluated in a
	// context: the same call makes one object per context.
	ctxObjects map[ctxSite]*Object
	// objects are the process objects (pools, processes, loaders, channels)
	// made by calls evaluated outside of any context, by the call's site,
	// so that every evaluation of the same expression sees the same
	// object; one whose making asked the budget of contexts is made again
	// for the next module simulated as __main__ (Module.object).
	objects map[Site]siteObject
	// partials are the arguments functools.partial calls bind, per call
	// site and context.
	partials map[ctxSite]*argList
	// partialAPIs are the process APIs functools.partial binds, per call;
	// partialCalls, the calls of them written as one (context.go).
	armTests     map[armKey]*valueCell // decided if tests (dominance.go)
	partialAPIs  map[ctxSite]*argList
	partialCalls map[[2]*syntax.Call]*syntax.Call
	// unpacked are process API calls with their **dict arguments written
	// out as keywords (kwargs.go).
	unpacked map[*syntax.Call]*syntax.Call
	// dynAttrs memoizes the computed module attributes (dynattr.go).
	dynAttrs map[dynKey]*valueCell
	// calls memoizes the values of calls (call.go); openCalls are the
	// calls whose values are not settled yet (valueSolver).
	calls     map[callKey][]Value
	openCalls map[callKey]*valueCell
	// argOptions are the add_argument calls of each module (namespace.go).
	argOptions map[*Module][]option
}

// newEntry gives every function a fresh budget of contexts
// (maxContextsPerFunc) for the next module simulated as __main__. The
// contexts made so far stay, and are shared when a call binds the same
// values again; only the cap is per module, so that what a script's
// calls bind does not depend on how many contexts the modules checked
// before it used up (a repository's examples that each make a Trainer).
// A context shared with a module before it counts against the module's
// budget as one it made would: otherwise a module checked with the
// package it imports, whose own run made some of the module's contexts
// first, would get more contexts than checked alone, and other findings
// (TestSharedContextsCount). The summaries and objects whose making asked
// the budget are made again (Function.summaryOf, Module.object).
func (vs *valueState) newEntry() {
	clear(vs.perFunc)
	clear(vs.given)
	clear(vs.perFuncConst)
	vs.entry++
}

// ctxSite is a call site in a context.
type ctxSite struct {
	span syntax.Span
	mod  *Module
	ctx  *callContext
}

// values returns p's value state, made on first use.
func (p *Program) values() *valueState {
	if p.vals == nil {
		p.vals = &valueState{
			maybe:        map[*Function]*hitCell{},
			contexts:     map[ctxKey][]*callContext{},
			seed:         maphash.MakeSeed(),
			perFunc:      map[*Function]int{},
			given:        map[*callContext]bool{},
			perFuncConst: map[*Function]int{},
			byFunc:       map[*Function][]*callContext{},
			plain:        map[*Function]bool{},
			receivers:    map[*Function]*receiverIndex{},
			appends:      map[*Scope]map[string][]appended{},
			classStores:  map[*Class]map[string][]appended{},
			ctxObjects:   map[ctxSite]*Object{},
			objects:      map[Site]siteObject{},
			partials:     map[ctxSite]*argList{},
			partialAPIs:  map[ctxSite]*argList{},
			armTests:     map[armKey]*valueCell{},
			partialCalls: map[[2]*syntax.Call]*syntax.Call{},
			argOptions:   map[*Module][]option{},
			calls:        map[callKey][]Value{},
			openCalls:    map[callKey]*valueCell{},
			dynAttrs:     map[dynKey]*valueCell{},
		}
	}
	return p.vals
}
