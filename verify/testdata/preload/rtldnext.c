/* rtldnext.c: loaded RTLD_GLOBAL after the wrapper. dlsym(RTLD_NEXT) searches the objects after
 * this one: none defines rtldnext_probe, so the answer is NULL (0). A dlsym that lost its
 * caller would search after the wrapper and find this very function (1). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

__attribute__((visibility("default"))) int rtldnext_probe(void)
{
	void *p = dlsym(RTLD_NEXT, "rtldnext_probe");
	return p == NULL ? 0 : p == (void *)rtldnext_probe ? 1 : 2;
}
