// Command cudaforklint finds CUDA + fork hazards in Python multiprocessing
// programs before they run (check), and confirms them when they do (verify).
//
//	cudaforklint check [flags] [PATH ...]
//	cudaforklint verify [flags] -- python script.py [ARGS ...]
//	cudaforklint rule CODE | --all
//
// See the README for the rules and docs/ for integrations.
package main

import (
	"os"

	"github.com/cudaforklint/cudaforklint/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
