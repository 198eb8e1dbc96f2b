/* The command line every chapter shares: common flags plus typed,
 * range-checked options for the chapter's own sizes (getopt_long). */
#ifndef INVENT_CLI_H
#define INVENT_CLI_H

#include <stddef.h>

#include "report.h" /* invent_opts, the flags every chapter accepts */

typedef enum { CLI_SIZE, CLI_DOUBLE, CLI_FLAG } cli_kind;

/* One chapter-specific option; value points at a size_t, double or int. */
typedef struct {
    const char *name;  /* long name without dashes, e.g. "seq" */
    cli_kind kind;
    void *value;       /* holds the default on entry, the parsed value after */
    double min, max;   /* inclusive range (ignored for CLI_FLAG) */
    const char *help;  /* one line for --help */
} cli_option;

/* What the chapter is, for --help. */
typedef struct {
    const char *program;     /* "ch01" */
    const char *summary;     /* one line: what this program shows */
    const cli_option *options;
    int n_options;
} cli_spec;

/* Sentinel returned by cli_parse when the program should go on running. */
#define CLI_RUN (-1)

/* argv -> opts and option values; returns CLI_RUN, or the exit code to
 * return now (0 after --help, 2 after one line on stderr for bad input) */
int cli_parse(int argc, char **argv, const cli_spec *spec, invent_opts *opts);

/* Reports a constraint between options ("--heads must divide --dim") as one
 * line on stderr, in the same style as cli_parse; returns 2, the exit code. */
int cli_fail(const invent_opts *opts, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* a path option's value -> CLI_RUN when it is not empty and has no control
 * character (a newline in it would break the one-line messages about it),
 * else one line on stderr and 2 */
int cli_check_path(const invent_opts *opts, const char *flag, const char *arg);

#endif
