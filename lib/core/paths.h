/* Output directories: created on demand (like mkdir -p) and checked for
 * writing before a chapter starts its work. */
#ifndef INVENT_PATHS_H
#define INVENT_PATHS_H

/* dir -> dir and its missing parents exist; 0, or -1 with errno set */
int paths_make_dirs(const char *dir);

/* dir -> 0 when it exists (or was created) and is a writable directory,
 * else -1 with errno set (ENOTDIR for a plain file) */
int paths_ready_dir(const char *dir);

#endif
