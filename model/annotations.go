package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Parameter annotations. When nothing the model can see tells what a
// parameter holds, its annotation may:
//
//	def main(exp: Exp, args):
//	    trainer = exp.get_trainer(args)
//
// (YOLOX, whose experiment object comes from a module its own import hook
// finds). An annotation that names a local class makes the parameter an
// instance of that class, but only when every value the model found for
// it is unknown: a value it can see is never replaced by a declared type.
// Library types (DataLoader, torch.nn.Module) are not used: an annotation
// says what a parameter may be, not that a loader was made or a module
// moved to a device. Strings (forward references), Optional[...] and
// unions are not read.

// annotatedParam adds to vs, the values of parameter binding b, an instance
// of the local class b's annotation names, when vs holds nothing known.
func (ev *evaluator) annotatedParam(b *Binding, vs []Value) []Value {
	if b.Param == nil || b.Param.Annotation == nil || b.Scope.Func == nil {
		return vs
	}
	for _, v := range vs {
		if v.Kind != VUnknown || v.Dev != DevNone {
			return vs
		}
	}
	if _, ok := b.Param.Annotation.(*syntax.String); ok {
		return vs
	}
	out := vs
	for _, c := range ev.expr(b.Param.Annotation, lookupParent(b.Scope.Func.Scope.Parent)) {
		if c.Kind == VClass {
			out = add(out, Value{Kind: VInstance, Class: c.Class})
		}
	}
	return out
}
