/*
 * cudaforkshim.c: the fork-tracking CUDA wrapper of `cudaforklint verify`.
 *
 * `verify` preloads this shared object into the program it runs (LD_PRELOAD, appended to any value
 * already set) and names an event log in CUDAFORKLINT_LOG (an absolute path). Without that variable
 * the object registers nothing and every interposed function below forwards straight to the real
 * one. The object is inherited across exec (env, bash, pyenv's shell shims, then python), so every
 * process of the program's tree writes to the same log.
 *
 * What it interposes, and why:
 *
 *   pthread_atfork handlers (registered by the constructor)
 *       prepare: asks the driver, without initializing it, whether this process has run cuInit:
 *       finds an already loaded libcuda.so* (dl_iterate_phdr + dlopen RTLD_NOLOAD) and calls its
 *       cuDeviceGetCount, which returns CUDA_ERROR_NOT_INITIALIZED (3) until some code ran cuInit.
 *       Measured right for every fork of torch, cupy, jax, numba, cuda.core and cuda.bindings,
 *       whoever initialized CUDA. It also reads the Python stack of the forking thread when that
 *       thread holds the GIL (os.fork does), for the fork call site.
 *       child: only async-signal-safe work: formats the fork record prepared by the parent with
 *       the child's pid, writes it, resets per-process counters.
 *   dlsym
 *       ctypes, numba and XLA reach the driver through dlopen + dlsym. Lookups through an explicit
 *       handle of the names in the slot table below get this file's wrapper instead of the real
 *       function. Lookups through RTLD_NEXT and RTLD_DEFAULT, whose result depends on the calling
 *       object, are forwarded untouched by a tail call, so the real dlsym sees the caller's return
 *       address (other LD_PRELOAD objects and libraries that use RTLD_NEXT keep working).
 *       The real dlsym is dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34"), falling back to older versions.
 *   dlopen
 *       Records whether the program could load the driver library (libcuda.so*, by name or path)
 *       while none is loaded in the process, up to 4 attempts per process: a run in which every
 *       attempt failed could observe no CUDA at all (no driver on the machine), and `verify` says
 *       so instead of "not observed". Every other call, RTLD_NOLOAD ones and any once libcuda is
 *       loaded, is forwarded untouched by a tail call, since where the loader searches depends on
 *       the caller's RUNPATH; the driver's own name is looked up in the system's paths
 *       (LD_LIBRARY_PATH, the loader's cache), which do not. dlerror's state is left for the
 *       caller (ctypes builds its OSError from it).
 *   cuGetProcAddress, cuGetProcAddress_v2 (as handed out by dlsym or by themselves)
 *       The CUDA runtime (torch, cupy, jax) and cuda.bindings resolve every driver entry point
 *       through these. What they hand out for a tracked name is wrapped too. A pointer is wrapped
 *       only when its ABI is known: it equals the driver's exported symbol of that exact name
 *       (cuMemAlloc_v2, cuLaunchKernel_ptsz, ...), or every variant of the name shares one ABI.
 *   cuInit and the entry points that mark real CUDA use (context, allocation, copy, launch,
 *   stream; see SLOTS)
 *       Each records its result. cuInit records the Python stack behind it. In a process forked
 *       from one whose CUDA was initialized (a "tainted" child), the first calls also write an
 *       "enter" record before calling the driver, so a child that hangs inside the driver is seen.
 *       Entry points resolved before the fork are reused by the child (the CUDA runtime does so),
 *       which is why the wrappers are handed out in the parent.
 *   waitpid, wait, wait4, waitid
 *       Record the exit status of every child the program reaps (a forkserver reaps its own).
 *   _exit, and exit through an on_exit handler
 *       Record the code a process passes to _exit (os._exit in multiprocessing children) or to
 *       exit (a Python program's normal end, which reaches _exit inside libc, unwrapped): a child
 *       whose parent has gone is reaped by no process of the program, and this record is then
 *       the only sight of its end.
 *   execve, execv, execvp, execvpe, fexecve
 *       Record the program about to replace this image, and whether the environment handed to it
 *       still loads this object: a new image that never writes its own start record (the
 *       environment dropped LD_PRELOAD, or the program is statically linked or setuid) is a part
 *       of the run `verify` did not see, and it says so instead of reporting success.
 *   kill, killpg
 *       Record the signals the program sends, so that a child its parent terminated on purpose
 *       (Pool.terminate, Popen.kill) is not mistaken for one that crashed.
 *
 * The Python stack is read through the CPython C API found with dlsym(RTLD_DEFAULT, ...). The GIL:
 * when the calling thread holds it (its own thread state is the current one), the stack is read
 * directly. When the thread has a Python thread state but released the GIL (ctypes and Cython
 * `nogil` calls, where most cuInit calls come from), PyGILState_Ensure takes it back for the walk;
 * that can only deadlock if another thread holds the GIL while it waits for this one to return
 * from the driver, which would already deadlock any Python callback of that thread. A thread with
 * no Python thread state (XLA's worker threads) is never given one: its record says "nothread".
 * The fork prepare handler never takes the GIL. Garbage collection is disabled during the walk
 * (walking materializes frame objects) and any pending exception is saved and restored.
 *
 * Event log: one JSON object per line, each written with open(O_APPEND|O_CLOEXEC) + one write() +
 * close, so no descriptor stays open and records of concurrent processes never interleave (each
 * record is shorter than PIPE_BUF). Fields (t is CLOCK_REALTIME in ns; stack frames are
 * [file, line, function], innermost first; site-packages frames other than the innermost are left
 * out and counted in "skipped"; "trunc":1 when frames were dropped to keep the record short; "py"
 * says how the stack was read: gil, ensure, nogil, nothread or none):
 *   {"ev":"start","pid":P,"ppid":Q,"t":T,"st":S,"cwd":"...","argv":["..."]}    a new program image
 *        st is the process's start time in clock ticks since boot (/proc/self/stat field 22): with
 *        the pid it tells a live process of the log from a later one that reused the pid
 *   {"ev":"fork","pid":C,"t":T,"st":S,"ppid":P,"cuda":S,"rc":R,"tainted":0|1,"py":..,"stack":[..]}
 *        written by the child C; S is -1 (no libcuda loaded), 0 (not initialized) or 1
 *        (initialized) in P at the fork, R what cuDeviceGetCount returned; tainted: P itself was
 *        forked from an initialized process
 *   {"ev":"enter","pid":P,"t":T,"fn":"cuX","n":N,"py":..,"stack":[..]}       (tainted processes)
 *   {"ev":"call","pid":P,"t":T,"fn":"cuX","n":N,"rc":R[,"py":..,"stack":[..]]}
 *        n is the call's ordinal per function in this process: the first calls are recorded
 *        (cuInit: 4, others: 1, in tainted processes 2), then up to 4 failures per function; the
 *        stack comes with cuInit and failures, unless an "enter" record of the call carried it
 *   {"ev":"wait","pid":P,"t":T,"child":C,"status":W}           W is the raw wait status
 *   {"ev":"exit","pid":P,"t":T,"code":X}                       the process called _exit(X) or exit(X)
 *   {"ev":"exec","pid":P,"t":T,"ppid":Q,"st":S,"keeps":0|1,"path":"...","argv":[..]}
 *        P is about to exec path; keeps: the new environment still preloads this object and names
 *        the same log (a vfork child writes this with its own pid, before any other record)
 *   {"ev":"execfail","pid":P,"t":T,"errno":E}                  that exec call returned: it failed
 *   {"ev":"kill","pid":P,"t":T,"target":X,"sig":N}             P sent signal N to X (kill's pid
 *        argument: negative for a process group, as killpg records it)
 *   {"ev":"dlopen","pid":P,"t":T,"path":"...","ok":0|1}        P tried to load the driver library
 *        by that name, and the load succeeded (1) or failed (0)
 *
 * The program must not notice: no threads, nothing written to its stdout or stderr, no descriptor
 * left open, errno preserved, dlerror state of failed internal lookups cleared, and only
 * async-signal-safe calls in the child fork handler and in the wait, _exit, exec and kill wrappers
 * (which may run inside signal handlers: bash reaps children in its SIGCHLD handler; or in a vfork
 * child, which shares its parent's memory).
 *
 * Build: cc -O2 -fPIC -shared -fvisibility=hidden -o cudaforkshim.so cudaforkshim.c -ldl -lpthread
 * (glibc only; C99 plus GNU attributes).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr; /* the 64-bit (_v2) device pointer */

enum { REC_MAX = 4000 /* < PIPE_BUF: one write() per record is atomic */, REC_RESERVE = 24 };
enum { MAX_FRAMES = 512, FIRST_INITS = 4, MAX_FAILS = 4 };

static int g_on;          /* 1 when CUDAFORKLINT_LOG named a log: set once by the constructor */
static char g_log[1024];  /* the log's path */
static int g_tainted;     /* this process was forked from one whose CUDA was initialized */

/* ------------------------------------------------------------------------------------------ */
/* Records: a JSON object built in a caller-supplied buffer, with no allocation.              */

struct rec {
	char *b;
	size_t n, cap;
	int trunc; /* something was left out to stay under cap */
};

static int r_room(const struct rec *r, size_t len) { return r->n + len + REC_RESERVE <= r->cap; }

static void r_raw(struct rec *r, const char *s, size_t len)
{
	if (r->n + len > r->cap) {
		r->trunc = 1;
		return;
	}
	memcpy(r->b + r->n, s, len);
	r->n += len;
}

static void r_lit(struct rec *r, const char *s) { r_raw(r, s, strlen(s)); }

static void r_int(struct rec *r, long long v)
{
	char t[24];
	int i = sizeof t;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do {
		t[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		t[--i] = '-';
	r_raw(r, t + i, sizeof t - (size_t)i);
}

/* json_len is the length of s (at most max bytes of it) as a JSON string, quotes included. */
static size_t json_len(const char *s, size_t max)
{
	size_t n = 2;
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		n += (c == '"' || c == '\\') ? 2 : c < 0x20 ? 6 : 1;
	}
	return n;
}

/* r_str appends at most max bytes of s as a JSON string (bytes >= 0x80 are copied as they are). */
static void r_str(struct rec *r, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	if (!r_room(r, json_len(s, max))) {
		r->trunc = 1;
		r_raw(r, "\"\"", 2);
		return;
	}
	r->b[r->n++] = '"';
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			r->b[r->n++] = '\\';
			r->b[r->n++] = (char)c;
		} else if (c < 0x20) {
			memcpy(r->b + r->n, "\\u00", 4);
			r->b[r->n + 4] = hex[c >> 4];
			r->b[r->n + 5] = hex[c & 15];
			r->n += 6;
		} else {
			r->b[r->n++] = (char)c;
		}
	}
	r->b[r->n++] = '"';
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* r_head starts a record: {"ev":"EV","pid":PID,"t":NOW */
static void r_head(struct rec *r, char *buf, size_t cap, const char *ev, pid_t pid)
{
	r->b = buf;
	r->n = 0;
	r->cap = cap;
	r->trunc = 0;
	r_lit(r, "{\"ev\":\"");
	r_lit(r, ev);
	r_lit(r, "\",\"pid\":");
	r_int(r, pid);
	r_lit(r, ",\"t\":");
	r_int(r, now_ns());
}

/* emit closes the record and appends it to the log: open, one write, close. Async-signal-safe. */
static void emit(struct rec *r)
{
	int saved = errno;
	if (r->trunc)
		r_lit(r, ",\"trunc\":1");
	r_raw(r, "}\n", 2);
	int fd = open(g_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		ssize_t w = write(fd, r->b, r->n);
		(void)w;
		close(fd);
	}
	errno = saved;
}

/* self_starttime is this process's start time in clock ticks since boot (field 22 of
 * /proc/self/stat): with the pid it names the process for good, so `verify` can tell a process of
 * the log still alive from a later one that reused its pid. -1 when /proc cannot be read.
 * Async-signal-safe (open, read, close). */
static long long self_starttime(void)
{
	char b[1024];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, b, sizeof b - 1);
	close(fd);
	if (n <= 0)
		return -1;
	b[n] = 0;
	char *p = NULL;
	for (char *q = b; *q; q++) /* the command name may hold ')': the last one ends it */
		if (*q == ')')
			p = q;
	if (!p)
		return -1;
	/* p ends field 2; each space starts the next field; starttime is field 22. */
	int field = 2;
	for (p++; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field != 22)
		return -1;
	long long v = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return v;
}

static void r_starttime(struct rec *r)
{
	long long st = self_starttime();
	if (st >= 0) {
		r_lit(r, ",\"st\":");
		r_int(r, st);
	}
}

/* ------------------------------------------------------------------------------------------ */
/* The real dlsym and the libc functions this file replaces.                                   */

typedef void *(*dlsym_fn)(void *, const char *);
static dlsym_fn g_real_dlsym;

static dlsym_fn real_dlsym_get(void)
{
	dlsym_fn f = __atomic_load_n(&g_real_dlsym, __ATOMIC_ACQUIRE);
	if (!f) {
		static const char *const vers[] = {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17", "GLIBC_2.0"};
		for (size_t i = 0; !f && i < sizeof vers / sizeof vers[0]; i++)
			*(void **)&f = dlvsym(RTLD_NEXT, "dlsym", vers[i]);
		__atomic_store_n(&g_real_dlsym, f, __ATOMIC_RELEASE);
	}
	return f;
}

static void *real_sym(void *handle, const char *name)
{
	dlsym_fn f = real_dlsym_get();
	return f ? f(handle, name) : NULL;
}

static pid_t (*real_waitpid)(pid_t, int *, int);
static pid_t (*real_wait)(int *);
static pid_t (*real_wait4)(pid_t, int *, int, struct rusage *);
static int (*real_waitid)(idtype_t, id_t, siginfo_t *, int);
static void (*real__exit)(int);
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execv)(const char *, char *const[]);
static int (*real_execvp)(const char *, char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static int (*real_fexecve)(int, char *const[], char *const[]);
static int (*real_kill)(pid_t, int);
static int (*real_killpg)(pid_t, int);

/* Resolved by the constructor, so the wrappers never call dlsym (they may run in signal handlers);
 * resolve_libc is also called lazily when another library's constructor runs first. */
static void resolve_libc(void)
{
	*(void **)&real_waitpid = real_sym(RTLD_NEXT, "waitpid");
	*(void **)&real_wait = real_sym(RTLD_NEXT, "wait");
	*(void **)&real_wait4 = real_sym(RTLD_NEXT, "wait4");
	*(void **)&real_waitid = real_sym(RTLD_NEXT, "waitid");
	*(void **)&real__exit = real_sym(RTLD_NEXT, "_exit");
	*(void **)&real_execve = real_sym(RTLD_NEXT, "execve");
	*(void **)&real_execv = real_sym(RTLD_NEXT, "execv");
	*(void **)&real_execvp = real_sym(RTLD_NEXT, "execvp");
	*(void **)&real_execvpe = real_sym(RTLD_NEXT, "execvpe");
	*(void **)&real_fexecve = real_sym(RTLD_NEXT, "fexecve");
	*(void **)&real_kill = real_sym(RTLD_NEXT, "kill");
	*(void **)&real_killpg = real_sym(RTLD_NEXT, "killpg");
}

/* ------------------------------------------------------------------------------------------ */
/* The Python stack, through the CPython C API.                                                */

static struct {
	int ok;
	int (*IsInitialized)(void);
	int (*IsFinalizing)(void);
	void *(*ThisThreadState)(void);    /* PyGILState_GetThisThreadState: no GIL needed */
	void *(*CurrentThreadState)(void); /* PyThreadState_GetUnchecked / _PyThreadState_UncheckedGet */
	int (*GILCheck)(void);
	int (*Ensure)(void);
	void (*Release)(int);
	void *(*GetFrame)(void);
	void *(*FrameGetCode)(void *);
	int (*FrameGetLineNumber)(void *);
	void *(*FrameGetBack)(void *);
	void *(*GetAttrString)(void *, const char *);
	const char *(*AsUTF8)(void *);
	void (*IncRef)(void *);
	void (*DecRef)(void *);
	void (*ErrFetch)(void **, void **, void **);
	void (*ErrRestore)(void *, void *, void *);
	int (*GCDisable)(void);
	int (*GCEnable)(void);
} py;

#define PY_LOAD(field, name) (*(void **)&py.field = real_sym(RTLD_DEFAULT, name))

/* py_resolve finds the C API in this process (none in env, bash, ...). Retried until found, so an
 * interpreter loaded later is still seen. */
static int py_resolve(void)
{
	if (__atomic_load_n(&py.ok, __ATOMIC_ACQUIRE))
		return 1;
	if (!PY_LOAD(IsInitialized, "Py_IsInitialized"))
		return 0;
	if (!PY_LOAD(IsFinalizing, "Py_IsFinalizing"))
		PY_LOAD(IsFinalizing, "_Py_IsFinalizing");
	if (!PY_LOAD(CurrentThreadState, "PyThreadState_GetUnchecked"))
		PY_LOAD(CurrentThreadState, "_PyThreadState_UncheckedGet");
	PY_LOAD(GILCheck, "PyGILState_Check");
	PY_LOAD(ThisThreadState, "PyGILState_GetThisThreadState");
	PY_LOAD(Ensure, "PyGILState_Ensure");
	PY_LOAD(Release, "PyGILState_Release");
	PY_LOAD(GetFrame, "PyEval_GetFrame");
	PY_LOAD(FrameGetCode, "PyFrame_GetCode");
	PY_LOAD(FrameGetLineNumber, "PyFrame_GetLineNumber");
	PY_LOAD(FrameGetBack, "PyFrame_GetBack");
	PY_LOAD(GetAttrString, "PyObject_GetAttrString");
	PY_LOAD(AsUTF8, "PyUnicode_AsUTF8");
	PY_LOAD(IncRef, "Py_IncRef");
	PY_LOAD(DecRef, "Py_DecRef");
	PY_LOAD(ErrFetch, "PyErr_Fetch");
	PY_LOAD(ErrRestore, "PyErr_Restore");
	PY_LOAD(GCDisable, "PyGC_Disable");
	PY_LOAD(GCEnable, "PyGC_Enable");
	if (!py.ThisThreadState || !py.Ensure || !py.Release || !py.GetFrame || !py.FrameGetCode ||
	    !py.FrameGetLineNumber || !py.FrameGetBack || !py.GetAttrString || !py.AsUTF8 || !py.IncRef ||
	    !py.DecRef || !py.ErrFetch || !py.ErrRestore || (!py.CurrentThreadState && !py.GILCheck))
		return 0; /* Python older than 3.9, or not CPython */
	if (!py.GCEnable)
		py.GCDisable = NULL;
	__atomic_store_n(&py.ok, 1, __ATOMIC_RELEASE);
	return 1;
}

static int in_site_packages(const char *file)
{
	return strstr(file, "/site-packages/") != NULL || strstr(file, "/dist-packages/") != NULL;
}

/* r_stack appends ,"py":HOW and, when the stack can be read, ,"stack":[[file,line,func],...].
 * may_take_gil: whether a thread that released the GIL may take it back (never in a fork handler). */
static void r_stack(struct rec *r, int may_take_gil)
{
	if (!py_resolve() || !py.IsInitialized() || (py.IsFinalizing && py.IsFinalizing())) {
		r_lit(r, ",\"py\":\"none\"");
		return;
	}
	void *mine = py.ThisThreadState();
	int held = mine != NULL && (py.CurrentThreadState ? py.CurrentThreadState() == mine : py.GILCheck());
	int gstate = 0;
	if (!held) {
		if (mine == NULL) {
			r_lit(r, ",\"py\":\"nothread\"");
			return;
		}
		if (!may_take_gil) {
			r_lit(r, ",\"py\":\"nogil\"");
			return;
		}
		gstate = py.Ensure();
	}
	r_lit(r, held ? ",\"py\":\"gil\"" : ",\"py\":\"ensure\"");

	void *et, *ev, *tb;
	py.ErrFetch(&et, &ev, &tb);
	int gc = py.GCDisable ? py.GCDisable() : 0;

	r_lit(r, ",\"stack\":[");
	int depth = 0, wrote = 0, skipped = 0, dropped = 0;
	void *f = py.GetFrame(); /* borrowed */
	if (f)
		py.IncRef(f);
	while (f && depth < MAX_FRAMES) {
		void *code = py.FrameGetCode(f);
		int line = py.FrameGetLineNumber(f);
		void *fo = code ? py.GetAttrString(code, "co_filename") : NULL;
		void *no = code ? py.GetAttrString(code, "co_name") : NULL;
		const char *file = fo ? py.AsUTF8(fo) : NULL;
		const char *name = no ? py.AsUTF8(no) : NULL;
		if (!file)
			file = "?";
		if (!name)
			name = "?";
		if (depth > 0 && in_site_packages(file)) {
			skipped++;
		} else if (dropped || !r_room(r, json_len(file, 1024) + json_len(name, 128) + 24)) {
			dropped++;
		} else {
			if (wrote++)
				r_lit(r, ",");
			r_lit(r, "[");
			r_str(r, file, 1024);
			r_lit(r, ",");
			r_int(r, line);
			r_lit(r, ",");
			r_str(r, name, 128);
			r_lit(r, "]");
		}
		if (no)
			py.DecRef(no);
		if (fo)
			py.DecRef(fo);
		if (code)
			py.DecRef(code);
		void *back = py.FrameGetBack(f); /* new reference */
		py.DecRef(f);
		f = back;
		depth++;
	}
	if (f)
		py.DecRef(f);
	r_lit(r, "]");
	if (skipped) {
		r_lit(r, ",\"skipped\":");
		r_int(r, skipped);
	}
	if (dropped)
		r->trunc = 1;

	if (gc)
		py.GCEnable();
	py.ErrRestore(et, ev, tb);
	if (!held)
		py.Release(gstate);
}

/* ------------------------------------------------------------------------------------------ */
/* The driver entry points this file wraps.                                                    */
/*                                                                                            */
/* SLOTS(X): X(symbol, base name, sole, parameters, arguments). The symbol is the driver's      */
/* exported name and fixes the ABI; the base name is what cuGetProcAddress is asked for; sole   */
/* says every variant of the base name shares this ABI, so a pointer cuGetProcAddress hands out */
/* for that name may be wrapped even when it is not the exported symbol. cuInit and the two     */
/* cuGetProcAddress are written out by hand below.                                             */

#define SLOTS(X)                                                                                         \
	X(cuDeviceGet, "cuDeviceGet", 1, (int *dev, int ordinal), (dev, ordinal))                        \
	X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 1, (void **ctx, int dev), (ctx, dev))    \
	X(cuCtxCreate_v2, "cuCtxCreate", 0, (void **ctx, unsigned flags, int dev), (ctx, flags, dev))    \
	X(cuCtxCreate_v3, "cuCtxCreate", 0, (void **ctx, void *params, int n, unsigned flags, int dev),  \
	  (ctx, params, n, flags, dev))                                                                  \
	X(cuCtxCreate_v4, "cuCtxCreate", 0, (void **ctx, void *params, unsigned flags, int dev),         \
	  (ctx, params, flags, dev))                                                                     \
	X(cuCtxSetCurrent, "cuCtxSetCurrent", 1, (void *ctx), (ctx))                                     \
	X(cuCtxPushCurrent_v2, "cuCtxPushCurrent", 1, (void *ctx), (ctx))                                \
	X(cuCtxSynchronize, "cuCtxSynchronize", 0, (void), ())                                           \
	X(cuMemAlloc_v2, "cuMemAlloc", 0, (CUdeviceptr *p, size_t n), (p, n))                            \
	X(cuMemAllocManaged, "cuMemAllocManaged", 1, (CUdeviceptr *p, size_t n, unsigned fl), (p, n, fl)) \
	X(cuMemAllocAsync, "cuMemAllocAsync", 1, (CUdeviceptr *p, size_t n, void *s), (p, n, s))        \
	X(cuMemAllocAsync_ptsz, "cuMemAllocAsync", 1, (CUdeviceptr *p, size_t n, void *s), (p, n, s))   \
	X(cuMemHostAlloc, "cuMemHostAlloc", 1, (void **p, size_t n, unsigned fl), (p, n, fl))            \
	X(cuMemcpyHtoD_v2, "cuMemcpyHtoD", 0, (CUdeviceptr d, const void *h, size_t n), (d, h, n))       \
	X(cuMemcpyDtoH_v2, "cuMemcpyDtoH", 0, (void *h, CUdeviceptr d, size_t n), (h, d, n))             \
	X(cuStreamCreate, "cuStreamCreate", 1, (void **s, unsigned fl), (s, fl))                         \
	X(cuStreamCreateWithPriority, "cuStreamCreateWithPriority", 1, (void **s, unsigned fl, int pr),  \
	  (s, fl, pr))                                                                                   \
	X(cuStreamSynchronize, "cuStreamSynchronize", 1, (void *s), (s))                                 \
	X(cuStreamSynchronize_ptsz, "cuStreamSynchronize", 1, (void *s), (s))                            \
	X(cuModuleLoadData, "cuModuleLoadData", 1, (void **m, const void *img), (m, img))                \
	X(cuLaunchKernel, "cuLaunchKernel", 1, LAUNCH_PARAMS, LAUNCH_ARGS)                               \
	X(cuLaunchKernel_ptsz, "cuLaunchKernel", 1, LAUNCH_PARAMS, LAUNCH_ARGS)

#define LAUNCH_PARAMS                                                                                \
	(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,      \
	 unsigned shmem, void *stream, void **params, void **extra)
#define LAUNCH_ARGS (f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra)

#define SLOT_ENUM(sym, base, sole, params, args) S_##sym,
enum { S_cuInit, S_cuGetProcAddress, S_cuGetProcAddress_v2, SLOTS(SLOT_ENUM) NSLOTS };

struct slot {
	const char *name; /* exported symbol */
	const char *base; /* name asked of cuGetProcAddress */
	int sole;
	void *wrapper;
	void *real;      /* the driver's function this slot wraps, set by the first lookup */
	unsigned calls;  /* calls in this process (counting stops once past the recording limits) */
	unsigned fails;  /* failed calls recorded in this process */
};

static struct slot g_slots[NSLOTS];

static void *slot_real(int s) { return __atomic_load_n(&g_slots[s].real, __ATOMIC_ACQUIRE); }

/* slot_claim returns the slot's wrapper for p, or p itself when the slot already wraps another
 * function (a second copy of the driver, say). */
static void *slot_claim(int s, void *p)
{
	void *expect = NULL;
	if (__atomic_compare_exchange_n(&g_slots[s].real, &expect, p, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
	    expect == p)
		return g_slots[s].wrapper;
	return p;
}

static void log_call(int s, const char *ev, unsigned n, int has_rc, CUresult rc, int stack)
{
	char buf[REC_MAX];
	struct rec r;
	r_head(&r, buf, sizeof buf, ev, getpid());
	r_lit(&r, ",\"fn\":");
	r_str(&r, g_slots[s].name, 64);
	r_lit(&r, ",\"n\":");
	r_int(&r, n);
	if (has_rc) {
		r_lit(&r, ",\"rc\":");
		r_int(&r, rc);
	}
	if (stack)
		r_stack(&r, 1);
	emit(&r);
}

/* limit is how many first calls of slot s a process records. */
static unsigned first_calls(int s) { return s == S_cuInit ? FIRST_INITS : g_tainted ? 2 : 1; }

/* call_enter counts the call (until past the limits, so hot paths stop writing shared memory) and,
 * in a tainted process, records the first calls before they reach the driver. */
static unsigned call_enter(int s)
{
	if (!g_on)
		return 0;
	unsigned n = __atomic_load_n(&g_slots[s].calls, __ATOMIC_RELAXED);
	if (n > FIRST_INITS)
		return n + 1;
	n = __atomic_add_fetch(&g_slots[s].calls, 1, __ATOMIC_RELAXED);
	if (g_tainted && n <= first_calls(s))
		log_call(s, "enter", n, 0, 0, 1);
	return n;
}

/* call_return records the first calls and the first failures, with the stack for cuInit and for
 * failures (a call whose "enter" record was written already carries its stack there). */
static void call_return(int s, unsigned n, CUresult rc)
{
	if (!g_on)
		return;
	int first = n <= first_calls(s);
	int entered = first && g_tainted;
	if (!first && rc != 0 && __atomic_add_fetch(&g_slots[s].fails, 1, __ATOMIC_RELAXED) <= MAX_FAILS)
		first = 1;
	if (first)
		log_call(s, "call", n, 1, rc, !entered && (s == S_cuInit || rc != 0));
}

#define SLOT_WRAPPER(sym, base, sole, params, args)                                                   \
	static CUresult w_##sym params                                                                   \
	{                                                                                                \
		unsigned nth_ = call_enter(S_##sym);                                                     \
		CUresult rc_ = ((CUresult(*) params)slot_real(S_##sym)) args;                            \
		call_return(S_##sym, nth_, rc_);                                                         \
		return rc_;                                                                              \
	}
SLOTS(SLOT_WRAPPER)

static CUresult w_cuInit(unsigned int flags)
{
	unsigned n = call_enter(S_cuInit);
	CUresult rc = ((CUresult(*)(unsigned int))slot_real(S_cuInit))(flags);
	call_return(S_cuInit, n, rc);
	return rc;
}

static void *proc_wrap(const char *sym, void *p, int version);

/* cuGetProcAddress (CUDA 11.3) and cuGetProcAddress_v2 (CUDA 12.0): wrap what they hand out. */
static CUresult w_cuGetProcAddress(const char *sym, void **pfn, int version, unsigned long long flags)
{
	CUresult rc = ((CUresult(*)(const char *, void **, int, unsigned long long))slot_real(
	    S_cuGetProcAddress))(sym, pfn, version, flags);
	if (rc == 0 && g_on && pfn)
		*pfn = proc_wrap(sym, *pfn, version);
	return rc;
}

static CUresult w_cuGetProcAddress_v2(const char *sym, void **pfn, int version, unsigned long long flags,
				      int *status)
{
	CUresult rc = ((CUresult(*)(const char *, void **, int, unsigned long long, int *))slot_real(
	    S_cuGetProcAddress_v2))(sym, pfn, version, flags, status);
	if (rc == 0 && g_on && pfn)
		*pfn = proc_wrap(sym, *pfn, version);
	return rc;
}

#define SLOT_ENTRY(sym, base, sole, params, args) [S_##sym] = {#sym, base, sole, (void *)w_##sym, 0, 0, 0},
static struct slot g_slots[NSLOTS] = {
    [S_cuInit] = {"cuInit", "cuInit", 1, (void *)w_cuInit, 0, 0, 0},
    [S_cuGetProcAddress] = {"cuGetProcAddress", "cuGetProcAddress", 0, (void *)w_cuGetProcAddress, 0, 0, 0},
    [S_cuGetProcAddress_v2] = {"cuGetProcAddress_v2", "cuGetProcAddress", 0, (void *)w_cuGetProcAddress_v2, 0, 0,
			       0},
    SLOTS(SLOT_ENTRY)};

/* find_cuda copies the path of a loaded libcuda.so* into buf (dl_iterate_phdr never fails a lookup,
 * so the program's dlerror state is left alone). */
struct cuda_path {
	char *buf;
	size_t cap;
};

static int find_cuda_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	const char *name = info->dlpi_name;
	if (!name || !*name)
		return 0;
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (strncmp(base, "libcuda.so", 10) != 0)
		return 0;
	struct cuda_path *cp = data;
	size_t len = strlen(name);
	if (len >= cp->cap)
		return 0;
	memcpy(cp->buf, name, len + 1);
	return 1;
}

static void *cuda_handle(void)
{
	char path[1024];
	struct cuda_path cp = {path, sizeof path};
	path[0] = 0;
	dl_iterate_phdr(find_cuda_cb, &cp);
	return path[0] ? dlopen(path, RTLD_LAZY | RTLD_NOLOAD) : NULL;
}

static int base_is(int s, const char *sym)
{
	return strcmp(g_slots[s].base, sym) == 0 || strcmp(g_slots[s].name, sym) == 0;
}

/* proc_wrap decides what to hand out for what cuGetProcAddress returned for sym. */
static void *proc_wrap(const char *sym, void *p, int version)
{
	if (!p || !sym || sym[0] != 'c' || sym[1] != 'u')
		return p;
	int any = 0;
	for (int s = 0; s < NSLOTS; s++) {
		if (slot_real(s) == p)
			return g_slots[s].wrapper;
		any |= base_is(s, sym);
	}
	if (!any)
		return p;
	/* The driver's exported symbol with the same address fixes the ABI. */
	void *h = cuda_handle();
	if (h) {
		int missing = 0;
		void *found = NULL;
		for (int s = 0; s < NSLOTS && !found; s++) {
			if (!base_is(s, sym))
				continue;
			void *e = real_sym(h, g_slots[s].name);
			missing |= e == NULL;
			if (e == p)
				found = slot_claim(s, p);
		}
		if (missing)
			dlerror(); /* forget the failed lookups of variants this driver lacks */
		dlclose(h);
		if (found)
			return found;
	}
	/* Not an exported symbol: wrap only when the ABI follows from the name alone. */
	if (strcmp(sym, "cuGetProcAddress") == 0)
		return slot_claim(version >= 12000 ? S_cuGetProcAddress_v2 : S_cuGetProcAddress, p);
	for (int s = 0; s < NSLOTS; s++) {
		if (g_slots[s].sole && base_is(s, sym)) {
			void *w = slot_claim(s, p);
			if (w != p)
				return w;
		}
	}
	return p;
}

/* dlsym_wrap hands out the wrapper for an exported name of the slot table. */
static void *dlsym_wrap(void *p, const char *name)
{
	if (!p || !name || name[0] != 'c' || name[1] != 'u')
		return p;
	for (int s = 0; s < NSLOTS; s++)
		if (strcmp(g_slots[s].name, name) == 0)
			return slot_claim(s, p);
	return p;
}

EXPORT void *dlsym(void *handle, const char *name)
{
	dlsym_fn real = real_dlsym_get();
	if (!g_on || handle == RTLD_NEXT || handle == RTLD_DEFAULT)
		return real(handle, name); /* a tail call: the result depends on the caller */
	return dlsym_wrap(real(handle, name), name);
}

/* ------------------------------------------------------------------------------------------ */
/* Loading the driver.                                                                         */

typedef void *(*dlopen_fn)(const char *, int);
static dlopen_fn g_real_dlopen;
static int g_cuda_loads; /* attempts to load libcuda recorded in this process */

/* is_cuda_name: the driver library, libcuda.so*, named bare or by a path. */
static int is_cuda_name(const char *name)
{
	if (!name)
		return 0;
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	return strncmp(base, "libcuda.so", 10) == 0;
}

/* Kept out of line: inlined, its buffer (and a stack protector's check) would sit in dlopen's frame,
 * and the forwarding path could lose its tail call. */
__attribute__((noinline)) static void note_cuda_load(const char *name, int ok)
{
	char buf[1400];
	struct rec r;
	r_head(&r, buf, sizeof buf, "dlopen", getpid());
	r_lit(&r, ",\"path\":");
	r_str(&r, name, 1024);
	r_lit(&r, ",\"ok\":");
	r_int(&r, ok);
	emit(&r);
}

EXPORT void *dlopen(const char *name, int flags)
{
	dlopen_fn real = __atomic_load_n(&g_real_dlopen, __ATOMIC_ACQUIRE);
	if (!real) {
		*(void **)&real = real_sym(RTLD_NEXT, "dlopen");
		__atomic_store_n(&g_real_dlopen, real, __ATOMIC_RELEASE);
		if (!real)
			return NULL;
	}
	void *loaded = NULL;
	if (!g_on || (flags & RTLD_NOLOAD) || !is_cuda_name(name) ||
	    __atomic_load_n(&g_cuda_loads, __ATOMIC_RELAXED) >= MAX_FAILS || (loaded = cuda_handle()) != NULL) {
		if (loaded)
			dlclose(loaded);
		return real(name, flags); /* a tail call: where the loader searches depends on the caller */
	}
	__atomic_add_fetch(&g_cuda_loads, 1, __ATOMIC_RELAXED);
	void *h = real(name, flags);
	note_cuda_load(name, h != NULL);
	return h;
}

/* ------------------------------------------------------------------------------------------ */
/* Fork.                                                                                       */

static int g_fork_lock;         /* held from prepare to parent/child */
static char g_fork_buf[REC_MAX]; /* the fork record's fields after the child's pid, built in prepare */
static size_t g_fork_len;
static int g_fork_state;
static TLS int t_fork_depth;    /* a fork inside a fork handler (a signal handler) is not recorded */

/* cuda_state: -1 no libcuda loaded, 0 loaded but cuInit has not run here, 1 initialized. */
static int cuda_state(int *rc)
{
	void *h = cuda_handle();
	if (!h)
		return -1;
	CUresult (*count)(int *);
	*(void **)&count = real_sym(h, "cuDeviceGetCount");
	int n = 0;
	*rc = count ? count(&n) : -1;
	dlclose(h);
	return *rc == 0 ? 1 : 0;
}

static void on_prepare(void)
{
	if (t_fork_depth++ > 0)
		return;
	int saved = errno;
	while (__atomic_exchange_n(&g_fork_lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	struct rec r = {g_fork_buf, 0, sizeof g_fork_buf - 64, 0};
	int rc = 0;
	int state = cuda_state(&rc);
	r_lit(&r, ",\"ppid\":");
	r_int(&r, getpid());
	r_lit(&r, ",\"cuda\":");
	r_int(&r, state);
	if (state >= 0) {
		r_lit(&r, ",\"rc\":");
		r_int(&r, rc);
	}
	r_lit(&r, ",\"tainted\":");
	r_int(&r, g_tainted);
	r_stack(&r, 0);
	if (r.trunc)
		r_raw(&r, ",\"trunc\":1", 10);
	g_fork_len = r.n;
	g_fork_state = state;
	errno = saved;
}

static void on_parent(void)
{
	if (--t_fork_depth > 0)
		return;
	__atomic_store_n(&g_fork_lock, 0, __ATOMIC_RELEASE);
}

/* on_child runs in the new process before fork() returns there: async-signal-safe calls only. */
static void on_child(void)
{
	if (--t_fork_depth > 0)
		return;
	int saved = errno;
	g_tainted = g_tainted || g_fork_state == 1;
	for (int s = 0; s < NSLOTS; s++) {
		g_slots[s].calls = 0;
		g_slots[s].fails = 0;
	}
	g_cuda_loads = 0;
	char buf[REC_MAX];
	struct rec r;
	r_head(&r, buf, sizeof buf, "fork", getpid());
	r_starttime(&r);
	r_raw(&r, g_fork_buf, g_fork_len);
	emit(&r);
	__atomic_store_n(&g_fork_lock, 0, __ATOMIC_RELEASE);
	errno = saved;
}

/* ------------------------------------------------------------------------------------------ */
/* Exit statuses.                                                                              */

static void note_wait(pid_t child, int status)
{
	if (!g_on || !(WIFEXITED(status) || WIFSIGNALED(status)))
		return;
	char buf[160];
	struct rec r;
	r_head(&r, buf, sizeof buf, "wait", getpid());
	r_lit(&r, ",\"child\":");
	r_int(&r, child);
	r_lit(&r, ",\"status\":");
	r_int(&r, status);
	emit(&r);
}

EXPORT pid_t waitpid(pid_t pid, int *status, int options)
{
	if (!real_waitpid)
		resolve_libc();
	int st = 0;
	pid_t r = real_waitpid(pid, &st, options);
	if (r > 0) {
		if (status)
			*status = st;
		note_wait(r, st);
	}
	return r;
}

EXPORT pid_t wait(int *status)
{
	if (!real_wait)
		resolve_libc();
	int st = 0;
	pid_t r = real_wait(&st);
	if (r > 0) {
		if (status)
			*status = st;
		note_wait(r, st);
	}
	return r;
}

EXPORT pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage)
{
	if (!real_wait4)
		resolve_libc();
	int st = 0;
	pid_t r = real_wait4(pid, &st, options, usage);
	if (r > 0) {
		if (status)
			*status = st;
		note_wait(r, st);
	}
	return r;
}

EXPORT int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	if (!real_waitid)
		resolve_libc();
	int r = real_waitid(idtype, id, info, options);
	if (r == 0 && info && info->si_pid > 0 && !(options & WNOWAIT)) {
		int code = info->si_code, st = info->si_status;
		if (code == CLD_EXITED)
			note_wait(info->si_pid, (st & 0xff) << 8);
		else if (code == CLD_KILLED)
			note_wait(info->si_pid, st & 0x7f);
		else if (code == CLD_DUMPED)
			note_wait(info->si_pid, (st & 0x7f) | 0x80);
	}
	return r;
}

static void note_exit(int code)
{
	if (g_on) {
		char buf[128];
		struct rec r;
		r_head(&r, buf, sizeof buf, "exit", getpid());
		r_lit(&r, ",\"code\":");
		r_int(&r, code & 0xff); /* what the parent's wait sees */
		emit(&r);
	}
}

/* Registered by the constructor, before the program registers its own, so it runs after them:
 * the code recorded is the one exit hands the kernel, unless a later destructor crashes. */
static void on_exit_handler(int status, void *arg)
{
	(void)arg;
	note_exit(status);
}

EXPORT void _exit(int code)
{
	note_exit(code);
	if (!real__exit)
		resolve_libc();
	if (real__exit)
		real__exit(code);
	for (;;)
		syscall(SYS_exit_group, code);
}

/* ------------------------------------------------------------------------------------------ */
/* Exec and kill.                                                                              */
/*                                                                                            */
/* exec: a new image writes its own "start" record when it loads this object. An "exec" record  */
/* written just before the call lets `verify` see an image that did not: one whose environment   */
/* dropped the wrapper, or a statically linked or setuid program. "keeps" says whether the new   */
/* environment still names this object in LD_PRELOAD and the same log. When the call returns it  */
/* failed, and an "execfail" record says so. These run in vfork children too (_posixsubprocess), */
/* where the memory is the parent's: they write nothing but their own stack.                   */
/* execl, execle and execlp are not interposed (no Python or shell path uses them).             */

static char g_self[1024]; /* this object's path as the loader named it (from LD_PRELOAD) */

extern char **environ;

/* env_value returns the value of NAME in envp, or NULL. */
static const char *env_value(char *const envp[], const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* env_keeps reports whether envp still loads this object and logs to the same file. */
static int env_keeps(char *const envp[])
{
	const char *log = env_value(envp, "CUDAFORKLINT_LOG");
	const char *pre = env_value(envp, "LD_PRELOAD");
	if (!log || strcmp(log, g_log) != 0 || !pre || !g_self[0])
		return 0;
	size_t n = strlen(g_self);
	for (const char *p = pre; *p;) {
		while (*p == ' ' || *p == ':')
			p++;
		const char *e = p;
		while (*e && *e != ' ' && *e != ':')
			e++;
		if ((size_t)(e - p) == n && strncmp(p, g_self, n) == 0)
			return 1;
		p = e;
	}
	return 0;
}

static void note_exec(const char *path, char *const argv[], char *const envp[])
{
	if (!g_on)
		return;
	char buf[REC_MAX];
	struct rec r;
	r_head(&r, buf, sizeof buf, "exec", getpid());
	r_lit(&r, ",\"ppid\":");
	r_int(&r, getppid());
	r_starttime(&r);
	r_lit(&r, ",\"keeps\":");
	r_int(&r, env_keeps(envp));
	r_lit(&r, ",\"path\":");
	r_str(&r, path ? path : "?", 512);
	r_lit(&r, ",\"argv\":[");
	for (int i = 0; argv && argv[i] && i < 64; i++) {
		if (!r_room(&r, json_len(argv[i], 512) + 1)) {
			r.trunc = 1;
			break;
		}
		if (i)
			r_lit(&r, ",");
		r_str(&r, argv[i], 512);
	}
	r_lit(&r, "]");
	emit(&r);
}

/* note_exec_failed runs when an exec call returned: it failed, and the image is still this one. */
static void note_exec_failed(void)
{
	if (!g_on)
		return;
	int saved = errno;
	char buf[128];
	struct rec r;
	r_head(&r, buf, sizeof buf, "execfail", getpid());
	r_lit(&r, ",\"errno\":");
	r_int(&r, saved);
	emit(&r);
	errno = saved;
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	if (!real_execve)
		resolve_libc();
	note_exec(path, argv, envp);
	int r = real_execve(path, argv, envp);
	note_exec_failed();
	return r;
}

EXPORT int execv(const char *path, char *const argv[])
{
	if (!real_execv)
		resolve_libc();
	note_exec(path, argv, environ);
	int r = real_execv(path, argv);
	note_exec_failed();
	return r;
}

EXPORT int execvp(const char *file, char *const argv[])
{
	if (!real_execvp)
		resolve_libc();
	note_exec(file, argv, environ);
	int r = real_execvp(file, argv);
	note_exec_failed();
	return r;
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (!real_execvpe)
		resolve_libc();
	note_exec(file, argv, envp);
	int r = real_execvpe(file, argv, envp);
	note_exec_failed();
	return r;
}

EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	if (!real_fexecve)
		resolve_libc();
	note_exec(argv[0] ? argv[0] : "?", argv, envp);
	int r = real_fexecve(fd, argv, envp);
	note_exec_failed();
	return r;
}

/* kill: a child that dies of a signal its parent (or any process of the program) sent on purpose
 * (Pool.terminate, Popen.kill) did not fail; `verify` tells the two apart with these records. */
static void note_kill(pid_t target, int sig)
{
	if (!g_on || sig == 0)
		return;
	char buf[160];
	struct rec r;
	r_head(&r, buf, sizeof buf, "kill", getpid());
	r_lit(&r, ",\"target\":");
	r_int(&r, target);
	r_lit(&r, ",\"sig\":");
	r_int(&r, sig);
	emit(&r);
}

EXPORT int kill(pid_t pid, int sig)
{
	if (!real_kill)
		resolve_libc();
	note_kill(pid, sig); /* before: the target may be reaped before this call returns */
	return real_kill(pid, sig);
}

EXPORT int killpg(pid_t pgrp, int sig)
{
	if (!real_killpg)
		resolve_libc();
	note_kill(-pgrp, sig);
	return real_killpg(pgrp, sig);
}

/* ------------------------------------------------------------------------------------------ */
/* Start: glibc passes argc, argv and envp to the functions of .init_array.                    */

__attribute__((constructor)) static void shim_init(int argc, char **argv, char **envp)
{
	(void)envp;
	if (!real_waitpid)
		resolve_libc();
	const char *path = getenv("CUDAFORKLINT_LOG");
	if (!path || path[0] != '/' || strlen(path) >= sizeof g_log)
		return;
	memcpy(g_log, path, strlen(path) + 1);
	Dl_info self;
	if (dladdr((void *)shim_init, &self) && self.dli_fname && strlen(self.dli_fname) < sizeof g_self)
		memcpy(g_self, self.dli_fname, strlen(self.dli_fname) + 1);
	g_on = 1;
	pthread_atfork(on_prepare, on_parent, on_child);
	on_exit(on_exit_handler, NULL);

	char buf[REC_MAX], cwd[1024];
	struct rec r;
	r_head(&r, buf, sizeof buf, "start", getpid());
	r_lit(&r, ",\"ppid\":");
	r_int(&r, getppid());
	r_starttime(&r);
	if (getcwd(cwd, sizeof cwd)) {
		r_lit(&r, ",\"cwd\":");
		r_str(&r, cwd, sizeof cwd);
	}
	r_lit(&r, ",\"argv\":[");
	for (int i = 0; argv && i < argc && argv[i]; i++) {
		if (!r_room(&r, json_len(argv[i], 512) + 1)) {
			r.trunc = 1;
			break;
		}
		if (i)
			r_lit(&r, ",");
		r_str(&r, argv[i], 512);
	}
	r_lit(&r, "]");
	emit(&r);
}
