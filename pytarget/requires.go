package pytarget

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseRequiresPython evaluates a PEP 440 version specifier such as
// ">=3.11", ">=3.10,<3.14", "~=3.12" or "==3.13.*" (as found in
// [project] requires-python) and returns the supported versions it allows, on
// every platform. A bucket is kept when any release in it satisfies every
// clause, so ">=3.13.8" keeps Py313Late and drops Py313Early. The result may
// include 3.10, which the default range leaves out: a project that supports
// it is checked for it.
func ParseRequiresPython(spec string) (Set, error) {
	var clauses []clause
	for _, raw := range strings.Split(spec, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		c, err := parseClause(raw)
		if err != nil {
			return 0, fmt.Errorf("requires-python %q: %w", spec, err)
		}
		clauses = append(clauses, c)
	}
	var out Set
	for v := Version(0); v < numVersions; v++ {
		for _, rel := range releasesOf(v) {
			if satisfiesAll(rel, clauses) {
				out |= Versions(v, v)
				break
			}
		}
	}
	return out, nil
}

type release [3]int

// releasesOf lists sample releases of a bucket; 40 patch releases is more than
// any minor has had.
func releasesOf(v Version) []release {
	b := buckets[v]
	hi := b.last
	if b.endsMinor() {
		hi = 40
	}
	var out []release
	for p := b.first; p <= hi; p++ {
		out = append(out, release{3, b.minor, p})
	}
	return out
}

type clause struct {
	op       string
	ver      []int
	wildcard bool
}

func parseClause(s string) (clause, error) {
	ops := []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"}
	for _, op := range ops {
		if strings.HasPrefix(s, op) {
			rest := strings.TrimSpace(s[len(op):])
			c := clause{op: op}
			if strings.HasSuffix(rest, ".*") {
				if op != "==" && op != "!=" {
					return c, fmt.Errorf("wildcard only allowed with == and !=: %q", s)
				}
				c.wildcard = true
				rest = strings.TrimSuffix(rest, ".*")
			}
			for _, f := range strings.Split(rest, ".") {
				n, err := strconv.Atoi(f)
				if err != nil {
					return c, fmt.Errorf("bad version %q", rest)
				}
				c.ver = append(c.ver, n)
			}
			if op == "~=" && len(c.ver) < 2 {
				return c, fmt.Errorf("~= needs at least two version parts: %q", s)
			}
			return c, nil
		}
	}
	return clause{}, fmt.Errorf("bad specifier %q", s)
}

func cmpRelease(r release, v []int) int {
	for i := 0; i < 3; i++ {
		var x int
		if i < len(v) {
			x = v[i]
		}
		if r[i] != x {
			if r[i] < x {
				return -1
			}
			return 1
		}
	}
	return 0
}

func prefixMatch(r release, v []int) bool {
	for i := 0; i < len(v) && i < 3; i++ {
		if r[i] != v[i] {
			return false
		}
	}
	return true
}

func satisfiesAll(r release, cs []clause) bool {
	for _, c := range cs {
		if !satisfies(r, c) {
			return false
		}
	}
	return true
}

func satisfies(r release, c clause) bool {
	switch c.op {
	case "==", "===":
		if c.wildcard {
			return prefixMatch(r, c.ver)
		}
		return cmpRelease(r, c.ver) == 0
	case "!=":
		if c.wildcard {
			return !prefixMatch(r, c.ver)
		}
		return cmpRelease(r, c.ver) != 0
	case "<=":
		return cmpRelease(r, c.ver) <= 0
	case ">=":
		return cmpRelease(r, c.ver) >= 0
	case "<":
		return cmpRelease(r, c.ver) < 0
	case ">":
		return cmpRelease(r, c.ver) > 0
	case "~=":
		// ~=3.11 means >=3.11, ==3.*; ~=3.11.2 means >=3.11.2, ==3.11.*
		return cmpRelease(r, c.ver) >= 0 && prefixMatch(r, c.ver[:len(c.ver)-1])
	}
	return false
}
