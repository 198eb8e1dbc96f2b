#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WRAP_COLUMNS 78

int report_use_color(int fd)
{
    const char *no_color = getenv("NO_COLOR");
    return isatty(fd) && !(no_color && no_color[0]);
}

void report_title(const invent_opts *o, const char *title)
{
    if (o->quiet)
        return;
    size_t n = strlen(title);
    printf("\n%s\n", title);
    for (size_t i = 0; i < n; i++)
        putchar('=');
    printf("\n\n");
}

void report_section(const invent_opts *o, const char *heading)
{
    if (o->quiet)
        return;
    printf("\n-- %s\n\n", heading);
}

/* Prints text with words wrapped at WRAP_COLUMNS; keeps explicit newlines. */
static void print_wrapped(const char *text)
{
    size_t column = 0;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            putchar('\n');
            column = 0;
            p++;
            continue;
        }
        size_t word = strcspn(p, " \n");
        if (column > 0 && column + 1 + word > WRAP_COLUMNS) {
            putchar('\n');
            column = 0;
        } else if (column > 0) {
            putchar(' ');
            column++;
        }
        fwrite(p, 1, word, stdout);
        column += word;
        p += word;
        while (*p == ' ')
            p++;
    }
    if (column > 0)
        putchar('\n');
}

void report_text(const invent_opts *o, const char *fmt, ...)
{
    if (o->quiet)
        return;
    char buffer[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buffer, sizeof buffer, fmt, ap);
    va_end(ap);
    print_wrapped(buffer);
    putchar('\n');
}

void report_line(const invent_opts *o, const char *fmt, ...)
{
    if (o->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

void report_progress(const invent_opts *o, int done, const char *fmt, ...)
{
    int terminal = isatty(STDOUT_FILENO);
    if (o->quiet || (!terminal && !done))
        return;
    if (terminal)
        fputs("\r\033[K", stdout);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (done)
        putchar('\n');
    fflush(stdout);
}

void report_warn(const invent_opts *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fprintf(stderr, "%s: warning: ", o->program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* An error is one line: control characters in it (a newline in a path it
 * quotes) are written as \n, \t or \xNN. */
void report_verror(const char *program, const char *fmt, va_list ap)
{
    char line[8192];
    vsnprintf(line, sizeof line, fmt, ap);
    fflush(stdout);
    fprintf(stderr, "%s: ", program);
    for (const unsigned char *p = (const unsigned char *)line; *p; p++)
        if (*p == '\n' || *p == '\t')
            fprintf(stderr, "\\%c", *p == '\n' ? 'n' : 't');
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(stderr, "\\x%02x", *p);
        else
            fputc(*p, stderr);
    fputc('\n', stderr);
}

void report_error(const char *program, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_verror(program, fmt, ap);
    va_end(ap);
}
