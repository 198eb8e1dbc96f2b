/* The one place the library prints: narration, section titles, warnings and
 * errors. Narration is silenced by --quiet; errors and warnings never are. */
#ifndef INVENT_REPORT_H
#define INVENT_REPORT_H

#include <stdarg.h>

#include "cli.h"

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
