package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL100 documents unused-noqa. It has no analyzer: whether a suppression
// comment suppressed anything is known only after every rule ran, so the
// driver reports it (analyzer/suppress.go), as ruff does RUF100 and
// staticcheck its unmatched //lint:ignore directives.
var CFL100 = &Doc{
	Code:           "CFL100",
	Name:           "unused-noqa",
	Summary:        "A `# noqa` or `# cudaforklint: noqa` directive suppresses nothing",
	Severity:       finding.Warning,
	DefaultEnabled: false,
	Precision:      "very-high",
	Tags:           []string{"maintainability"},
	FixAvailable:   "always",
	WhatItDoes: `Checks for suppression comments naming cudaforklint codes (` + "`CFLnnn`" + `) that suppress no finding:
a line ` + "`# noqa: CFL001`" + ` on a line without a CFL001 finding, or a file-level
` + "`# cudaforklint: noqa: CFL002`" + ` in a file without CFL002 findings. Codes of other tools in the
same comment (` + "`# noqa: E501, CFL001`" + `) are left alone, and so are blanket ` + "`# noqa`" + ` comments,
which usually belong to other linters. Not selected by default, as ruff's RUF100.`,
	WhyIsThisBad: `A stale suppression hides the next real finding on that line: once the code changes,
a hazard that appears there is silenced without anyone having looked at it.`,
	Example:    `import torch  # noqa: CFL001`,
	UseInstead: `import torch`,
	FixSafety: `The fix removes the unused codes (or the whole directive, keeping any comment text after
it); it is safe.`,
	Versions:   `Every version.`,
	References: []string{"https://docs.astral.sh/ruff/rules/unused-noqa/"},
}
