/* Output paths: directories checked before a chapter starts its work and
 * created on demand (like mkdir -p); files written whole or not at all.
 * Every function returns 0, or -1 with errno set. */
#ifndef INVENT_PATHS_H
#define INVENT_PATHS_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/* Characters a temporary name adds to the final one (".tmp-PID-N"). */
#define PATHS_TEMP_EXTRA 26

/* -> where temporary files go: $TMPDIR, or /tmp where it is unset or empty */
const char *paths_temp_dir(void);

/* dir -> dir and its missing parents exist (ENOENT for an empty name) */
int paths_make_dirs(const char *dir);

/* dir -> 0 when it exists (or was created) and is a writable directory,
 * else -1 with errno set (ENOTDIR for a plain file) */
int paths_ready_dir(const char *dir);

/* The same, and *made = how many directories it created (the last
 * components of dir), also when it fails halfway. */
int paths_ready_dir_counted(const char *dir, int *made);

/* Removes the `made` last components of dir, as paths_ready_dir_counted
 * created them (empty): undoes a start that failed further on. */
void paths_unmake_dirs(const char *dir, int made);

/* dir -> 0 when it is a writable directory, or could be created as one
 * (its nearest existing ancestor is a writable directory), and a name of
 * `longest` characters inside it stays under PATH_MAX. Nothing is created.
 * errno: ENOENT (empty), ENOTDIR, EACCES, ENAMETOOLONG, ... */
int paths_check_dir(const char *dir, size_t longest);

/* path -> 0 when lines can be appended to it without blocking: a writable
 * regular file or character device (/dev/null, a terminal), or a new file
 * in a writable directory. Nothing is created. errno: EISDIR, EINVAL (a
 * FIFO, socket or block device, where a write could block), ENOENT, ... */
int paths_check_file(const char *path);

/* path -> 0 when it opens for appending now, created if missing (*created
 * says whether it was): what paths_check_file cannot foresee (/proc, a
 * FIFO's reader gone) fails here, before any work. Writes nothing. */
int paths_open_once(const char *path, int *created);

/* text (len bytes) -> appended to path in one piece (created if missing);
 * on a failed or short write the file is cut back to its old length.
 * Refuses what paths_check_file refuses, without ever blocking on a FIFO. */
int paths_append(const char *path, const char *text, size_t len);

/* A file written whole or not at all: the writes go to a temporary name
 * beside the final one, and paths_file_commit renames it into place. */
typedef struct {
    FILE *f;                             /* write here */
    char path[PATH_MAX];                 /* the final name */
    char temp[PATH_MAX + PATHS_TEMP_EXTRA];
} paths_file;

/* path -> pf->f open for writing (binary) on a new temporary file */
int paths_file_open(paths_file *pf, const char *path);

/* Closes pf->f; when every write succeeded, renames the temporary file to
 * the final name, else (or when ok is 0) removes it. */
int paths_file_commit(paths_file *pf, int ok);

#endif
