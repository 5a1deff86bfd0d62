//go:build prebuiltshim && linux

package verify

import (
	_ "embed"
	"strings"
)

// The wrapper built by scripts/release for the target platform, and the ShimKey it was built
// for. scripts/release writes both files before it builds with -tags prebuiltshim; they are not
// in the repository (.gitignore), so this file is left out of every other build.
var (
	//go:embed prebuilt/cudaforkshim.so
	prebuiltSO []byte
	//go:embed prebuilt/cudaforkshim.key
	prebuiltKey string
)

func init() {
	prebuilt = &prebuiltWrapper{key: strings.TrimSpace(prebuiltKey), so: prebuiltSO}
}
