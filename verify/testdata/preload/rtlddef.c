/* rtlddef.c: loaded RTLD_LOCAL, linked against libdep.so. dlsym(RTLD_DEFAULT) searches the
 * caller's scope, which holds its dependency: dep_marker is found (1). A dlsym that lost its
 * caller would search the global scope only and miss it (0). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

int dep_marker(void);

__attribute__((visibility("default"))) int rtlddef_probe(void)
{
	return dlsym(RTLD_DEFAULT, "dep_marker") != NULL ? dep_marker() : 0;
}
