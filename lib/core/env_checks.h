/* Checks of the environment variables a layer reads (INVENT_THREADS and
 * INVENT_SIMD in the kernels), kept where every layer can reach them: a layer
 * registers its check once, from a constructor in the file that reads the
 * variable, and the runtime runs them all while it parses the flags, so a bad
 * value is refused before any work or output. */
#ifndef INVENT_ENV_CHECKS_H
#define INVENT_ENV_CHECKS_H

#include <stddef.h>

/* -> INVENT_OK, or another status and a one-line reason in why (size bytes) */
typedef int (*env_check_fn)(char *why, size_t size);

/* check -> kept for env_checks_run (once, however often it is added) */
void env_checks_add(env_check_fn check);

/* every registered check, in order -> the first failure's status and reason, or INVENT_OK */
int env_checks_run(char *why, size_t size);

#endif
