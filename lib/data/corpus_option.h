/* The --corpus option of chapters 13 and 14: a corpus loaded before any work,
 * or refused with one line that says why. */
#ifndef INVENT_CORPUS_OPTION_H
#define INVENT_CORPUS_OPTION_H

#include <stddef.h>

#include "cli.h"
#include "corpus.h"

/* o, path, context -> *text and CLI_RUN; or one line on stderr and the
 * refusal's status (cli_fail), before any work, when the path has a control
 * character, is missing or unreadable, is neither a regular file nor a
 * folder (a FIFO, /dev/zero), holds more than CORPUS_MAX_BYTES or no text
 * or one distinct byte, or when its held-out tenth cannot hold one context
 * of `context` characters and the next one (*text is then freed by the
 * caller) */
int corpus_option_load(const invent_opts *o, const char *path, size_t context, corpus **text);

#endif
