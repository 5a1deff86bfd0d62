package syntax

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// kind is this package's name for a tree-sitter node type. Several grammar
// symbols can share one kind (aliases give several ids the same name).
type kind uint8

const (
	kNone  kind = iota // not recorded: punctuation, keywords, string internals
	kOther             // a named node this package does not model
	kOp                // an operator token kept for its text
	kError
	kComment

	kModule
	kBlock

	// statements and their parts
	kImport
	kImportFrom
	kFutureImport
	kRelativeImport
	kImportPrefix
	kDottedName
	kAliasedImport
	kWildcardImport
	kPrint
	kChevron
	kAssert
	kExprStmt
	kReturn
	kDelete
	kRaise
	kPass
	kBreak
	kContinue
	kIf
	kElif
	kElse
	kMatch
	kCase
	kFor
	kWhile
	kTry
	kExcept
	kExceptGroup
	kFinally
	kWith
	kWithClause
	kWithItem
	kFuncDef
	kParameters
	kLambdaParameters
	kGlobal
	kNonlocal
	kExec
	kTypeAlias
	kClassDef
	kDecorated
	kDecorator
	kIfClause
	kForInClause
	kAssignment
	kAugAssignment

	// parameters
	kTypedParam
	kDefaultParam
	kTypedDefaultParam
	kListSplatPattern
	kDictSplatPattern
	kKeywordSep
	kPositionalSep

	// expressions
	kIdentifier
	kAttribute
	kCall
	kArgList
	kKeywordArg
	kListSplat
	kDictSplat
	kGenExp
	kString
	kConcatString
	kStringStart
	kInterpolation
	kFormatSpec
	kInteger
	kFloat
	kTrue
	kFalse
	kNoneLit
	kEllipsis
	kList
	kTuple
	kSet
	kExprList
	kPatternList
	kTuplePattern
	kListPattern
	kDict
	kPair
	kLambda
	kCompare
	kBoolOp
	kNotOp
	kUnaryOp
	kBinOp
	kCondExpr
	kSubscript
	kSlice
	kListComp
	kSetComp
	kDictComp
	kAwait
	kNamedExpr
	kParenExpr
	kYield
	kAsPattern
	kAsPatternTarget
	kType
	kGenericType
	kMemberType
	kUnionType
	kSplatType
	kTypeParameter

	numKinds
)

// kindNames maps tree-sitter node type names to kinds. Names missing here are
// kOther when named and kNone when anonymous (unless listed in opTokens).
var kindNames = map[string]kind{
	"comment": kComment,
	"module":  kModule,
	"block":   kBlock,

	"import_statement":        kImport,
	"import_from_statement":   kImportFrom,
	"future_import_statement": kFutureImport,
	"relative_import":         kRelativeImport,
	"import_prefix":           kImportPrefix,
	"dotted_name":             kDottedName,
	"aliased_import":          kAliasedImport,
	"wildcard_import":         kWildcardImport,
	"print_statement":         kPrint,
	"chevron":                 kChevron,
	"assert_statement":        kAssert,
	"expression_statement":    kExprStmt,
	"return_statement":        kReturn,
	"delete_statement":        kDelete,
	"raise_statement":         kRaise,
	"pass_statement":          kPass,
	"break_statement":         kBreak,
	"continue_statement":      kContinue,
	"if_statement":            kIf,
	"elif_clause":             kElif,
	"else_clause":             kElse,
	"match_statement":         kMatch,
	"case_clause":             kCase,
	"for_statement":           kFor,
	"while_statement":         kWhile,
	"try_statement":           kTry,
	"except_clause":           kExcept,
	"except_group_clause":     kExceptGroup,
	"finally_clause":          kFinally,
	"with_statement":          kWith,
	"with_clause":             kWithClause,
	"with_item":               kWithItem,
	"function_definition":     kFuncDef,
	"parameters":              kParameters,
	"lambda_parameters":       kLambdaParameters,
	"global_statement":        kGlobal,
	"nonlocal_statement":      kNonlocal,
	"exec_statement":          kExec,
	"type_alias_statement":    kTypeAlias,
	"class_definition":        kClassDef,
	"decorated_definition":    kDecorated,
	"decorator":               kDecorator,
	"if_clause":               kIfClause,
	"for_in_clause":           kForInClause,
	"assignment":              kAssignment,
	"augmented_assignment":    kAugAssignment,

	"typed_parameter":          kTypedParam,
	"default_parameter":        kDefaultParam,
	"typed_default_parameter":  kTypedDefaultParam,
	"list_splat_pattern":       kListSplatPattern,
	"dictionary_splat_pattern": kDictSplatPattern,
	"keyword_separator":        kKeywordSep,
	"positional_separator":     kPositionalSep,

	"identifier":               kIdentifier,
	"attribute":                kAttribute,
	"call":                     kCall,
	"argument_list":            kArgList,
	"keyword_argument":         kKeywordArg,
	"list_splat":               kListSplat,
	"dictionary_splat":         kDictSplat,
	"generator_expression":     kGenExp,
	"string":                   kString,
	"concatenated_string":      kConcatString,
	"string_start":             kStringStart,
	"interpolation":            kInterpolation,
	"format_expression":        kInterpolation,
	"format_specifier":         kFormatSpec,
	"integer":                  kInteger,
	"float":                    kFloat,
	"true":                     kTrue,
	"false":                    kFalse,
	"none":                     kNoneLit,
	"ellipsis":                 kEllipsis,
	"list":                     kList,
	"tuple":                    kTuple,
	"set":                      kSet,
	"expression_list":          kExprList,
	"pattern_list":             kPatternList,
	"tuple_pattern":            kTuplePattern,
	"list_pattern":             kListPattern,
	"dictionary":               kDict,
	"pair":                     kPair,
	"lambda":                   kLambda,
	"comparison_operator":      kCompare,
	"boolean_operator":         kBoolOp,
	"not_operator":             kNotOp,
	"unary_operator":           kUnaryOp,
	"binary_operator":          kBinOp,
	"conditional_expression":   kCondExpr,
	"subscript":                kSubscript,
	"slice":                    kSlice,
	"list_comprehension":       kListComp,
	"set_comprehension":        kSetComp,
	"dictionary_comprehension": kDictComp,
	"await":                    kAwait,
	"named_expression":         kNamedExpr,
	"parenthesized_expression": kParenExpr,
	"yield":                    kYield,
	"as_pattern":               kAsPattern,
	"as_pattern_target":        kAsPatternTarget,
	"type":                     kType,
	"generic_type":             kGenericType,
	"member_type":              kMemberType,
	"union_type":               kUnionType,
	"splat_type":               kSplatType,
	"type_parameter":           kTypeParameter,
}

// skipNamed are named node types that are never recorded: their content is
// read from the source text instead (string bodies) or is not needed.
var skipNamed = map[string]bool{
	"line_continuation":    true,
	"escape_sequence":      true,
	"escape_interpolation": true,
	"string_content":       true,
	"string_end":           true,
	"type_conversion":      true,
}

// opTokens are the anonymous tokens recorded for their text: the operators
// of comparisons, boolean, unary and binary operations and augmented
// assignments. "not in" and "is not" are single (aliased) tokens.
var opTokens = []string{
	"<", "<=", "==", "!=", ">=", ">", "<>", "in", "not in", "is", "is not",
	"and", "or",
	"+", "-", "*", "@", "/", "%", "//", "**", "|", "&", "^", "<<", ">>", "~",
	"+=", "-=", "*=", "/=", "@=", "//=", "%=", "**=", ">>=", "<<=", "&=", "^=", "|=",
}

// field is this package's name for a tree-sitter field.
type field uint8

const (
	fNone field = iota
	fAlias
	fAlternative
	fArgument
	fArguments
	fAttribute
	fBody
	fCause
	fCode
	fCondition
	fConsequence
	fDefinition
	fExpression
	fFormatSpecifier
	fFunction
	fGuard
	fKey
	fLeft
	fModuleName
	fName
	fObject
	fOperator
	fOperators
	fParameters
	fReturnType
	fRight
	fSubject
	fSubscript
	fSuperclasses
	fType
	fTypeConversion
	fTypeParameters
	fValue
	numFields
)

var fieldNames = map[string]field{
	"alias":            fAlias,
	"alternative":      fAlternative,
	"argument":         fArgument,
	"arguments":        fArguments,
	"attribute":        fAttribute,
	"body":             fBody,
	"cause":            fCause,
	"code":             fCode,
	"condition":        fCondition,
	"consequence":      fConsequence,
	"definition":       fDefinition,
	"expression":       fExpression,
	"format_specifier": fFormatSpecifier,
	"function":         fFunction,
	"guard":            fGuard,
	"key":              fKey,
	"left":             fLeft,
	"module_name":      fModuleName,
	"name":             fName,
	"object":           fObject,
	"operator":         fOperator,
	"operators":        fOperators,
	"parameters":       fParameters,
	"return_type":      fReturnType,
	"right":            fRight,
	"subject":          fSubject,
	"subscript":        fSubscript,
	"superclasses":     fSuperclasses,
	"type":             fType,
	"type_conversion":  fTypeConversion,
	"type_parameters":  fTypeParameters,
	"value":            fValue,
}

const errorSymbol = 0xFFFF // ts_builtin_sym_error

var (
	language *sitter.Language
	// kindOf maps every possible symbol id (ERROR is 0xFFFF) to its kind.
	kindOf [1 << 16]kind
	// fieldOf maps tree-sitter field ids to fields.
	fieldOf [1 << 8]field
	// symName holds the node type name of each symbol id below len(symName).
	symName []string
	// keepTab tells the C walker which symbols to record (1) or skip (0).
	// Symbols at or past its length (ERROR) are always recorded.
	keepTab []uint8
)

func init() {
	language = python.GetLanguage()
	n := int(language.SymbolCount())
	symName = make([]string, n)
	keepTab = make([]uint8, n)
	ops := make(map[string]bool, len(opTokens))
	for _, op := range opTokens {
		ops[op] = true
	}
	for i := 0; i < n; i++ {
		name := language.SymbolName(sitter.Symbol(i))
		symName[i] = name
		named := language.SymbolType(sitter.Symbol(i)) == sitter.SymbolTypeRegular
		switch {
		case named && skipNamed[name]:
		case named:
			k, ok := kindNames[name]
			if !ok {
				k = kOther
			}
			kindOf[i] = k
			keepTab[i] = 1
		case ops[name]:
			kindOf[i] = kOp
			keepTab[i] = 1
		}
	}
	for i := n; i < len(kindOf); i++ {
		kindOf[i] = kOther // never produced, except ERROR below
	}
	kindOf[errorSymbol] = kError
	for i := 1; i < len(fieldOf); i++ {
		name := language.FieldName(i)
		if name == "" {
			break
		}
		fieldOf[i] = fieldNames[name]
	}
}

// nodeType returns the tree-sitter node type name of a symbol.
func nodeType(sym uint16) string {
	if int(sym) < len(symName) {
		return symName[sym]
	}
	if sym == errorSymbol {
		return "ERROR"
	}
	return "unknown"
}
