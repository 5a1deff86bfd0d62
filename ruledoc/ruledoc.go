// Package ruledoc is the registry of cudaforklint's rules: each rule's code,
// name, severity and documentation in one structured form (one file per
// rule, ruledoc/cflNNN.go), rendered everywhere it is shown: `cudaforklint
// rule CODE` (text), SARIF help.markdown and fullDescription, and
// docs/rules/CODE.md. It is a leaf: the driver, the output formats and the
// runtime verifier know every rule through it without linking the static
// engine (package rules, which holds the analyzers).
package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// Doc is one rule's metadata and documentation. The prose fields are
// Markdown, following ruff's section names.
type Doc struct {
	Code           string           // "CFL001"; also the analyzer's Name
	Name           string           // kebab-case: "fork-after-cuda-init"
	Summary        string           // one line, sentence case, no final period
	Severity       finding.Severity // default level
	DefaultEnabled bool             // selected when no select is given
	Precision      string           // SARIF precision: "very-high", "high", "medium", "low"
	Tags           []string         // SARIF properties.tags
	FixAvailable   string           // "always", "sometimes" or "never"

	WhatItDoes    string // ## What it does
	WhyIsThisBad  string // ## Why is this bad?
	Example       string // ## Example (Python code, no fences)
	UseInstead    string // Use instead: (Python code, no fences)
	FixSafety     string // ## Fix safety
	Versions      string // ## Versions affected
	KnownProblems string // ## Known problems (optional)
	References    []string
}

// BaseURL is where the rendered rule pages live; a rule's URL is
// BaseURL + code + ".md".
const BaseURL = "https://github.com/cudaforklint/cudaforklint/blob/main/docs/rules/"

// URL is the rule's documentation page.
func (d *Doc) URL() string { return BaseURL + d.Code + ".md" }
