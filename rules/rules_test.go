package rules_test

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer/checktest"
)

// TestFixtures checks every fixture directory under testdata/py against its
// `# want` expectations.
func TestFixtures(t *testing.T) {
	for _, dir := range []string{"seed", "cfl001", "cfl001_local_modules", "cfl001_package", "safe_dunder_main", "cfl002", "cfl002_preload", "cfl002_helper_import", "safe_helper_in_guard", "catalog", "cfl003", "cfl004", "cfl005", "safe"} {
		t.Run(dir, func(t *testing.T) {
			checktest.Run(t, "../testdata/py/"+dir)
		})
	}
}
