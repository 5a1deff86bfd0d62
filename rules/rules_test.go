package rules_test

import (
	"os"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer/checktest"
)

// TestFixtures checks every fixture directory under testdata/py against its
// `# want` expectations. The directories are discovered, so a new one
// cannot go untested.
func TestFixtures(t *testing.T) {
	entries, err := os.ReadDir("../testdata/py")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			checktest.Run(t, "../testdata/py/"+e.Name())
		})
	}
	if n == 0 {
		t.Fatal("no fixture directories under testdata/py")
	}
}
