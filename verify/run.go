package verify

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cudaforklint/cudaforklint/finding"
)

// LogEnv is the environment variable that names the event log for the wrapper.
const LogEnv = "CUDAFORKLINT_LOG"

// ErrNeedsLinux is Run's error on other systems: the wrapper is a Linux shared library that the
// dynamic loader preloads, and the process tree is read from Linux's /proc.
var ErrNeedsLinux = errors.New("verify needs Linux (the wrapper is an LD_PRELOAD library)")

// Options configure one verification run.
type Options struct {
	// Command is the program and its arguments: python3 script.py args..., or anything that ends
	// up running Python (bash -c '...', env python3 ..., a pyenv shim).
	Command []string
	// Shim is a prebuilt wrapper (--shim PATH). Empty: the embedded source is built once into
	// CacheDir with the C compiler (see EnsureShim).
	Shim     string
	CacheDir string
	// Timeout ends the whole process group with SIGKILL when it runs longer; 0 means no limit.
	Timeout time.Duration
	// Stdin, Stdout and Stderr are the program's. An *os.File that is a terminal is passed
	// through as it is; anything else goes through a pipe that verify copies (and reads: CUDA
	// error lines of the output are evidence). Stderr is always copied so, even from a terminal.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Env is the program's environment; nil means os.Environ(). Run appends the wrapper to
	// LD_PRELOAD and sets CUDAFORKLINT_LOG.
	Env []string
	// Dir is the program's working directory; empty means the current one.
	Dir string
	// Static runs the static analysis on the program's scripts; nil skips the comparison.
	Static func(paths []string) ([]finding.Finding, error)
	// Signals, when not nil, delivers the signals to forward (the caller did signal.Notify). When
	// nil, Run itself listens for SIGINT, SIGTERM, SIGHUP and SIGQUIT while the program runs.
	Signals <-chan os.Signal
	// Grace is how long the program gets after a forwarded signal before the group is killed;
	// 0 means 3 seconds. A second signal kills it at once.
	Grace time.Duration
}

func resolveShim(ctx context.Context, opts Options) (string, error) {
	shim := opts.Shim
	if shim == "" {
		var err error
		if shim, err = EnsureShim(ctx, opts.CacheDir); err != nil {
			return "", err
		}
	} else {
		abs, err := filepath.Abs(shim)
		if err != nil {
			return "", fmt.Errorf("verify: --shim %s: %w", shim, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return "", fmt.Errorf("verify: --shim: %w", err)
		}
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("verify: --shim %s is not a file", shim)
		}
		if err := checkSharedObject(abs); err != nil {
			return "", fmt.Errorf("verify: --shim %s: %v: the dynamic loader would ignore it, and the run would go unseen", shim, err)
		}
		shim = abs
	}
	if strings.ContainsAny(shim, " \t\n:") {
		return "", fmt.Errorf("verify: the wrapper's path %q holds a space or a colon, which LD_PRELOAD cannot carry; pass --shim with another path", shim)
	}
	return shim, nil
}

// checkSharedObject returns an error unless path is an ELF shared object for this machine: what
// LD_PRELOAD can load. (That it is cudaforklint's wrapper shows in the run: every process it
// loads into writes a start record.)
func checkSharedObject(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return fmt.Errorf("not an ELF shared library (%v)", err)
	}
	defer f.Close()
	if f.Type != elf.ET_DYN {
		return fmt.Errorf("an ELF %s, not a shared library", strings.TrimPrefix(f.Type.String(), "ET_"))
	}
	if want, ok := elfMachines[runtime.GOARCH]; ok && f.Machine != want {
		return fmt.Errorf("a shared library for %s, not for this machine (%s)", strings.TrimPrefix(f.Machine.String(), "EM_"), runtime.GOARCH)
	}
	return nil
}

var elfMachines = map[string]elf.Machine{
	"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64, "386": elf.EM_386, "arm": elf.EM_ARM,
	"ppc64le": elf.EM_PPC64, "s390x": elf.EM_S390, "riscv64": elf.EM_RISCV,
}

// withWrapper returns env with the wrapper appended to LD_PRELOAD (after any objects already
// there, which keep their order) and CUDAFORKLINT_LOG set.
func withWrapper(env []string, shim, logPath string) []string {
	var out []string
	preload := ""
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "LD_PRELOAD="):
			preload = strings.TrimPrefix(kv, "LD_PRELOAD=")
		case strings.HasPrefix(kv, LogEnv+"="):
		default:
			out = append(out, kv)
		}
	}
	if strings.TrimSpace(preload) != "" {
		preload += ":" + shim
	} else {
		preload = shim
	}
	return append(out, "LD_PRELOAD="+preload, LogEnv+"="+logPath)
}

func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{
		syscall.SIGABRT: "SIGABRT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM",
		syscall.SIGINT: "SIGINT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGILL: "SIGILL",
		syscall.SIGHUP: "SIGHUP", syscall.SIGQUIT: "SIGQUIT", syscall.SIGPIPE: "SIGPIPE", syscall.SIGTRAP: "SIGTRAP",
	}
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

// The program's output: lines that look like CUDA errors are evidence.
var (
	cudaWordRe  = regexp.MustCompile(`(?i)cuda|cuinit|curesult`)
	errorWordRe = regexp.MustCompile(`(?i)error|fail|cannot|abort|fatal`)
	// forkSignatureRe matches messages that only a process using CUDA state it inherited by fork
	// prints (torch's and numba's fork guards, the driver's and the runtime's error names).
	forkSignatureRe = regexp.MustCompile(`Cannot re-initialize CUDA in forked subprocess|CUDA initialized before forking|CUDA_ERROR_NOT_INITIALIZED|cudaErrorInitializationError`)
	// jaxForkWarningRe matches JAX's warning at os.fork() once its runtime (and its threads)
	// started: the forked child of such a process typically deadlocks before any driver call
	// (measured on the H200: the fork-matrix jax rows hang).
	jaxForkWarningRe = regexp.MustCompile(`os\.fork\(\) was called\. os\.fork\(\) is incompatible with multithreaded code, and JAX is multithreaded`)
	// loaderWorkerRaisedRe matches the parent's re-raise of a DataLoader worker's exception:
	// torch's fork guard raises RuntimeError in the worker before any driver call, and the worker
	// itself exits 0 after handing the exception to the parent.
	loaderWorkerRaisedRe = regexp.MustCompile(`Caught RuntimeError in DataLoader worker process \d+`)
)

// Lines of the output that say what went wrong outside CUDA.
var (
	// exceptionRe matches the verdict line of a Python traceback ("RuntimeError: context has
	// already been set"): which child failed, and why, is told by these.
	exceptionRe = regexp.MustCompile(`^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)(: |$)`)
	// preloadErrorRe matches the dynamic loader's refusal to preload the wrapper.
	preloadErrorRe = regexp.MustCompile(`ld\.so: object .* from LD_PRELOAD cannot be preloaded`)
	// bootstrapRe matches multiprocessing's error for a process started while a spawn or
	// forkserver child was still importing the main module (CFL005). The message is indented,
	// on the lines after "RuntimeError: ".
	bootstrapRe = regexp.MustCompile(`current process has finished its bootstrapping phase`)
)

const maxOutputLines = 50

// outputLines keeps the lines of the program's output that are evidence.
type outputLines struct {
	mu         sync.Mutex
	cuda       []string // CUDA errors and the fork warnings classify reads
	exceptions []string // traceback verdicts
	preload    []string // the loader's preload errors
	bootstrap  bool     // multiprocessing's bootstrapping-phase error was printed
	seen       map[string]bool
}

// add files a line. CUDA errors are lines that name CUDA and an error; indented lines are left
// out: they are the source lines and frames a traceback echoes, while its verdict (torch's
// RuntimeError, cupy's CUDARuntimeError, an AssertionError of cuda.bindings) and XLA's check
// failures start the line.
func (o *outputLines) add(line string) {
	line = strings.TrimRight(line, "\r")
	if line == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if bootstrapRe.MatchString(line) {
		o.bootstrap = true
	}
	var list *[]string
	special := jaxForkWarningRe.MatchString(line) || loaderWorkerRaisedRe.MatchString(line)
	indented := line[0] == ' ' || line[0] == '\t'
	switch {
	case special || !indented && cudaWordRe.MatchString(line) && errorWordRe.MatchString(line):
		list = &o.cuda
	case preloadErrorRe.MatchString(line):
		list = &o.preload
	case exceptionRe.MatchString(line):
		list = &o.exceptions
	default:
		return
	}
	if len(line) > 400 {
		line = line[:400] + "…"
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	if o.seen[line] || len(*list) >= maxOutputLines {
		return
	}
	o.seen[line] = true
	*list = append(*list, line)
}

// snapshot returns the CUDA error lines.
func (o *outputLines) snapshot() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.cuda...)
}

// others returns the traceback verdicts, the loader's errors, and whether the bootstrapping
// error was printed.
func (o *outputLines) others() (exceptions, preload []string, bootstrap bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.exceptions...), append([]string(nil), o.preload...), o.bootstrap
}

// lineTee passes the program's output through and hands its lines to out.
type lineTee struct {
	dst     io.Writer
	out     *outputLines
	partial []byte
}

func (t *lineTee) Write(b []byte) (int, error) {
	n, err := t.dst.Write(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(t.partial) < 4096 {
				t.partial = append(t.partial, b...)
			}
			break
		}
		t.out.add(string(append(t.partial, b[:i]...)))
		t.partial, b = t.partial[:0], b[i+1:]
	}
	return n, err
}
