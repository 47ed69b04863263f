/* golden-dir.c — where the golden files are: the installed copy beside the running
 * program ($(PREFIX)/bin/slpi finds $(PREFIX)/share/slpi/golden through
 * /proc/self/exe, so a DESTDIR or relocated install works too), else the source
 * tree's oracle/golden relative to the working directory (a build that is not
 * installed), else the folder the library was configured to install them in
 * (SLPI_DATADIR, for other programs linking the installed library). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slpi/tools.h"

#ifndef SLPI_DATADIR
#define SLPI_DATADIR "/usr/local/share/slpi"
#endif

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *slpi_golden_dir(void)
{
    static _Thread_local char dir[PATH_MAX + 32];
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(dir, sizeof dir, "%s/../share/slpi/golden", exe);
            if (is_dir(dir)) return dir;
        }
    }
    if (!is_dir("oracle/golden") && is_dir(SLPI_DATADIR "/golden")) return SLPI_DATADIR "/golden";
    return "oracle/golden";
}
