package ruledoc

// All returns the documentation of every rule, in code order. The rules
// with an analyzer are in package rules (rules/cflNNN_name.go); CFL100 is
// reported by the driver.
func All() []*Doc {
	return []*Doc{CFL001, CFL002, CFL003, CFL004, CFL005, CFL100}
}

// ByCode returns the documentation of the rule with the given code.
func ByCode(code string) (*Doc, bool) {
	for _, d := range All() {
		if d.Code == code {
			return d, true
		}
	}
	return nil, false
}
