package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Dataclasses. A class decorated with @dataclass gets an __init__ that
// stores its fields, which research code uses as a record of what it built:
//
//	@dataclass
//	class DataInfo:
//	    dataloader: DataLoader
//	    sampler: DistributedSampler = None
//
//	return DataInfo(dataloader=WebLoader(dataset, num_workers=args.workers))
//
// and a training loop later iterates `info.dataloader` (open_flamingo,
// open_clip). The indexer writes that __init__ as the method Python
// generates, `def __init__(self, dataloader, sampler=None): self.dataloader
// = dataloader; ...` (and a call of __post_init__ when the class defines
// one), so that constructing the class binds its fields as any __init__
// does. Each synthetic node carries the span of the field it comes from.
// Only a class without positional bases gets one: a base dataclass's fields
// come first in the generated signature, and which bases are dataclasses is
// not known while indexing.

// dataclassInit returns the __init__ @dataclass generates for d, or nil when
// d is no dataclass, writes its own __init__, asks for none (init=False) or
// has positional bases.
func dataclassInit(d *syntax.ClassDef) *syntax.FunctionDef {
	if !isDataclass(d) {
		return nil
	}
	for _, b := range d.Bases {
		if b.Keyword == "" {
			return nil
		}
	}
	init := &syntax.FunctionDef{Span: d.NameSpan, Name: "__init__", NameSpan: d.NameSpan,
		Params: []syntax.Param{{Span: d.NameSpan, Name: "self"}}}
	self := func(at syntax.Span) *syntax.Name { return &syntax.Name{Span: at, ID: "self"} }
	postInit := false
	kwOnly := false
	for _, s := range d.Body {
		switch s := s.(type) {
		case *syntax.FunctionDef:
			switch s.Name {
			case "__init__":
				return nil
			case "__post_init__":
				postInit = true
			}
		case *syntax.Assign:
			if s.Annotation == nil || len(s.Targets) != 1 || s.Op != "=" && s.Op != "" {
				continue
			}
			n, ok := s.Targets[0].(*syntax.Name)
			if !ok || classVar(s.Annotation) {
				continue
			}
			if kwOnlyMarker(s.Annotation) {
				kwOnly = true
				continue
			}
			p := syntax.Param{Span: n.Span, Name: n.ID, Default: fieldDefault(s.Value)}
			if kwOnly {
				p.Kind = syntax.ParamKwOnly
			}
			init.Params = append(init.Params, p)
			init.SetBody(append(init.Body(), &syntax.Assign{Span: s.Span, Op: "=",
				Targets: []syntax.Expr{&syntax.Attribute{Span: n.Span, X: self(n.Span), Attr: n.ID, AttrSpan: n.Span}},
				Value:   &syntax.Name{Span: n.Span, ID: n.ID}}))
		}
	}
	if postInit {
		call := &syntax.Call{Span: d.NameSpan, Func: &syntax.Attribute{Span: d.NameSpan, X: self(d.NameSpan), Attr: "__post_init__", AttrSpan: d.NameSpan}}
		init.SetBody(append(init.Body(), &syntax.ExprStmt{Span: d.NameSpan, X: call}))
	}
	return init
}

// isDataclass reports whether d is decorated with dataclasses.dataclass
// (bare, called, or through the module), and not with init=False.
func isDataclass(d *syntax.ClassDef) bool {
	for _, dec := range d.Decorators {
		e := dec
		var call *syntax.Call
		if c, ok := e.(*syntax.Call); ok {
			call, e = c, c.Func
		}
		name := ""
		switch e := e.(type) {
		case *syntax.Name:
			name = e.ID
		case *syntax.Attribute:
			if x, ok := e.X.(*syntax.Name); ok && x.ID == "dataclasses" {
				name = e.Attr
			}
		}
		if name != "dataclass" {
			continue
		}
		if call != nil {
			for _, a := range call.Args {
				if c, ok := a.Value.(*syntax.Constant); ok && a.Keyword == "init" && c.Kind == syntax.ConstFalse {
					return false
				}
			}
		}
		return true
	}
	return false
}

// classVar reports whether a field's annotation is ClassVar[...]: no field.
func classVar(ann syntax.Expr) bool {
	if s, ok := ann.(*syntax.Subscript); ok {
		ann = s.X
	}
	switch a := ann.(type) {
	case *syntax.Name:
		return a.ID == "ClassVar"
	case *syntax.Attribute:
		return a.Attr == "ClassVar"
	case *syntax.String:
		return strings.HasPrefix(a.Value, "ClassVar")
	}
	return false
}

// kwOnlyMarker reports whether a field is the `_: KW_ONLY` marker.
func kwOnlyMarker(ann syntax.Expr) bool {
	switch a := ann.(type) {
	case *syntax.Name:
		return a.ID == "KW_ONLY"
	case *syntax.Attribute:
		return a.Attr == "KW_ONLY"
	}
	return false
}

// fieldDefault is the parameter default of a field: its value, unless that
// is field(...), whose default= is (a default_factory's product is not
// modelled: the parameter has no default).
func fieldDefault(v syntax.Expr) syntax.Expr {
	c, ok := v.(*syntax.Call)
	if !ok {
		return v
	}
	if n, ok := c.Func.(*syntax.Name); !ok || n.ID != "field" {
		if a, ok := c.Func.(*syntax.Attribute); !ok || a.Attr != "field" {
			return v
		}
	}
	for _, a := range c.Args {
		if a.Keyword == "default" {
			return a.Value
		}
	}
	return nil
}
