/* The opening every chapter that learns from a text (13, 14) shares: its
 * text options taken out of argv (--corpus, ...), the common and the
 * chapter's own flags parsed, the sizes left at 0 filled in, the settings
 * and the corpus checked, the title printed; bad input gets one line on
 * stderr and its exit status before any work. */
#ifndef INVENT_TEXT_CHAPTER_H
#define INVENT_TEXT_CHAPTER_H

#include "chapter.h"
#include "cli_text.h"
#include "corpus.h"

typedef struct {
    const cli_text_option *texts; /* (n_texts) the text options */
    int n_texts;
    const cli_spec *spec;         /* the chapter's flags */
    const char *title;
    void *settings;               /* what the flags fill */
    void (*defaults)(void *settings); /* the sizes left at 0 <- the mode's */
    /* settings -> CLI_RUN with *text loaded, or the exit status (after cli_fail) */
    int (*check)(const invent_opts *o, void *settings, corpus **text);
} text_chapter;

/* c, argc, argv -> CLI_RUN with *o parsed and *text loaded (the caller frees it), or the
 * status to exit with (nothing left allocated) */
int text_chapter_open(const text_chapter *c, int argc, char **argv, invent_opts *o,
                      corpus **text);

#endif
