// Package verify is cudaforklint's runtime verifier: `cudaforklint verify -- python script.py`
// runs the program under a native fork-tracking CUDA wrapper and reports, with evidence, what
// really happened: which process initialized CUDA and from which Python line, which processes
// were forked from it, and what their CUDA calls returned or how they ended. It then confirms or
// refutes the static findings for the same scripts. It runs on Linux only (run_unix.go): the
// wrapper is a shared library the dynamic loader preloads, and the process tree is read from
// /proc. Elsewhere the package builds, so that the rest of the tool ships for Windows, and Run
// returns ErrNeedsLinux (run_other.go).
//
// # The wrapper
//
// shim/cudaforkshim.c, embedded in the binary as C source. Where it comes from at run time, in
// EnsureShim's order: --shim PATH, a prebuilt ELF the user names; in release binaries (built by
// scripts/release with -tags prebuiltshim, shim_prebuilt.go), the wrapper compiled at release
// time for the binary's platform, carried in the binary and written to the user cache directory,
// used only when it was built from this binary's source (its ShimKey matches); otherwise, in a
// plain `go build` or `go install`, it is built once with the C compiler into the user cache
// directory (keyed by the source's hash and flags, ShimKey). It is preloaded (LD_PRELOAD, appended to any value already set) into the program and inherited by
// every process it starts. It interposes dlsym and what cuGetProcAddress hands out (to wrap
// cuInit and the entry points that mark real CUDA use), waitpid/wait/wait4/waitid and _exit, with an
// on_exit handler for exit (exit statuses), the exec family (so that an image that never loads it is seen to be missing) and
// kill/killpg (so that a child its parent terminated on purpose is not taken for a crash),
// dlopen of the driver library (so that a machine without a driver is told from a run that took
// no CUDA path), and
// registers fork handlers that ask the driver, without initializing it, whether the forking
// process has run cuInit. The file's header comment says exactly what and why. It starts no
// thread, writes nothing to the program's descriptors and leaves none open. --shim must name an
// ELF shared library for this machine; anything else is refused before the program runs.
//
// # Event format
//
// The wrapper appends JSON lines to the file named by CUDAFORKLINT_LOG (a temporary file Run
// creates and removes). Each record is written with one write() on an O_APPEND descriptor opened
// and closed around it, and is shorter than PIPE_BUF, so records of concurrent processes never
// interleave. Every record has "ev", "pid" and "t" (CLOCK_REALTIME, ns). Stacks are lists of
// [file, line, function], innermost first, with site-packages frames other than the innermost left
// out ("skipped" counts them); "py" says how the stack was read (gil: the thread held the GIL;
// ensure: it took the GIL back; nogil: it had released the GIL in a fork handler, where the
// wrapper never takes it; nothread: not a Python thread; none: no interpreter).
//
//	{"ev":"start","pid":P,"ppid":Q,"t":T,"st":ST,"cwd":D,"argv":[...]}   a program image begins
//	    ST is the process's start time in clock ticks since boot (/proc/PID/stat field 22), also
//	    in fork and exec records: with the pid it names a process for good (pids are reused)
//	{"ev":"fork","pid":C,"ppid":P,"t":T,"st":ST,"cuda":S,"rc":R,"tainted":0|1,"py":..,"stack":[...]}
//	    written by the child C; S is P's driver state at the fork: -1 no libcuda loaded,
//	    0 not initialized, 1 initialized (R is what cuDeviceGetCount returned); the stack is the
//	    fork call site in P
//	{"ev":"enter","pid":P,"t":T,"fn":F,"n":N,"py":..,"stack":[...]}
//	    a call about to reach the driver, written only in processes forked from an initialized
//	    one, so that a child hanging inside the driver is seen
//	{"ev":"call","pid":P,"t":T,"fn":F,"n":N,"rc":R,...}   a wrapped call returned R
//	{"ev":"wait","pid":P,"t":T,"child":C,"status":W}      P reaped C with raw wait status W
//	{"ev":"exit","pid":P,"t":T,"code":X}                  P called _exit(X) or exit(X)
//	{"ev":"exec","pid":P,"ppid":Q,"t":T,"st":ST,"keeps":K,"path":F,"argv":[...]}
//	    P is about to exec F; K is 1 when the environment handed over still preloads the wrapper
//	    and names the log (a vfork child writes this before any other record of its own)
//	{"ev":"execfail","pid":P,"t":T,"errno":E}             that exec returned: it failed
//	{"ev":"kill","pid":P,"t":T,"target":X,"sig":N}        P sent signal N to X (negative: a group)
//	{"ev":"dlopen","pid":P,"t":T,"path":F,"ok":0|1}      P tried to load the driver library F (while
//	    none was loaded in it; up to 4 attempts a process), and the load succeeded or failed
//
// # The process tree
//
// BuildTree reads the records in log order. A fork record creates a process whose first image
// is its parent's (inherited); a start record for a pid that is alive is an exec (a new image of
// the same process: env, then bash, then python), and for an unknown pid it is a process started
// without a recorded fork (the root; vfork or posix_spawn followed by exec), whose parent is its
// ppid. A later fork or start for a pid whose process ended is a new process (pid reuse). Calls
// belong to the image current when they were written. A process forked while its parent's driver
// was initialized, or forked from such a process before either exec'd, has an Initializer: the
// process whose CUDA state it inherited. How each process ended comes from its parent's wait, its
// own _exit or exit, Go's wait for the root, or /proc when the run ended it (timeout, interrupt, or left
// running by the root: Run ends the whole process group so nothing outlives it, and then the
// processes of the log that left the group with setsid: a live process with a recorded pid and
// the same start time, reported in Report.Escaped).
//
// What the wrapper did not see is part of the tree too (Report.BlindSpots): an exec record with
// no start record after it (Process.Lost: the new environment dropped the wrapper, or the program
// is statically linked or setuid; an exec of the system's ldconfig, which ctypes.util.find_library
// runs with an environment of LC_ALL and LANG alone, is no blind spot: it runs none of the
// program's code and loads no CUDA); a wait record for a pid with no record at all (Process.Unseen:
// posix_spawn or clone of a program without it); and a root with no record (a stand-in Unseen
// root: the command never loaded the wrapper, e.g. a static interpreter or a --shim that is not
// the wrapper; the dynamic loader's complaint, when the program printed one, says why); and a process whose end
// nothing recorded (reaped by no process of the program and with no exit record: it died of a
// signal after its parent had gone, or while its parent never waited).
//
// # Findings
//
// classify makes one finding per initializing process, judged on its forked children (children
// that exec'd at once, the subprocess pattern, do not count):
//   - CFL002 forkserver-inherits-cuda (error) when the initializing process is multiprocessing's
//     forkserver (its command line runs `from multiprocessing.forkserver import main`);
//   - CFL001 fork-after-cuda-init (error) when a child called the driver (what the call returned,
//     or that it hung inside it), or a child failed without a visible driver call while the
//     program printed CUDA errors (torch refuses in Python before reaching the driver), or the
//     program printed a fork guard's message;
//   - CFL003 benign-fork-after-cuda-init (warning) otherwise: no child touched CUDA.
//
// The location is the innermost frame outside site-packages and the standard library behind the
// initializing process's cuInit; Related holds the fork site and the children's failing calls;
// Evidence says what each process did. match (static.go) then sets Status on the static findings
// ("confirmed", "not observed", and "refuted" for a static CFL003, which says no child touches
// CUDA, beside a runtime CFL001 whose child did) and adds runtime findings nothing matched
// ("runtime only"). judgeReimports gives static CFL004 and CFL005 findings their status from the
// children that import the main module again (spawn, forkserver before 3.13.8) — the finding's
// own file, or the main module its Related chain starts from when the finding is in a module the
// main module imports at its top level: CFL004 is confirmed by such a child's cuInit from the top
// level of the finding's file, CFL005 by such a
// child that failed while the program printed multiprocessing's "bootstrapping phase" error.
//
// # Children that fail
//
// Report.FailedChildren are the processes other than the root that run the program's own code
// (forks of a Python process that did not exec; multiprocessing's spawn and forkserver children,
// loky's workers) and exited non-zero or died of a signal that no other process of the program
// sent them (a kill record: Pool.terminate, Popen.kill; a process that signals itself, or its own
// group, failed), unless they ended after the run began ending
// the program (a timeout, a signal it forwarded: Tree.EndedAt). Other
// programs the program runs report their status to it, which it may expect to be non-zero. The
// traceback verdicts the program printed (Report.OutputExceptions) say why, most likely.
//
// # What the run did not see to the end
//
// Report.CUDAUnobserved says why CUDA could not be observed at all (cudaUnobserved): no process's
// cuInit succeeded and no fork found the driver initialized, because cuInit failed in a process
// that did not inherit CUDA by fork (CUDA_ERROR_NO_DEVICE on a machine without a GPU, the
// toolkit's stub library), or because every attempt of the program to load libcuda failed (dlopen
// records: no driver installed). A program that never asked for the driver is not such a run.
//
// Report.Unfinished are the processes the run ended before they finished (Process.End is
// EndRunning): at a timeout or an interrupt, or still running after the root exited (a grandchild
// that outlived its parent, a setsid daemon: Report.Escaped). Each says what it was doing, from
// the wrapper's records and /proc (the CUDA call it was inside, else its state and the kernel
// function it waited in, and whether it had made a CUDA call yet).
//
// # Exit codes
//
// Report.ExitCode, in this order: 1 a hazard (CFL001, CFL002 or CFL005) was proven; 2 not
// verified: CUDA could not be observed (CUDAUnobserved), the wrapper did not see part of the run
// (BlindSpots), or the run ended a process the root left running (Unfinished): a success it did
// not see is no success; 3 the program failed: its root exited non-zero or was killed, a child
// running its code failed, or it timed out or was interrupted (the verdict names the processes
// still running then); 0 otherwise. Errors returned by Run (no compiler and no --shim, a --shim
// that is not a shared library, a command that cannot start) are the CLI's 2 too.
// Report.Verdict says the same in words, CUDAUnobserved's reason first.
//
// # What the program sees
//
// Its stdin and a terminal stdout are passed through as they are; stderr, and stdout when it is
// not a terminal, go through a pipe that verify copies to the same destination (so Python's
// buffering is unchanged, and CUDA error lines can be read). It runs in its own process group;
// when stdin is verify's foreground terminal the group gets the terminal for the run. Run forwards
// SIGINT, SIGTERM, SIGHUP and SIGQUIT to the group, and kills the group (SIGKILL) after a grace
// period, at a second signal, on --timeout and on context cancellation. It catches SIGPIPE while
// it runs: when the reader of verify's output goes away (`| head -1`), the copy stops and the
// program meets a closed pipe as it would without verify, while verify itself carries on,
// removes its log and reports. The report never goes to the program's stdout (the CLI writes it
// to stderr or the -o file).
package verify
