/* static_hello.c: a statically linked program, which no LD_PRELOAD object can enter (the verify
 * tests' "statically linked interpreter"). Prints one line and exits 0. */
#include <stdio.h>

int main(void)
{
	puts("STATIC_OK");
	return 0;
}
