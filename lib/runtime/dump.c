#include "dump.h"

#include <limits.h>
#include <stdio.h>

#include "paths.h"
#include "report.h"
#include "status.h"

/* DIR/name.npy -> path, creating DIR if needed; INVENT_EIO on failure */
static int dump_path(const invent_opts *o, const char *name, char *path, size_t cap)
{
    if (paths_make_dirs(o->dump_dir) != 0) {
        report_error(o->program, "cannot create dump directory '%s'", o->dump_dir);
        return INVENT_EIO;
    }
    if ((size_t)snprintf(path, cap, "%s/%s.npy", o->dump_dir, name) >= cap) {
        report_error(o->program, "dump path too long for '%s'", name);
        return INVENT_EIO;
    }
    return INVENT_OK;
}

static int report_failure(const invent_opts *o, const char *path, int status)
{
    if (status != INVENT_OK)
        report_error(o->program, "cannot write '%s': %s", path, invent_strerror(status));
    return status;
}

int dump_matrix(const invent_opts *o, const char *name, const gsl_matrix *m)
{
    char path[PATH_MAX];
    if (!o->dump_dir)
        return INVENT_OK;
    int status = dump_path(o, name, path, sizeof path);
    if (status != INVENT_OK)
        return status;
    return report_failure(o, path, npy_save_matrix(path, m));
}

int dump_array(const invent_opts *o, const char *name, npy_dtype dtype, int ndim,
               const size_t *shape, const void *data)
{
    char path[PATH_MAX];
    if (!o->dump_dir)
        return INVENT_OK;
    int status = dump_path(o, name, path, sizeof path);
    if (status != INVENT_OK)
        return status;
    return report_failure(o, path, npy_save(path, dtype, ndim, shape, data));
}
