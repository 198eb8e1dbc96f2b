/* The one place the library prints: narration, section titles, warnings and
 * errors. Narration is silenced by --quiet; errors and warnings never are. */
#ifndef INVENT_REPORT_H
#define INVENT_REPORT_H

#include <stdarg.h>

/* The flags every chapter accepts, after parsing (cli_parse, cli.h); the
 * report reads the program's name and --quiet. Defined here, below the
 * command line, so that the report includes nothing of cli.h. */
typedef struct {
    const char *program;     /* short name used in messages, e.g. "ch01" */
    unsigned long seed;      /* --seed N */
    int quiet;               /* --quiet: no narration, only failed claims */
    int no_plot;             /* --no-plot: skip figures */
    const char *dump_dir;    /* --dump DIR, or NULL */
    const char *plot_dir;    /* --plot-dir DIR */
    const char *claims_file; /* --claims FILE, or NULL */
} invent_opts;

/* A chapter's title and the step of the derivation it covers. */
void report_title(const invent_opts *o, const char *title);

/* A section heading inside a chapter. */
void report_section(const invent_opts *o, const char *heading);

/* A paragraph of narration, wrapped to 78 columns. */
void report_text(const invent_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line printed as it is (tables, numbers). */
void report_line(const invent_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A progress line for long work: on a terminal it is rewritten in place
 * until done != 0 ends it; elsewhere only the final (done) line is printed,
 * as a plain line; nothing at all with --quiet. */
void report_progress(const invent_opts *o, int done, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A warning on stderr: "program: warning: ...". */
void report_warn(const invent_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An error on stderr: "program: ...", one line. */
void report_error(const char *program, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report_verror(const char *program, const char *fmt, va_list ap);

/* Whether stream fd may get ANSI colours: a terminal, and NO_COLOR unset. */
int report_use_color(int fd);

#endif
