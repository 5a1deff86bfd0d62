/*
 * glibc_compat.h: included (-include) into the verify wrapper (verify/shim/cudaforkshim.c) when
 * scripts/release builds it, so that the wrapper built on a new glibc loads into the programs of
 * any glibc from 2.17 on (the manylinux2014 floor the wheels claim).
 *
 * glibc 2.34 moved the dl* functions from libdl into libc and gave them the new version
 * GLIBC_2.34, keeping the old versions as compatibility symbols. A wrapper linked on such a glibc
 * asks for dlclose@GLIBC_2.34 and fails to load on an older one. Binding to the old versions,
 * which every glibc since the architecture's first release exports, and linking libdl.so.2 by
 * name (-l:libdl.so.2, where they live before 2.34) makes it load on both.
 *
 * A .symver on a function the wrapper does not call is harmless; one on a function it defines
 * would rename the definition, so dlsym and dlopen, which it defines to interpose them (it reaches
 * the real ones through dlvsym and dlsym(RTLD_NEXT)), are not here. The four
 * below have the same baseline version on both architectures (dladdr1, dlinfo and dlmopen do not:
 * add them with their own versions if the wrapper comes to call them). artifact.CheckShim rejects
 * any symbol version newer than 2.17 that a change to the wrapper brings in.
 */
#if defined(__x86_64__)
#define CUDAFORKLINT_DL_VERSION "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define CUDAFORKLINT_DL_VERSION "GLIBC_2.17"
#else
#error "glibc_compat.h: no baseline glibc version for this architecture"
#endif

__asm__(".symver dlclose,dlclose@" CUDAFORKLINT_DL_VERSION);
__asm__(".symver dlerror,dlerror@" CUDAFORKLINT_DL_VERSION);
__asm__(".symver dlvsym,dlvsym@" CUDAFORKLINT_DL_VERSION);
__asm__(".symver dladdr,dladdr@" CUDAFORKLINT_DL_VERSION);
