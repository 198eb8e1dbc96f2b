/* A log of finished runs (run_log.h): a text file of lines "key<TAB>x1<TAB>x2...",
 * numbers written with 17 significant digits so that they read back exactly. */
#include "run_log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "status.h"

typedef struct {
    char *key;
    double *numbers;
    size_t n;
} entry;

struct run_log {
    char *path;
    entry *runs;
    size_t count, cap;
};

/* key, numbers (n) -> kept in l (copies) */
static int keep(run_log *l, const char *key, const double *numbers, size_t n)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        entry *grown = realloc(l->runs, cap * sizeof *grown);
        if (!grown)
            return INVENT_ENOMEM;
        l->runs = grown, l->cap = cap;
    }
    entry *e = &l->runs[l->count];
    e->key = strdup(key);
    e->numbers = malloc((n ? n : 1) * sizeof(double));
    if (!e->key || !e->numbers) {
        free(e->key);
        free(e->numbers);
        return INVENT_ENOMEM;
    }
    memcpy(e->numbers, numbers, n * sizeof(double));
    e->n = n;
    l->count++;
    return INVENT_OK;
}

/* line (a tab-separated run, no newline) -> kept in l; INVENT_EFORMAT if it does not parse */
static int parse_line(run_log *l, char *line)
{
    char *tab = strchr(line, '\t');
    if (!tab || tab == line)
        return INVENT_EFORMAT;
    *tab = '\0';
    size_t n = 1;
    for (const char *c = tab + 1; *c; c++)
        n += *c == '\t';
    double *v = malloc(n * sizeof(double));
    if (!v)
        return INVENT_ENOMEM;
    char *at = tab + 1;
    for (size_t k = 0; k < n; k++) {
        char *end;
        errno = 0;
        v[k] = strtod(at, &end);
        if (end == at || errno || !isfinite(v[k]) || (*end != '\t' && *end != '\0')) {
            free(v);
            return INVENT_EFORMAT;
        }
        at = end + 1;
    }
    int status = keep(l, line, v, n);
    free(v);
    return status;
}

/* text (len, ending in a newline) -> every line kept in l; *bad_line as run_log_open */
static int parse_all(run_log *l, char *text, size_t len, size_t *bad_line)
{
    size_t number = 0;
    for (char *line = text; line < text + len;) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        *nl = '\0';
        number++;
        if (line[0] != '#' && line[0] != '\0') {
            int status = parse_line(l, line);
            if (status == INVENT_EFORMAT)
                *bad_line = number;
            if (status != INVENT_OK)
                return status;
        }
        line = nl + 1;
    }
    return INVENT_OK;
}

/* path -> its whole text in *text (*len; NULL, 0 when missing) */
static int read_text(const char *path, char **text, size_t *len)
{
    *text = NULL, *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? INVENT_OK : INVENT_EIO;
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    size_t got = 0, r;
    while (buf && (r = fread(buf + got, 1, cap - got, f)) > 0)
        if ((got += r) == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    int failed = ferror(f);
    fclose(f);
    if (!buf)
        return INVENT_ENOMEM;
    if (failed) {
        free(buf);
        return INVENT_EIO;
    }
    *text = buf, *len = got;
    return INVENT_OK;
}

int run_log_open(const char *path, run_log **out, size_t *bad_line)
{
    *out = NULL, *bad_line = 0;
    run_log *l = calloc(1, sizeof *l);
    if (!l || !(l->path = strdup(path))) {
        free(l);
        return INVENT_ENOMEM;
    }
    char *text;
    size_t len;
    int status = read_text(path, &text, &len);
    size_t whole = len;
    while (whole > 0 && text[whole - 1] != '\n')
        whole--; /* a last line cut short by a kill: dropped here and in the file */
    if (status == INVENT_OK && whole < len && truncate(path, (off_t)whole) != 0)
        status = INVENT_EIO;
    if (status == INVENT_OK)
        status = parse_all(l, text, whole, bad_line);
    free(text);
    if (status != INVENT_OK) {
        run_log_free(l);
        return status;
    }
    *out = l;
    return INVENT_OK;
}

int run_log_find(const run_log *l, const char *key, double *numbers, size_t n)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->runs[i].n == n && strcmp(l->runs[i].key, key) == 0) {
            memcpy(numbers, l->runs[i].numbers, n * sizeof(double));
            return INVENT_OK;
        }
    return INVENT_ERANGE;
}

int run_log_add(run_log *l, const char *key, const double *numbers, size_t n)
{
    if (!key[0] || strpbrk(key, "\t\n") || key[0] == '#' || n == 0)
        return INVENT_ERANGE;
    for (size_t k = 0; k < n; k++)
        if (!isfinite(numbers[k]))
            return INVENT_ERANGE;
    FILE *f = fopen(l->path, "a");
    if (!f)
        return INVENT_EIO;
    int failed = fprintf(f, "%s", key) < 0;
    for (size_t k = 0; k < n && !failed; k++)
        failed = fprintf(f, "\t%.17g", numbers[k]) < 0;
    failed |= fputc('\n', f) == EOF;
    failed |= fclose(f) != 0;
    return failed ? INVENT_EIO : keep(l, key, numbers, n);
}

size_t run_log_count(const run_log *l)
{
    return l->count;
}

void run_log_free(run_log *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++) {
        free(l->runs[i].key);
        free(l->runs[i].numbers);
    }
    free(l->runs);
    free(l->path);
    free(l);
}
