#define _GNU_SOURCE /* renameat2 */
#include "checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "npy.h"
#include "paths.h"
#include "status.h"

#define SHAPE_FIELDS 7
#define TEMP_SUFFIX ".tmp-XXXXXX" /* mkdtemp's template, beside the target */
#define FILE_SLACK 4096           /* one file's header and its last block, at most */

/* dir, name -> "dir/name.npy" in buf (PATH_MAX bytes); "" when it does
 * not fit, which no file opens */
static const char *file_in(char *buf, const char *dir, const char *name)
{
    if (snprintf(buf, PATH_MAX, "%s/%s.npy", dir, name) >= PATH_MAX)
        buf[0] = '\0';
    return buf;
}

size_t checkpoint_bytes(const gpt_shape *shape)
{
    return (gpt_param_count(shape) + SHAPE_FIELDS + 256 + 1) * sizeof(double) +
           (gpt_tensor_count(shape) + 3) * FILE_SLACK;
}

/* ------------------------------------------------------------ the target */

/* dir -> target (trailing slashes dropped) and temp, the temporary folder's
 * template beside it; -1 and *why when a name is too long for either */
static int target_names(const char *dir, char *target, char *temp, const char **why)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    *why = "the path is too long";
    if (n + sizeof TEMP_SUFFIX > PATH_MAX)
        return -1;
    memcpy(target, dir, n);
    target[n] = '\0';
    for (const char *p = target; *p;) {
        size_t part = strcspn(p, "/"), last = p[part] == '\0';
        *why = "a name in the path is longer than NAME_MAX (255 bytes), with room for "
               "the temporary name beside it";
        if (part + (last ? sizeof TEMP_SUFFIX - 1 : 0) > NAME_MAX)
            return -1;
        p += part + !last;
    }
    snprintf(temp, PATH_MAX, "%s%s", target, TEMP_SUFFIX);
    return 0;
}

/* target -> 0: missing; 1: an empty folder or a checkpoint (only .npy files,
 * shape.npy among them), which a save replaces; -1 and *why otherwise */
static int existing_target(const char *target, const char **why)
{
    struct stat st;
    if (lstat(target, &st) != 0) {
        *why = strerror(errno);
        return errno == ENOENT ? 0 : -1;
    }
    *why = "it exists and is not a folder";
    if (!S_ISDIR(st.st_mode))
        return -1;
    DIR *d = opendir(target);
    *why = strerror(errno);
    if (!d)
        return -1;
    size_t entries = 0, others = 0, shape = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        entries++;
        others += len < 5 || strcmp(e->d_name + len - 4, ".npy") != 0;
        shape += strcmp(e->d_name, "shape.npy") == 0;
    }
    closedir(d);
    *why = "a folder that holds other files than a checkpoint's (give a new folder, an "
           "empty one, or a checkpoint to replace)";
    return entries == 0 || (others == 0 && shape == 1) ? 1 : -1;
}

/* target -> its parent folder in parent (PATH_MAX bytes), "." for a bare name */
static void parent_of(const char *target, char *parent)
{
    snprintf(parent, PATH_MAX, "%s", target);
    char *slash = strrchr(parent, '/');
    if (!slash)
        snprintf(parent, PATH_MAX, ".");
    else
        slash[slash == parent] = '\0'; /* "/a" -> "/", "a/b" -> "a" */
}

/* target -> 1 when it lies in /dev, /proc or /sys (its nearest existing
 * folder, links resolved), where a checkpoint has no place */
static int in_kernel_folder(const char *target)
{
    char at[PATH_MAX], real[PATH_MAX];
    snprintf(at, sizeof at, "%s", target);
    while (!realpath(at, real)) {
        char up[PATH_MAX];
        parent_of(at, up);
        if (strcmp(up, at) == 0)
            return 0;
        snprintf(at, sizeof at, "%s", up);
    }
    const char *kernel[] = {"/dev", "/proc", "/sys"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(kernel[k]);
        if (strncmp(real, kernel[k], n) == 0 && (real[n] == '/' || real[n] == '\0'))
            return 1;
    }
    return 0;
}

/* temp, bytes -> 0 when the file system under the folder temp has room */
static int has_room(const char *temp, size_t bytes)
{
    struct statvfs v;
    return statvfs(temp, &v) != 0 || (double)v.f_bavail * (double)v.f_frsize >= (double)bytes;
}

int checkpoint_check_target(const char *dir, size_t bytes, const char **why)
{
    char target[PATH_MAX], temp[PATH_MAX], parent[PATH_MAX];
    if (target_names(dir, target, temp, why) != 0 || existing_target(target, why) < 0)
        return INVENT_EIO;
    *why = "a device or kernel folder (/dev, /proc, /sys)";
    if (in_kernel_folder(target))
        return INVENT_EIO;
    parent_of(target, parent);
    int made = 0, status = INVENT_EIO;
    if (paths_ready_dir_counted(parent, &made) != 0)
        *why = strerror(errno);
    else if (!mkdtemp(temp))
        *why = strerror(errno);
    else {
        status = has_room(temp, bytes) ? INVENT_OK : INVENT_EIO;
        *why = "not enough free space for the checkpoint";
        rmdir(temp);
    }
    paths_unmake_dirs(parent, made);
    return status;
}

/* ------------------------------------------------------------------ save */

/* folder -> every file in it and the folder itself synced to the disk */
static int sync_folder(const char *folder)
{
    DIR *d = opendir(folder);
    if (!d)
        return -1;
    int ok = 1;
    for (struct dirent *e; ok && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC);
        ok = fd >= 0 && fsync(fd) == 0;
        if (fd >= 0)
            close(fd);
    }
    ok = ok && fsync(dirfd(d)) == 0;
    int keep = errno;
    closedir(d);
    errno = keep;
    return ok ? 0 : -1;
}

/* folder -> removed with the files in it (a save's own temporary folder,
 * or the checkpoint it replaced) */
static void remove_folder(const char *folder)
{
    int keep = errno;
    DIR *d = opendir(folder);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
    rmdir(folder);
    errno = keep;
}

/* w, symbols -> the checkpoint's files in folder */
static int write_files(const char *folder, gpt_weights *w, const unsigned char *symbols)
{
    const gpt_shape *s = &w->shape;
    double fields[SHAPE_FIELDS] = {(double)s->vocab, (double)s->context, (double)s->dim,
                                   (double)s->heads, (double)s->layers,  (double)s->hidden,
                                   s->norm == BLOCK_POST_NORM};
    double vocab[256], eps[1] = {w->eps};
    for (size_t k = 0; k < s->vocab; k++)
        vocab[k] = symbols[k];
    char path[PATH_MAX];
    size_t one[1] = {SHAPE_FIELDS}, v[1] = {s->vocab}, n_eps[1] = {1};
    int status = npy_save(file_in(path, folder, "shape"), NPY_F64, 1, one, fields);
    if (status == INVENT_OK)
        status = npy_save(file_in(path, folder, "vocab"), NPY_F64, 1, v, vocab);
    if (status == INVENT_OK)
        status = npy_save(file_in(path, folder, "eps"), NPY_F64, 1, n_eps, eps);
    size_t count = gpt_tensor_count(s);
    tensor_ref t[count];
    gpt_tensors(w, NULL, t);
    for (size_t k = 0; k < count && status == INVENT_OK; k++)
        status = npy_save(file_in(path, folder, t[k].name), NPY_F64, t[k].ndim, t[k].shape,
                          t[k].value);
    return status == INVENT_OK && sync_folder(folder) != 0 ? INVENT_EIO : status;
}

/* temp (a whole, synced checkpoint) -> at target in one step: a rename
 * where target is missing or an empty folder, else an exchange of the two
 * names (the old checkpoint then removed); the parent synced */
static int put_in_place(const char *temp, const char *target)
{
    if (rename(temp, target) != 0) {
        if (errno != ENOTEMPTY && errno != EEXIST)
            return -1;
        if (renameat2(AT_FDCWD, temp, AT_FDCWD, target, RENAME_EXCHANGE) != 0)
            return -1;
        remove_folder(temp); /* the replaced checkpoint, now under the temporary name */
    }
    char parent[PATH_MAX];
    parent_of(target, parent);
    int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int ok = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
    return ok ? 0 : -1;
}

int checkpoint_save(const char *dir, gpt_weights *w, const unsigned char *symbols)
{
    char target[PATH_MAX], temp[PATH_MAX], parent[PATH_MAX];
    const char *why;
    if (!gpt_one_eps(w)) /* eps.npy holds one number */
        return INVENT_ERANGE;
    if (target_names(dir, target, temp, &why) != 0) {
        errno = ENAMETOOLONG;
        return INVENT_EIO;
    }
    if (existing_target(target, &why) < 0) {
        errno = errno ? errno : EEXIST;
        return INVENT_EIO;
    }
    parent_of(target, parent);
    if (paths_make_dirs(parent) != 0 || !mkdtemp(temp))
        return INVENT_EIO;
    int status = write_files(temp, w, symbols);
    if (status == INVENT_OK && put_in_place(temp, target) != 0)
        status = INVENT_EIO;
    if (status != INVENT_OK)
        remove_folder(temp);
    return status;
}

/* ------------------------------------------------------------------ load */

/* dir/name.npy -> a 1-D float64 array of at most max numbers in out, *n of
 * them; why (len bytes) says what is wrong otherwise */
static int read_numbers(const char *dir, const char *name, double *out, size_t max, size_t *n,
                        char *why, size_t len)
{
    char path[PATH_MAX];
    npy_array a;
    const char *reason;
    int status = npy_read(file_in(path, dir, name), &a, &reason);
    if (status == INVENT_EIO)
        reason = strerror(errno);
    else if (status == INVENT_OK && (a.dtype != NPY_F64 || a.ndim != 1 || a.shape[0] > max)) {
        status = INVENT_EFORMAT;
        reason = "not a short list of float64 numbers (one for eps, at most 256 for the rest)";
    } else if (status == INVENT_OK)
        memcpy(out, a.data, (*n = a.shape[0]) * sizeof(double));
    if (status != INVENT_OK)
        snprintf(why, len, "%s.npy: %s", name, reason);
    npy_free(&a);
    return status;
}

/* x -> 1 when it is a whole number from lo to hi */
static int whole_in(double x, double lo, double hi)
{
    return isfinite(x) && x == floor(x) && x >= lo && x <= hi;
}

/* f: (7) the sizes, v: (nv) the bytes -> 1 when they are a model's */
static int fields_hold(const double *f, const double *v, size_t nv, char *why, size_t len)
{
    const char *names[SHAPE_FIELDS] = {"vocabulary", "context", "width", "heads",
                                       "layers",     "hidden",  "post-norm flag"};
    for (int k = 0; k < SHAPE_FIELDS; k++) {
        double hi = k == 0 ? 256 : k == SHAPE_FIELDS - 1 ? 1 : CHECKPOINT_MAX_SIZE;
        if (!whole_in(f[k], k == SHAPE_FIELDS - 1 ? 0 : 1, hi)) {
            snprintf(why, len, "shape.npy: its %s (%g) is not a whole number from %d to %g",
                     names[k], f[k], k == SHAPE_FIELDS - 1 ? 0 : 1, hi);
            return 0;
        }
    }
    if (nv != (size_t)f[0]) {
        snprintf(why, len, "vocab.npy: %zu symbols, shape.npy says %g", nv, f[0]);
        return 0;
    }
    for (size_t k = 0; k < nv; k++)
        if (!whole_in(v[k], 0, 255) || (k > 0 && v[k] <= v[k - 1])) {
            snprintf(why, len, "vocab.npy: symbol %zu (%g) is not a byte above the one "
                               "before it (the bytes must be distinct, in order)", k, v[k]);
            return 0;
        }
    return 1;
}

int checkpoint_peek(const char *dir, gpt_shape *shape, unsigned char *symbols, size_t *vocab,
                    char *why, size_t len)
{
    double f[SHAPE_FIELDS], v[256];
    size_t n, nv;
    int status = read_numbers(dir, "shape", f, SHAPE_FIELDS, &n, why, len);
    if (status == INVENT_OK && n != SHAPE_FIELDS) {
        snprintf(why, len, "shape.npy: %zu numbers, not %d", n, SHAPE_FIELDS);
        status = INVENT_EFORMAT;
    }
    if (status == INVENT_OK)
        status = read_numbers(dir, "vocab", v, 256, &nv, why, len);
    if (status == INVENT_OK && !fields_hold(f, v, nv, why, len))
        status = INVENT_EFORMAT;
    if (status != INVENT_OK)
        return status;
    *shape = (gpt_shape){.vocab = (size_t)f[0], .context = (size_t)f[1], .dim = (size_t)f[2],
                         .heads = (size_t)f[3], .layers = (size_t)f[4], .hidden = (size_t)f[5],
                         .norm = f[6] != 0.0 ? BLOCK_POST_NORM : BLOCK_PRE_NORM};
    for (size_t k = 0; k < nv; k++)
        symbols[k] = (unsigned char)v[k];
    *vocab = nv;
    return INVENT_OK;
}

/* a: a file's array, t: the tensor it must fill -> INVENT_OK, or the
 * status and *reason of the first thing wrong with it */
static int tensor_fits(const npy_array *a, const tensor_ref *t, const char **reason)
{
    *reason = "float32 values (a checkpoint holds float64)";
    if (a->dtype != NPY_F64)
        return INVENT_EFORMAT;
    *reason = "its shape does not match the sizes in shape.npy";
    if (a->ndim != t->ndim || a->shape[0] != t->shape[0] ||
        (t->ndim == 2 && a->shape[1] != t->shape[1]))
        return INVENT_ESHAPE;
    const double *x = a->data;
    for (size_t i = 0; i < t->size; i++)
        if (!(fabs(x[i]) <= CHECKPOINT_MAX_ABS)) {
            *reason = isfinite(x[i]) ? "a weight beyond 1e6 in magnitude" : "NaN or inf";
            return INVENT_EFORMAT;
        }
    return INVENT_OK;
}

/* one tensor <- its file; bad (len bytes) <- "name: reason" on failure */
static int load_tensor(const char *dir, tensor_ref *t, char *bad, size_t len)
{
    char path[PATH_MAX];
    npy_array a;
    const char *reason;
    int status = npy_read(file_in(path, dir, t->name), &a, &reason);
    if (status == INVENT_EIO)
        reason = strerror(errno);
    if (status == INVENT_OK)
        status = tensor_fits(&a, t, &reason);
    if (status == INVENT_OK)
        memcpy(t->value, a.data, t->size * sizeof(double));
    else
        snprintf(bad, len, "%s: %s", t->name, reason);
    npy_free(&a);
    return status;
}

/* dir -> *eps from eps.npy, one number in (0, CHECKPOINT_MAX_EPS]; CHECKPOINT_OLD_EPS when
 * the file is missing (a checkpoint from before eps.npy); else the status, bad <- why */
static int load_eps(const char *dir, double *eps, char *bad, size_t len)
{
    char path[PATH_MAX];
    size_t n;
    if (access(file_in(path, dir, "eps"), F_OK) != 0 && errno == ENOENT) {
        *eps = CHECKPOINT_OLD_EPS;
        return INVENT_OK;
    }
    int status = read_numbers(dir, "eps", eps, 1, &n, bad, len);
    if (status == INVENT_OK && (n != 1 || !(*eps > 0.0 && *eps <= CHECKPOINT_MAX_EPS))) {
        snprintf(bad, len, "eps.npy: not one number above 0 and at most %g", CHECKPOINT_MAX_EPS);
        status = INVENT_EFORMAT;
    }
    return status;
}

int checkpoint_load(const char *dir, gpt_weights *w, char *bad, size_t len)
{
    size_t count = gpt_tensor_count(&w->shape);
    tensor_ref t[count];
    gpt_tensors(w, NULL, t);
    double eps;
    int status = load_eps(dir, &eps, bad, len);
    for (size_t k = 0; k < count && status == INVENT_OK; k++)
        status = load_tensor(dir, &t[k], bad, len);
    if (status == INVENT_OK)
        gpt_set_eps(w, eps);
    return status;
}

void checkpoint_remove(const char *dir, gpt_weights *w)
{
    char path[PATH_MAX];
    size_t count = gpt_tensor_count(&w->shape);
    tensor_ref t[count];
    gpt_tensors(w, NULL, t);
    for (size_t k = 0; k < count; k++)
        unlink(file_in(path, dir, t[k].name));
    unlink(file_in(path, dir, "shape"));
    unlink(file_in(path, dir, "vocab"));
    unlink(file_in(path, dir, "eps"));
    int keep = errno;
    rmdir(dir);
    errno = keep;
}
