/* other.c: another LD_PRELOAD object, for the test that verify appends its wrapper to an
 * LD_PRELOAD already set. It interposes waitpid and forwards through dlsym(RTLD_NEXT), so the
 * call reaches the wrapper (loaded after it) and then libc only if the wrapper's dlsym keeps
 * RTLD_NEXT relative to its caller. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/types.h>

static int calls;

__attribute__((visibility("default"))) int other_preload_waitpid_calls(void) { return calls; }

__attribute__((visibility("default"))) pid_t waitpid(pid_t pid, int *status, int options)
{
	static pid_t (*next)(pid_t, int *, int);
	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "waitpid");
	__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	return next(pid, status, options);
}
