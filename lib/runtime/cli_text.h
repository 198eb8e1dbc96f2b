/* Options whose value is text (a file, a folder, a prompt), which the typed
 * options of cli.h do not cover: they are taken out of argv first, so that
 * chapter_parse sees only the rest. Accepted as `--name VALUE` or
 * `--name=VALUE`; a missing or empty value is one line on stderr, exit 2. */
#ifndef INVENT_CLI_TEXT_H
#define INVENT_CLI_TEXT_H

typedef struct {
    const char *name;   /* long name without dashes, e.g. "corpus" */
    const char **value; /* holds the default (or NULL) on entry, the text after */
    const char *help;   /* one line, for the chapter's --help summary */
} cli_text_option;

/* argv -> the values of the n options, removed from argv (*argc shrinks, the
 * order of the rest is kept); returns CLI_RUN, or 2 after one line on stderr
 * naming program */
int cli_take_text(int *argc, char **argv, const cli_text_option *opts, int n,
                  const char *program);

#endif
