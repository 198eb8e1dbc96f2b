/* The --corpus option of chapters 13 and 14: a corpus loaded before any work,
 * or refused with one line that says why. */
#ifndef INVENT_CORPUS_OPTION_H
#define INVENT_CORPUS_OPTION_H

#include <stddef.h>

#include "cli.h"
#include "corpus.h"

/* o, path, context -> *text and CLI_RUN; or one line on stderr and the
 * refusal's status (cli_fail) when the file is missing, unreadable or holds
 * no text, or when its held-out tenth cannot hold one context of `context`
 * characters and the next one (*text is then freed by the caller) */
int corpus_option_load(const invent_opts *o, const char *path, size_t context, corpus **text);

#endif
