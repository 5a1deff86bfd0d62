/*
 * fakecuda.c: a stand-in libcuda.so.1 for the verifier's tests (no GPU needed).
 *
 * It mimics what the real driver was measured to do around fork (shared/ground-truth/wrapper.md,
 * forkmatrix.md):
 *   - driver state belongs to the process that ran cuInit;
 *   - before cuInit, cuDeviceGetCount (and every other call but cuInit and cuDriverGetVersion)
 *     returns CUDA_ERROR_NOT_INITIALIZED (3);
 *   - in a process forked from an initialized one, every call, cuInit included, returns 3 (as the
 *     cuda.bindings child saw), except cuStreamSynchronize, which never returns there (as the jax
 *     child hung);
 *   - a child forked from a process that never ran cuInit initializes its own driver;
 *   - with FAKECUDA_DEVICES=0 in the environment it is a driver on a machine with no GPU: cuInit
 *     returns CUDA_ERROR_NO_DEVICE (100), as the driver API documents, and nothing initializes.
 * cuGetProcAddress and cuGetProcAddress_v2 hand out this library's own functions by base name, so
 * the wrapper's cuGetProcAddress path is exercised; for "cuStreamCreate" they hand out a function
 * that is not an exported symbol, as a real driver may, so the wrapper's name-only rule is too.
 *
 * Build: cc -O2 -fPIC -shared -Wl,-soname,libcuda.so.1 -o libcuda.so.1 fakecuda.c
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define API __attribute__((visibility("default")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum { SUCCESS = 0, NOT_INITIALIZED = 3, NO_DEVICE = 100, NOT_FOUND = 500 };

static pid_t init_pid;              /* the process that ran cuInit, 0 before */
static unsigned long long next_ptr = 0x7f0000000000ULL;
static int ctx_token, stream_token;

/* ready: whether this process owns an initialized driver. */
static int ready(void) { return init_pid != 0 && init_pid == getpid(); }
static CUresult status(void) { return ready() ? SUCCESS : NOT_INITIALIZED; }

API CUresult cuInit(unsigned int flags)
{
	(void)flags;
	const char *devices = getenv("FAKECUDA_DEVICES");
	if (devices && strcmp(devices, "0") == 0)
		return NO_DEVICE;
	if (init_pid == 0)
		init_pid = getpid();
	return status();
}

API CUresult cuDriverGetVersion(int *v)
{
	*v = 12080;
	return SUCCESS;
}

API CUresult cuDeviceGetCount(int *n)
{
	if (!ready())
		return NOT_INITIALIZED;
	*n = 1;
	return SUCCESS;
}

API CUresult cuDeviceGet(int *dev, int ordinal)
{
	if (!ready())
		return NOT_INITIALIZED;
	*dev = ordinal;
	return ordinal == 0 ? SUCCESS : 101; /* CUDA_ERROR_INVALID_DEVICE */
}

API CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
	(void)dev;
	if (!ready())
		return NOT_INITIALIZED;
	*ctx = &ctx_token;
	return SUCCESS;
}

API CUresult cuCtxCreate_v2(void **ctx, unsigned flags, int dev)
{
	(void)flags;
	return cuDevicePrimaryCtxRetain(ctx, dev);
}

API CUresult cuCtxSetCurrent(void *ctx)
{
	(void)ctx;
	return status();
}

API CUresult cuCtxSynchronize(void) { return status(); }

API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	if (!ready())
		return NOT_INITIALIZED;
	*p = next_ptr;
	next_ptr += (n + 255) & ~(size_t)255;
	return SUCCESS;
}

API CUresult cuMemFree_v2(CUdeviceptr p)
{
	(void)p;
	return status();
}

/* Not exported: handed out by cuGetProcAddress for "cuStreamCreate". */
static CUresult stream_create(void **s, unsigned flags)
{
	(void)flags;
	if (!ready())
		return NOT_INITIALIZED;
	*s = &stream_token;
	return SUCCESS;
}

API CUresult cuStreamCreate(void **s, unsigned flags) { return stream_create(s, flags); }

API CUresult cuStreamSynchronize(void *s)
{
	(void)s;
	if (init_pid != 0 && init_pid != getpid())
		for (;;)
			pause(); /* a child of an initialized process hangs here */
	return status();
}

API CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			    unsigned bz, unsigned shmem, void *stream, void **params, void **extra)
{
	(void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shmem, (void)stream;
	(void)params, (void)extra;
	return status();
}

API CUresult cuGetErrorName(CUresult e, const char **s)
{
	*s = e == SUCCESS ? "CUDA_SUCCESS" : e == NOT_INITIALIZED ? "CUDA_ERROR_NOT_INITIALIZED" : "CUDA_ERROR_UNKNOWN";
	return SUCCESS;
}

API CUresult cuGetProcAddress(const char *sym, void **pfn, int version, unsigned long long flags);
API CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int version, unsigned long long flags, int *st);

static const struct {
	const char *base;
	void *fn;
} procs[] = {
    {"cuInit", (void *)cuInit},
    {"cuDriverGetVersion", (void *)cuDriverGetVersion},
    {"cuDeviceGetCount", (void *)cuDeviceGetCount},
    {"cuDeviceGet", (void *)cuDeviceGet},
    {"cuDevicePrimaryCtxRetain", (void *)cuDevicePrimaryCtxRetain},
    {"cuCtxCreate", (void *)cuCtxCreate_v2},
    {"cuCtxSetCurrent", (void *)cuCtxSetCurrent},
    {"cuCtxSynchronize", (void *)cuCtxSynchronize},
    {"cuMemAlloc", (void *)cuMemAlloc_v2},
    {"cuMemFree", (void *)cuMemFree_v2},
    {"cuStreamCreate", (void *)stream_create},
    {"cuStreamSynchronize", (void *)cuStreamSynchronize},
    {"cuLaunchKernel", (void *)cuLaunchKernel},
    {"cuGetErrorName", (void *)cuGetErrorName},
};

API CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int version, unsigned long long flags, int *st)
{
	(void)flags;
	if (st)
		*st = 0;
	*pfn = NULL;
	if (strcmp(sym, "cuGetProcAddress") == 0) {
		*pfn = version >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
		return SUCCESS;
	}
	for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
		if (strcmp(procs[i].base, sym) == 0) {
			*pfn = procs[i].fn;
			return SUCCESS;
		}
	}
	if (st)
		*st = 1; /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
	return NOT_FOUND;
}

API CUresult cuGetProcAddress(const char *sym, void **pfn, int version, unsigned long long flags)
{
	return cuGetProcAddress_v2(sym, pfn, version, flags, NULL);
}
