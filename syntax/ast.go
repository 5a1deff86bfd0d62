// Package syntax turns Python source into a small Go syntax tree.
//
// It is the only package that talks to tree-sitter: it parses with the
// smacker/go-tree-sitter Python grammar, copies what the analysis needs into
// the plain Go types below, and closes the tree before returning. Everything
// downstream (the model, the rules, the outputs) sees only these types, so the
// binding can be swapped for the official github.com/tree-sitter/go-tree-sitter
// by changing this package alone.
//
// Positions are byte offsets into the source (Span). Lines and columns are the
// driver's business (it registers every file in a go/token FileSet).
//
// The tree is deliberately lossy: it keeps statements, the expression shapes the
// CUDA/fork analysis reads (names, attributes, calls and their arguments,
// literals, containers, comparisons, lambdas, comprehensions), and folds every
// other expression into Opaque, which still lists its sub-expressions so that
// no call or name inside it is lost. Regions tree-sitter could not parse are
// listed in File.Errors; the statements around them are still converted.
//
// Error recovery. The content of ERROR nodes is salvaged rather than
// dropped: statements inside them are converted as statements, and each run
// of loose expressions becomes an OtherStmt of Kind "ERROR" holding them (also
// for ERROR nodes met inside a statement, placed right after it). The bundled
// grammar predates Python 3.13–3.15; see TestNewerSyntax for what survives.
// Template strings (t"...", PEP 750), which it reads as an ERROR plus a plain
// string, are parsed as the f-strings whose syntax they have, and format
// specifiers that start with `=` (f"{x:=^10}"), which its lexer reads as a
// walrus, as the text they are (fstrings.go).
// Other gaps are worked around before and around tree-sitter, with a small
// tokenizer (lex.go) so that strings and comments are never touched: PEP
// 810's `lazy import` / `lazy from` (Python 3.15) parse as Import and
// ImportFrom with Lazy set (lazy.go); continuation lines inside brackets
// indented less than their statement, which the grammar's scanner reads as
// dedents, are joined by a second parse (brackets.go); and starred elements
// the grammar rejects in bare tuples and subscripts (`return a,
// *((None,) * 30)`, valid since 3.8) are recovered by another (splat.go).
// TestAcceptsWhatCPythonAccepts holds the result to CPython's parser.
//
// Parse refuses, with a one-line *SourceError, source it cannot analyse at
// all: NUL bytes, invalid UTF-8, a coding declaration other than UTF-8 (for
// non-ASCII source). Nodes nested deeper than 1000 levels (far beyond what
// CPython accepts) are folded into Opaque/OtherStmt with no children.
//
// Implementation: tree-sitter parses; one cgo call then walks the tree in C
// with a TSTreeCursor and writes one fixed-size record per node of interest
// into a reusable C buffer (walk.go); the Go tree is built from the records
// in plain Go (convert.go, exprs.go, strings.go), with its nodes allocated in
// chunks (arena.go). Handing nodes out through the smacker Go API instead
// would cost more than the parse itself. Inspect walks the result; the tests'
// Dump (dump_test.go) prints it.
package syntax

// Span is a half-open byte range [Start, End) in the source. Offsets are
// int32 to keep trees small: Parse refuses source longer than that.
type Span struct {
	Start, End int32
}

// Len returns the number of bytes in s.
func (s Span) Len() int { return int(s.End) - int(s.Start) }

// Contains reports whether o lies inside s.
func (s Span) Contains(o Span) bool { return s.Start <= o.Start && o.End <= s.End }

// File is one parsed Python source file.
type File struct {
	Body     []Stmt
	Comments []Comment
	// Errors lists the regions tree-sitter could not parse (ERROR and MISSING
	// nodes), outermost first, in source order. The rest of the file is still
	// converted.
	Errors []Span

	// arenas are where the conversion allocated the nodes, and where the
	// deferred bodies are decoded (arena.go).
	arenas *Arenas
}

// Comment is one `#` comment; Text includes the leading '#'.
type Comment struct {
	Span
	Text string
}

// Node is implemented by every statement and expression.
type Node interface {
	Pos() Span
}

// Pos returns the node's span (promoted into every node type).
func (s Span) Pos() Span { return s }

// ---------------------------------------------------------------------------
// Statements

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Import is `import a.b as c, d`, or PEP 810's `lazy import a.b as c`
// (Python 3.15; Lazy set, Span starting at the keyword).
type Import struct {
	Span
	Names []Alias
	Lazy  bool
}

// ImportFrom is `from .mod import a as b, c` or `from mod import *`, or
// PEP 810's `lazy from mod import a` (Lazy set, Span starting at the keyword).
type ImportFrom struct {
	Span
	Module string // dotted module name without the leading dots; "" for `from . import x`
	Level  int    // number of leading dots (relative import level)
	Names  []Alias
	Star   bool
	Lazy   bool
}

// Alias is one imported name: `a.b as c` (Name "a.b", AsName "c").
type Alias struct {
	Span
	Name   string
	AsName string // "" when there is no `as`
}

// FunctionDef is `def` or `async def`, with its decorators.
type FunctionDef struct {
	Span       // the whole definition, decorators included
	Name       string
	NameSpan   Span
	Params     []Param
	Decorators []Expr
	Async      bool

	// The body: read it with Body (or ScanBody); File.DeferBodies may
	// keep it encoded until then (deferred.go). deferrable: the body was
	// converted in the file's scratch arena and may be deferred. encoded:
	// a deferrable body's encoding, when it was decoded from one (a stored
	// tree), which DeferBodies keeps instead of encoding the body again.
	body       []Stmt
	deferred   *deferredBody
	deferrable bool
	encoded    []byte
}

// ParamKind tells positional, *args, keyword-only and **kwargs parameters apart.
type ParamKind int

const (
	ParamNormal  ParamKind = iota // positional-or-keyword (or positional-only)
	ParamVarArgs                  // *args
	ParamKwOnly                   // after * or *args
	ParamKwArgs                   // **kwargs
)

// Param is one function or lambda parameter.
type Param struct {
	Span
	Name       string
	Kind       ParamKind
	Default    Expr // nil when there is none
	Annotation Expr // nil when there is none
}

// ClassDef is a class definition with its decorators.
type ClassDef struct {
	Span
	Name       string
	NameSpan   Span
	Bases      []Arg // positional bases and keywords such as metaclass=
	Decorators []Expr
	Body       []Stmt
}

// If is an if statement; `elif` chains are nested: Else holds a single *If.
type If struct {
	Span
	Test Expr
	Body []Stmt
	Else []Stmt
}

// For is a for loop (Async for `async for`).
type For struct {
	Span
	Target Expr
	Iter   Expr
	Body   []Stmt
	Else   []Stmt
	Async  bool
}

// While is a while loop.
type While struct {
	Span
	Test Expr
	Body []Stmt
	Else []Stmt
}

// With is a with statement (Async for `async with`).
type With struct {
	Span
	Items []WithItem
	Body  []Stmt
	Async bool
}

// WithItem is `expr as target`; Target is nil without `as`.
type WithItem struct {
	Span
	Value  Expr
	Target Expr
}

// Try is try/except/else/finally (also except*).
type Try struct {
	Span
	Body     []Stmt
	Handlers []ExceptHandler
	Else     []Stmt
	Finally  []Stmt
}

// ExceptHandler is one except clause.
type ExceptHandler struct {
	Span
	Type Expr   // nil for a bare except
	Name string // the `as` name, "" if none
	Body []Stmt
}

// Match is a match statement; each case body is kept with its guard.
type Match struct {
	Span
	Subject Expr
	Cases   []MatchCase
}

// MatchCase is one `case pattern if guard:` clause; the pattern is not kept.
type MatchCase struct {
	Span
	Guard Expr // nil if none
	Body  []Stmt
}

// Assign is `a = b = value`, `a += value` (Op "+=") or `a: T = value`.
// Value is nil for a bare annotation `a: T`.
type Assign struct {
	Span
	Targets    []Expr
	Value      Expr
	Op         string // "=" or the augmented operator ("+=", ...)
	Annotation Expr   // nil unless annotated
}

// ExprStmt is an expression used as a statement (usually a call).
type ExprStmt struct {
	Span
	X Expr
}

// Return is `return [value]`.
type Return struct {
	Span
	Value Expr // nil for a bare return
}

// Global is `global a, b` or `nonlocal a, b`.
type Global struct {
	Span
	Names    []string
	Nonlocal bool
}

// OtherStmt is any other simple statement: pass, break, continue, del, assert,
// raise, type alias, print/exec (Python 2 shapes). Exprs holds its expressions.
type OtherStmt struct {
	Span
	Kind  string // the tree-sitter node type, e.g. "raise_statement"
	Exprs []Expr
}

func (*Import) stmtNode()      {}
func (*ImportFrom) stmtNode()  {}
func (*FunctionDef) stmtNode() {}
func (*ClassDef) stmtNode()    {}
func (*If) stmtNode()          {}
func (*For) stmtNode()         {}
func (*While) stmtNode()       {}
func (*With) stmtNode()        {}
func (*Try) stmtNode()         {}
func (*Match) stmtNode()       {}
func (*Assign) stmtNode()      {}
func (*ExprStmt) stmtNode()    {}
func (*Return) stmtNode()      {}
func (*Global) stmtNode()      {}
func (*OtherStmt) stmtNode()   {}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Name is an identifier.
type Name struct {
	Span
	ID string
}

// Attribute is `X.Attr`.
type Attribute struct {
	Span
	X        Expr
	Attr     string
	AttrSpan Span
}

// Call is `Func(Args...)`.
type Call struct {
	Span
	Func     Expr
	Args     []Arg
	ArgsSpan Span // the parenthesised argument list, parentheses included
}

// Arg is one call argument: positional (Keyword ""), keyword, *x (Star 1) or
// **x (Star 2). Generator arguments `f(x for x in y)` are one positional Arg.
type Arg struct {
	Span
	Keyword     string
	KeywordSpan Span
	Value       Expr
	Star        int
}

// String is a string literal, or several adjacent ones concatenated. Value is
// the decoded text for plain literals (escape sequences handled for the
// common cases); for f-strings and t-strings Interpolated is set, Value holds
// only the literal parts and Exprs the interpolated expressions.
type String struct {
	Span
	Value        string
	Interpolated bool
	Exprs        []Expr
}

// Number is an integer, float or imaginary literal; Text is its source.
type Number struct {
	Span
	Text string
}

// ConstantKind is the kind of a keyword constant.
type ConstantKind int

const (
	ConstTrue ConstantKind = iota
	ConstFalse
	ConstNone
	ConstEllipsis
)

// Constant is True, False, None or `...`.
type Constant struct {
	Span
	Kind ConstantKind
}

// SequenceKind tells lists, tuples and sets apart.
type SequenceKind int

const (
	List SequenceKind = iota
	Tuple
	Set
)

// Sequence is a list, tuple (parenthesised or bare `a, b`) or set display.
type Sequence struct {
	Span
	Kind SequenceKind
	Elts []Expr
}

// Dict is a dict display; a `**x` entry has a nil key.
type Dict struct {
	Span
	Keys   []Expr
	Values []Expr
}

// Lambda is `lambda params: body`.
type Lambda struct {
	Span
	Params []Param
	Body   Expr
}

// Compare is `Left op1 C1 op2 C2 ...`; Ops are "==", "!=", "<", "<=", ">",
// ">=", "in", "not in", "is", "is not".
type Compare struct {
	Span
	Left        Expr
	Ops         []string
	Comparators []Expr
}

// BoolOp is `a and b` or `a or b` (binary; chains nest left to right).
type BoolOp struct {
	Span
	Op   string // "and" or "or"
	X, Y Expr
}

// UnaryOp is `not x`, `-x`, `+x` or `~x`.
type UnaryOp struct {
	Span
	Op string
	X  Expr
}

// BinOp is an arithmetic or bitwise binary operation.
type BinOp struct {
	Span
	Op   string
	X, Y Expr
}

// IfExp is `Body if Test else Else`.
type IfExp struct {
	Span
	Body, Test, Else Expr
}

// Subscript is `X[Index]`; a tuple index `x[a, b]` gives several entries,
// slices are Opaque.
type Subscript struct {
	Span
	X     Expr
	Index []Expr
}

// ComprehensionKind tells list, set, dict and generator comprehensions apart.
type ComprehensionKind int

const (
	ListComp ComprehensionKind = iota
	SetComp
	DictComp
	GeneratorExp
)

// Comprehension is `[Elt for ... in ... if ...]` and its set, dict and
// generator forms; for a dict comprehension Elt is the key and Value the value.
type Comprehension struct {
	Span
	Kind       ComprehensionKind
	Elt        Expr
	Value      Expr
	Generators []CompFor
}

// CompFor is one `for Target in Iter if Ifs...` clause.
type CompFor struct {
	Span
	Target Expr
	Iter   Expr
	Ifs    []Expr
}

// Starred is `*x` in a display or assignment target.
type Starred struct {
	Span
	X Expr
}

// Await is `await x`.
type Await struct {
	Span
	X Expr
}

// NamedExpr is `target := value`.
type NamedExpr struct {
	Span
	Target Expr
	Value  Expr
}

// Opaque is any expression the analysis does not model (yield, slices,
// ERROR regions, ...). Children holds its direct sub-expressions, converted,
// so calls and names nested inside are still seen.
type Opaque struct {
	Span
	Kind     string // the tree-sitter node type
	Children []Expr
}

func (*Name) exprNode()          {}
func (*Attribute) exprNode()     {}
func (*Call) exprNode()          {}
func (*String) exprNode()        {}
func (*Number) exprNode()        {}
func (*Constant) exprNode()      {}
func (*Sequence) exprNode()      {}
func (*Dict) exprNode()          {}
func (*Lambda) exprNode()        {}
func (*Compare) exprNode()       {}
func (*BoolOp) exprNode()        {}
func (*UnaryOp) exprNode()       {}
func (*BinOp) exprNode()         {}
func (*IfExp) exprNode()         {}
func (*Subscript) exprNode()     {}
func (*Comprehension) exprNode() {}
func (*Starred) exprNode()       {}
func (*Await) exprNode()         {}
func (*NamedExpr) exprNode()     {}
func (*Opaque) exprNode()        {}
