/* Results files (results_file.h). */
#include "results_file.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

#include "paths.h"

#ifndef INVENT_RESULTS_DIR
#define INVENT_RESULTS_DIR "results" /* the build names it absolutely */
#endif

void results_command(int argc, char **argv, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < argc && n < len; i++) {
        int w = snprintf(out + n, len - n, "%s%s", i ? " " : "", argv[i]);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

const char *results_check(const char *path)
{
    struct stat st;
    if (strlen(path) + PATHS_TEMP_EXTRA >= PATH_MAX)
        return strerror(ENAMETOOLONG);
    if (paths_check_file(path) != 0)
        return strerror(errno);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return "not a regular file (the table is written beside it and renamed over it)";
    return NULL;
}

int results_sibling(const char *path, const char *name, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    int folder = slash ? (int)(slash - path + 1) : 0;
    int w = snprintf(out, len, "%.*s%s", folder, path, name);
    return w < 0 || (size_t)w >= len ? -1 : 0;
}

const char *results_check_beside(const char *path, const char *name)
{
    char side[PATH_MAX];
    if (results_sibling(path, name, side, sizeof side) != 0)
        return "no room for its name";
    return results_check(side);
}

const char *results_stored(const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", INVENT_RESULTS_DIR, name);
    return out;
}

void results_stamp(FILE *f, const char *what, const char *command, int threads)
{
    struct utsname u;
    time_t now = time(NULL);
    char date[40];
    uname(&u);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(f, "# %s; command: %s\n", what, command);
    fprintf(f, "# date: %s; machine: %s %s, %d worker thread%s", date, u.nodename, u.machine,
            threads, threads == 1 ? "" : "s");
}
