/* audit-args.c — a parsed check's arguments by name (reports/audit-checks.h): the
 * evaluators of every check family read their typed arguments here, by the names that
 * slpi_audit_parse (reports/audit-lang.c) recorded from the language's table. Apart from
 * the table so that the families, which the table dispatches to, call nothing above them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/audit-checks.h"

int slpi_audit_find(const slpi_audit_args *x, const char *name)
{
    for (int k = 0; k < SLPI_AUDIT_MAXARG; k++)
        if (x->name[k] && !strcmp(x->name[k], name)) return k;
    return -1;
}

const slpi_audit_arg *slpi_audit_get(const slpi_audit_args *x, const char *name)
{
    int k = slpi_audit_find(x, name);
    if (k >= 0) return &x->arg[k];
    /* an evaluator asks for a name its row does not have: a programming error */
    fprintf(stderr, "audit: check word '%s' has no argument named %s (reports/audit-lang.c)\n", x->arg[0].s, name);
    abort();
}
