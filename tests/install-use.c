/* install-use.c — the smallest program against an installed libslpi (t-install.sh,
 * t-install-user.sh): prints "rigid-body 3". */
#include <slpi.h>
#include <stdio.h>
int main(void)
{
    slpi_problem p;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    printf("%s %d\n", slpi_system_name(p.system), slpi_problem_state_dim(&p));
    return 0;
}
