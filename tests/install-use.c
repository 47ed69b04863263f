/* install-use.c — the smallest program against an installed libslpi (t-install.sh,
 * t-install-user.sh): prints "rigid-body 3". */
#include <slpi.h>
#include <stdio.h>
int main(void)
{
    slpi_problem *p = slpi_problem_new(NULL); /* opaque: made by the library */
    char system[64];
    if (!p || slpi_problem_get_key(p, "system", system, sizeof system) < 0) return 1;
    printf("%s %d\n", system, slpi_problem_state_dim(p));
    slpi_problem_free(p);
    return 0;
}
