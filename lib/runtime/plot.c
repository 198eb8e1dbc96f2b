#include "plot.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paths.h"
#include "report.h"
#include "status.h"

#ifndef INVENT_PLOTS_DIR
#define INVENT_PLOTS_DIR "plots"
#endif

static const char *const FORMATS[] = {"pdf", "svg", "png"};
#define N_FORMATS 3

struct plot {
    const invent_opts *opts;
    char name[128];
    char data_path[PATH_MAX];
    FILE *data;
    char vars[4096];  /* "a=1; b='text'; " handed to gnuplot -e */
    int blocks;
    int broken;       /* a variable or row could not be recorded */
};

static int failures;

int plot_failures(void) { return failures; }

/* Whether an executable named gnuplot is on PATH. */
static int have_gnuplot(void)
{
    const char *path = getenv("PATH");
    char candidate[PATH_MAX];
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(candidate, sizeof candidate, "%.*s/gnuplot", (int)len, path);
        if (len > 0 && access(candidate, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

static int figures_available(const invent_opts *o)
{
    static int warned;
    if (o->no_plot)
        return 0;
    if (have_gnuplot())
        return 1;
    if (!warned)
        report_warn(o, "gnuplot not found: figures skipped (make deps installs it)");
    warned = 1;
    return 0;
}

/* Opens DIR/data/name.dat for writing; 0 on success. */
static int open_data(plot *p, const char *dir)
{
    char data_dir[PATH_MAX];
    if (snprintf(data_dir, sizeof data_dir, "%s/data", dir) >= (int)sizeof data_dir ||
        paths_make_dirs(data_dir) != 0)
        return -1;
    if (snprintf(p->data_path, sizeof p->data_path, "%s/%s.dat", data_dir, p->name) >=
        (int)sizeof p->data_path)
        return -1;
    p->data = fopen(p->data_path, "w");
    return p->data ? 0 : -1;
}

plot *plot_begin(const invent_opts *o, const char *name)
{
    if (!figures_available(o))
        return NULL;
    plot *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->opts = o;
    snprintf(p->name, sizeof p->name, "%s", name);
    if (open_data(p, o->plot_dir) != 0) {
        report_error(o->program, "cannot write figure data for %s under '%s'", name, o->plot_dir);
        failures++;
        free(p);
        return NULL;
    }
    fprintf(p->data, "# data of figure %s, written by %s\n", name, o->program);
    return p;
}

void plot_block(plot *p, const char *columns)
{
    if (!p)
        return;
    fprintf(p->data, "%s# %s\n", p->blocks++ ? "\n\n" : "", columns);
}

void plot_row(plot *p, const double *v, size_t n)
{
    if (!p)
        return;
    for (size_t i = 0; i < n; i++)
        fprintf(p->data, "%s%.10g", i ? " " : "", v[i]);
    fputc('\n', p->data);
}

void plot_matrix(plot *p, const gsl_matrix *m)
{
    if (!p)
        return;
    for (size_t i = 0; i < m->size1; i++) {
        for (size_t j = 0; j < m->size2; j++)
            fprintf(p->data, "%zu %zu %.10g\n", j, i, gsl_matrix_get(m, i, j));
        fputc('\n', p->data);
    }
}

/* Appends "text" to the -e string; marks p broken when it does not fit. */
static void append_var(plot *p, const char *text)
{
    size_t used = strlen(p->vars);
    if (used + strlen(text) + 1 > sizeof p->vars)
        p->broken = 1;
    else
        strcat(p->vars, text);
}

void plot_set(plot *p, const char *var, double value)
{
    char text[256];
    if (!p)
        return;
    snprintf(text, sizeof text, "%s=%.17g; ", var, value);
    append_var(p, text);
}

void plot_set_text(plot *p, const char *var, const char *value)
{
    char text[1024];
    if (!p)
        return;
    if (strchr(value, '\'') || (size_t)snprintf(text, sizeof text, "%s='%s'; ", var, value) >= sizeof text)
        p->broken = 1;
    else
        append_var(p, text);
}

/* Runs gnuplot on render.gp with the figure's variables; 0 on success. */
static int run_gnuplot(plot *p, const char *script, const char *tmp_base)
{
    char vars[8192];
    int n = snprintf(vars, sizeof vars,
                     "%sdata='%s'; outbase='%s'; theme='%s/theme.gp'; script='%s/%s'",
                     p->vars, p->data_path, tmp_base, INVENT_PLOTS_DIR, INVENT_PLOTS_DIR, script);
    if (n >= (int)sizeof vars || strchr(p->data_path, '\'') || strchr(tmp_base, '\''))
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", "-e", vars, INVENT_PLOTS_DIR "/render.gp", (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Moves base.fmt to dir/name.fmt for every format (or removes them on failure). */
static int publish(const plot *p, const char *tmp_base, int ok)
{
    char from[PATH_MAX + 8], to[PATH_MAX + 8];
    for (int i = 0; i < N_FORMATS; i++) {
        snprintf(from, sizeof from, "%s.%s", tmp_base, FORMATS[i]);
        snprintf(to, sizeof to, "%s/%s.%s", p->opts->plot_dir, p->name, FORMATS[i]);
        if (ok && rename(from, to) != 0)
            ok = 0;
        if (!ok)
            unlink(from);
    }
    return ok;
}

int plot_render(plot *p, const char *script)
{
    if (!p)
        return INVENT_OK;
    char tmp_base[PATH_MAX];
    snprintf(tmp_base, sizeof tmp_base, "%s/.%s.%ld.tmp", p->opts->plot_dir, p->name,
             (long)getpid());
    int ok = fclose(p->data) == 0 && !p->broken;
    ok = ok && run_gnuplot(p, script, tmp_base) == 0;
    ok = publish(p, tmp_base, ok);
    if (!ok) {
        report_error(p->opts->program, "figure %s was not rendered (plots/%s failed)", p->name,
                     script);
        failures++;
    }
    free(p);
    return ok ? INVENT_OK : INVENT_EIO;
}
