#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "a/b/c" -> "a/b", "a" -> ".", "/a" -> "/" (in place; trailing slashes dropped) */
static void to_parent(char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(path, ".");
    else if (slash == path)
        path[1] = '\0';
    else
        *slash = '\0';
}

/* mkdir(path) that counts in *made the directories it creates */
static int make_one(const char *path, int *made)
{
    if (mkdir(path, 0777) == 0) {
        ++*made;
        return 0;
    }
    return errno == EEXIST ? 0 : -1;
}

/* mkdir -p dir; *made counts the directories created, failure or not */
static int make_dirs(const char *dir, int *made)
{
    char buf[PATH_MAX];
    *made = 0;
    if (dir[0] == '\0') {
        errno = ENOENT;
        return -1;
    }
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) /* buf[0] may be '/': the root exists */
        if (*p == '/') {
            *p = '\0';
            if (make_one(buf, made) != 0)
                return -1;
            *p = '/';
        }
    return make_one(buf, made);
}

const char *paths_temp_dir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

int paths_make_dirs(const char *dir)
{
    int made;
    return make_dirs(dir, &made);
}

int paths_ready_dir_counted(const char *dir, int *made)
{
    struct stat st;
    if (make_dirs(dir, made) != 0)
        return -1;
    if (stat(dir, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return access(dir, W_OK | X_OK);
}

int paths_ready_dir(const char *dir)
{
    int made;
    return paths_ready_dir_counted(dir, &made);
}

void paths_unmake_dirs(const char *dir, int made)
{
    char buf[PATH_MAX];
    if (made <= 0 || snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return;
    int err = errno;
    for (; made > 0 && rmdir(buf) == 0; made--)
        to_parent(buf);
    errno = err;
}

/* path -> 0 when it is a directory we may create entries in */
static int writable_dir(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return access(path, W_OK | X_OK);
}

int paths_check_dir(const char *dir, size_t longest)
{
    char buf[PATH_MAX];
    struct stat st;
    size_t len = strlen(dir);
    if (len == 0) {
        errno = ENOENT;
        return -1;
    }
    if (len + 1 + longest >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, dir, len + 1);
    /* climb to the nearest existing ancestor: mkdir -p would start there */
    while (stat(buf, &st) != 0) {
        if (errno != ENOENT || strcmp(buf, ".") == 0)
            return -1;
        to_parent(buf);
    }
    return writable_dir(buf);
}

/* Files that take appended lines without blocking: regular files and
 * character devices (/dev/null, a terminal); not FIFOs, sockets, disks. */
static int appendable(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        errno = EISDIR;
    else if (!S_ISREG(st->st_mode) && !S_ISCHR(st->st_mode))
        errno = EINVAL;
    else
        return 1;
    return 0;
}

int paths_check_file(const char *path)
{
    char buf[PATH_MAX];
    struct stat st;
    size_t len = strlen(path);
    if (len == 0) {
        errno = ENOENT;
        return -1;
    }
    if (len >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (path[len - 1] == '/') {
        errno = EISDIR;
        return -1;
    }
    if (stat(path, &st) == 0)
        return appendable(&st) ? access(path, W_OK) : -1;
    if (errno != ENOENT)
        return -1;
    memcpy(buf, path, len + 1);
    to_parent(buf);
    return writable_dir(buf);
}

/* text (len bytes) -> fd, all of it; 0, or -1 with errno */
static int write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return -1;
        }
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

int paths_append(const char *path, const char *text, size_t len)
{
    /* O_NONBLOCK: opening a FIFO that nobody reads fails instead of waiting */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    struct stat st;
    int rc = fstat(fd, &st) == 0 && appendable(&st) ? 0 : -1;
    if (rc == 0 && S_ISCHR(st.st_mode))
        rc = fcntl(fd, F_SETFL, O_APPEND) == 0 ? 0 : -1;
    if (rc == 0 && write_all(fd, text, len) != 0) {
        int err = errno;
        if (S_ISREG(st.st_mode) && ftruncate(fd, st.st_size) != 0)
            err = errno;
        errno = err;
        rc = -1;
    }
    int err = errno;
    if (close(fd) != 0 && rc == 0)
        return -1;
    errno = err;
    return rc;
}

int paths_open_once(const char *path, int *created)
{
    int flags = O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC;
    int fd = open(path, flags | O_CREAT | O_EXCL, 0666);
    *created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, flags);
    if (fd < 0) {
        if (errno == ENXIO) /* a FIFO that nobody reads */
            errno = EINVAL;
        return -1;
    }
    struct stat st;
    int rc = fstat(fd, &st) == 0 && appendable(&st) ? 0 : -1;
    int err = errno;
    close(fd);
    if (rc != 0 && *created) {
        unlink(path);
        *created = 0;
    }
    errno = err;
    return rc;
}

int paths_file_open(paths_file *pf, const char *path)
{
    static unsigned counter;
    pf->f = NULL;
    if (snprintf(pf->path, sizeof pf->path, "%s", path) >= (int)sizeof pf->path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (int tries = 0; tries < 100; tries++) {
        int n = snprintf(pf->temp, sizeof pf->temp, "%s.tmp-%d-%u", path, (int)getpid(),
                         counter++);
        if (n < 0 || (size_t)n >= sizeof pf->temp || (size_t)n >= PATH_MAX) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(pf->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            return -1;
        pf->f = fdopen(fd, "wb");
        if (pf->f)
            return 0;
        int err = errno;
        close(fd);
        unlink(pf->temp);
        errno = err;
        return -1;
    }
    return -1;
}

int paths_file_commit(paths_file *pf, int ok)
{
    int err = ok ? 0 : (errno ? errno : EIO);
    if (fflush(pf->f) != 0 && !err)
        err = errno;
    else if (ferror(pf->f) && !err)
        err = EIO;
    if (fclose(pf->f) != 0 && !err)
        err = errno;
    pf->f = NULL;
    if (!err && rename(pf->temp, pf->path) != 0)
        err = errno;
    if (!err)
        return 0;
    unlink(pf->temp);
    errno = err;
    return -1;
}
