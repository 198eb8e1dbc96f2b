#include "dump.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "report.h"
#include "status.h"

static int failures;

int dump_failures(void) { return failures; }

/* The first failure is reported and stops the dumping; -> INVENT_EIO */
static int fail(const invent_opts *o, const char *path, const char *reason)
{
    if (failures++ == 0)
        report_error(o->program, "cannot write '%s' (%s); no further tensors dumped", path,
                     reason);
    return INVENT_EIO;
}

/* DIR/file -> path; an error status (reported) when it cannot be written */
static int dump_path(const invent_opts *o, const char *file, char *path, size_t cap)
{
    if (failures)
        return INVENT_EIO;
    if (strlen(file) > DUMP_NAME_MAX + 4)
        return fail(o, file, "the name is longer than DUMP_NAME_MAX");
    if ((size_t)snprintf(path, cap, "%s/%s", o->dump_dir, file) >= cap)
        return fail(o, file, strerror(ENAMETOOLONG));
    if (paths_make_dirs(o->dump_dir) != 0) /* made by chapter_start; removed since? */
        return fail(o, path, strerror(errno));
    return INVENT_OK;
}

/* status of npy_save -> the same status, reported when it is an error */
static int saved(const invent_opts *o, const char *path, int status)
{
    if (status == INVENT_OK)
        return status;
    fail(o, path, status == INVENT_EIO ? strerror(errno) : invent_strerror(status));
    return status;
}

int dump_matrix(const invent_opts *o, const char *name, const gsl_matrix *m)
{
    char file[DUMP_NAME_MAX + 8], path[PATH_MAX];
    if (!o->dump_dir)
        return INVENT_OK;
    snprintf(file, sizeof file, "%.*s.npy", DUMP_NAME_MAX + 1, name);
    int status = dump_path(o, file, path, sizeof path);
    return status != INVENT_OK ? status : saved(o, path, npy_save_matrix(path, m));
}

int dump_array(const invent_opts *o, const char *name, npy_dtype dtype, int ndim,
               const size_t *shape, const void *data)
{
    char file[DUMP_NAME_MAX + 8], path[PATH_MAX];
    if (!o->dump_dir)
        return INVENT_OK;
    snprintf(file, sizeof file, "%.*s.npy", DUMP_NAME_MAX + 1, name);
    int status = dump_path(o, file, path, sizeof path);
    return status != INVENT_OK ? status
                               : saved(o, path, npy_save(path, dtype, ndim, shape, data));
}

int dump_text(const invent_opts *o, const char *file,
              int (*write_text)(FILE *f, const void *ctx), const void *ctx)
{
    char path[PATH_MAX];
    paths_file out;
    if (!o->dump_dir)
        return INVENT_OK;
    int status = dump_path(o, file, path, sizeof path);
    if (status != INVENT_OK)
        return status;
    if (paths_file_open(&out, path) != 0)
        return fail(o, path, strerror(errno));
    errno = 0;
    int ok = write_text(out.f, ctx) == 0;
    if (paths_file_commit(&out, ok) != 0)
        return fail(o, path, errno ? strerror(errno) : "the data could not be written");
    return INVENT_OK;
}
