/* A test's own folder for the files it writes: made by mkdtemp under
 * $TMPDIR (/tmp where it is unset: paths_temp_dir), so that no two runs or
 * users meet in one name, and removed with all it holds when the test ends. Use as a suite's (or a test's) fixtures:
 *   TestSuite(x, .init = private_dir_make, .fini = private_dir_remove); */
#ifndef INVENT_TEST_PRIVATE_DIR_H
#define INVENT_TEST_PRIVATE_DIR_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"

static char private_dir[PATH_MAX];

static void private_dir_make(void)
{
    int n = snprintf(private_dir, sizeof private_dir, "%s/invent-test-XXXXXX",
                     paths_temp_dir());
    cr_assert(n > 0 && (size_t)n < sizeof private_dir, "TMPDIR is too long");
    cr_assert_not_null(mkdtemp(private_dir), "cannot make a folder in %s", paths_temp_dir());
}

/* path -> 0 when it and (for a folder, not followed if a link) all below
 * it are removed */
static int private_remove_tree(const char *path)
{
    struct stat st;
    DIR *d = lstat(path, &st) == 0 && S_ISDIR(st.st_mode) ? opendir(path) : NULL;
    int bad = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char below[PATH_MAX];
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            bad |= snprintf(below, sizeof below, "%s/%s", path, e->d_name) >= (int)sizeof below ||
                   private_remove_tree(below);
    }
    if (d)
        closedir(d);
    return bad | remove(path);
}

static void private_dir_remove(void)
{
    if (private_dir[0])
        cr_assert_eq(private_remove_tree(private_dir), 0, "cannot remove %s", private_dir);
}

/* name -> buf: private_dir/name (size bytes) */
static const char *private_path(char *buf, size_t size, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", private_dir, name);
    cr_assert(n > 0 && (size_t)n < size, "path too long: %s/%s", private_dir, name);
    return buf;
}

#endif
