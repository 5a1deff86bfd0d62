/* dep.c: a dependency of librtlddef.so, in its local scope only. */
__attribute__((visibility("default"))) int dep_marker(void) { return 1; }
