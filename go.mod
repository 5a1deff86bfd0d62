module github.com/cudaforklint/cudaforklint

go 1.24.0

require (
	github.com/KimMachineGun/automemlimit v1.0.2
	github.com/creack/pty v1.1.24
	github.com/fatih/color v1.18.0
	github.com/mattn/go-isatty v0.0.22
	github.com/pelletier/go-toml/v2 v2.2.4
	github.com/schollz/progressbar/v3 v3.19.0
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
	github.com/sourcegraph/jsonrpc2 v0.2.3
	golang.org/x/tools v0.42.0
)

require (
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pbnjay/memory v0.0.0-20210728143218-7b4eea64cf58 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/term v0.40.0 // indirect
)
