#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "results_file.h"
#include "status.h"

#ifndef INVENT_PLOTS_DIR
#define INVENT_PLOTS_DIR "plots"
#endif

static const char *const FORMATS[] = {"pdf", "svg", "png"};
#define N_FORMATS 3

struct plot {
    const invent_opts *opts;
    char name[PLOT_NAME_MAX + 1];
    paths_file data;  /* DIR/data/name.dat, in place before gnuplot runs */
    char vars[4096];  /* "a=1; b='text'; " handed to gnuplot -e */
    char kept[4096];  /* the same as "# a: 1" lines, for plot_keep */
    char keep[PATH_MAX], keep_what[256], keep_command[1024]; /* plot_keep's, or keep[0] 0 */
    int keep_threads;
    int blocks;
    int broken;       /* a variable could not be recorded */
};

static int failures;
static int stopped;   /* gnuplot overran its time limit: no more figures */
static double time_limit = PLOT_TIME_LIMIT;

int plot_failures(void) { return failures; }

void plot_set_time_limit(double seconds) { time_limit = seconds; }

/* One line: "figure NAME was not rendered: why"; counts the failure. */
static void figure_failed(const invent_opts *o, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void figure_failed(const invent_opts *o, const char *name, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    report_error(o->program, "figure %s was not rendered: %s", name, why);
    failures++;
}

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
    if (o->no_plot || stopped)
        return 0;
    if (have_gnuplot())
        return 1;
    if (!warned)
        report_warn(o, "gnuplot not found: figures skipped (make deps installs it)");
    warned = 1;
    return 0;
}

/* Opens a temporary file for DIR/data/name.dat; 0 on success. */
static int open_data(plot *p, const char *dir)
{
    char data_dir[PATH_MAX], path[PATH_MAX];
    if (snprintf(data_dir, sizeof data_dir, "%s/data", dir) >= (int)sizeof data_dir ||
        snprintf(path, sizeof path, "%s/%s.dat", data_dir, p->name) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (paths_make_dirs(data_dir) != 0)
        return -1;
    return paths_file_open(&p->data, path);
}

plot *plot_begin(const invent_opts *o, const char *name)
{
    if (!figures_available(o))
        return NULL;
    if (strlen(name) > PLOT_NAME_MAX) {
        figure_failed(o, name, "its name is longer than %d characters", PLOT_NAME_MAX);
        return NULL;
    }
    plot *p = calloc(1, sizeof *p);
    if (!p) {
        figure_failed(o, name, "out of memory");
        return NULL;
    }
    p->opts = o;
    snprintf(p->name, sizeof p->name, "%s", name);
    if (open_data(p, o->plot_dir) != 0) {
        figure_failed(o, name, "cannot write its data under '%s' (%s)", o->plot_dir,
                      strerror(errno));
        free(p);
        return NULL;
    }
    fprintf(p->data.f, "# data of figure %s, written by %s\n", name, o->program);
    return p;
}

void plot_block(plot *p, const char *columns)
{
    if (!p)
        return;
    fprintf(p->data.f, "%s# %s\n", p->blocks++ ? "\n\n" : "", columns);
}

void plot_row(plot *p, const double *v, size_t n)
{
    if (!p)
        return;
    for (size_t i = 0; i < n; i++)
        fprintf(p->data.f, "%s%.10g", i ? " " : "", v[i]);
    fputc('\n', p->data.f);
}

void plot_matrix(plot *p, const gsl_matrix *m)
{
    if (!p)
        return;
    for (size_t i = 0; i < m->size1; i++) {
        for (size_t j = 0; j < m->size2; j++)
            fprintf(p->data.f, "%zu %zu %.10g\n", j, i, gsl_matrix_get(m, i, j));
        fputc('\n', p->data.f);
    }
}

/* Appends "var='text'; " to buf (cap bytes) as a gnuplot string: inside
 * single quotes a quote is written twice. 0 if it fits and text has no
 * control character (a newline would end the command). */
static int append_string(char *buf, size_t cap, const char *var, const char *text)
{
    size_t n = strlen(buf);
    int w = snprintf(buf + n, cap - n, "%s='", var);
    if (w < 0 || (size_t)w >= cap - n)
        return -1;
    n += (size_t)w;
    for (; *text; text++) {
        if ((unsigned char)*text < 0x20 || n + 2 >= cap)
            return -1;
        if (*text == '\'')
            buf[n++] = '\'';
        buf[n++] = *text;
    }
    w = snprintf(buf + n, cap - n, "'; ");
    return w < 0 || (size_t)w >= cap - n ? -1 : 0;
}

/* var, its value as text -> a "# var: text" line in p->kept (or p->broken) */
static void keep_line(plot *p, const char *var, const char *text)
{
    size_t n = strlen(p->kept);
    int w = snprintf(p->kept + n, sizeof p->kept - n, "# %s: %s\n", var, text);
    if (w < 0 || (size_t)w >= sizeof p->kept - n) {
        p->kept[n] = '\0';
        p->broken = 1;
    }
}

void plot_set(plot *p, const char *var, double value)
{
    if (!p)
        return;
    size_t n = strlen(p->vars);
    int w = snprintf(p->vars + n, sizeof p->vars - n, "%s=%.17g; ", var, value);
    if (w < 0 || (size_t)w >= sizeof p->vars - n) {
        p->vars[n] = '\0';
        p->broken = 1;
        return;
    }
    char text[32];
    snprintf(text, sizeof text, "%.17g", value);
    keep_line(p, var, text);
}

void plot_set_text(plot *p, const char *var, const char *value)
{
    if (!p)
        return;
    size_t n = strlen(p->vars);
    if (append_string(p->vars, sizeof p->vars, var, value) != 0) {
        p->vars[n] = '\0';
        p->broken = 1;
        return;
    }
    keep_line(p, var, value);
}

void plot_keep(plot *p, const char *path, const char *what, const char *command, int threads)
{
    if (!p)
        return;
    if (snprintf(p->keep, sizeof p->keep, "%s", path) >= (int)sizeof p->keep)
        p->broken = 1;
    snprintf(p->keep_what, sizeof p->keep_what, "%s", what);
    snprintf(p->keep_command, sizeof p->keep_command, "%s", command);
    p->keep_threads = threads;
}

/* the rendered figure's data -> p->keep (stamp, variables, blocks); 0 on success */
static int write_keep(const plot *p)
{
    paths_file pf;
    FILE *in = fopen(p->data.path, "r");
    if (!in || paths_file_open(&pf, p->keep) != 0) {
        if (in)
            fclose(in);
        return -1;
    }
    results_stamp(pf.f, p->keep_what, p->keep_command, p->keep_threads);
    fprintf(pf.f, "\n%s", p->kept);
    char buf[8192];
    for (size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;)
        fwrite(buf, 1, n, pf.f);
    int ok = !ferror(in);
    fclose(in);
    return paths_file_commit(&pf, ok);
}

/* Waits for pid at most time_limit seconds; -> its wait status, or -1
 * (with *overran set when it was stopped: its process group is killed). */
static int wait_limited(pid_t pid, int *overran)
{
    struct timespec start, now, pause = {0, 5 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        if (r < 0 && errno != EINTR)
            return -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec) >
            time_limit) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            *overran = 1;
            return -1;
        }
        nanosleep(&pause, NULL);
    }
}

/* Runs gnuplot on render.gp inside the plot directory, with the figure's
 * variables and the names data_rel, out_rel relative to it; 0 on success. */
static int run_gnuplot(const plot *p, const char *script, const char *data_rel,
                       const char *out_rel, int *overran)
{
    char vars[8192], path[PATH_MAX];
    snprintf(vars, sizeof vars, "%s", p->vars);
    int too_long = snprintf(path, sizeof path, "%s/%s", INVENT_PLOTS_DIR, script) >=
                   (int)sizeof path;
    if (too_long || append_string(vars, sizeof vars, "data", data_rel) != 0 ||
        append_string(vars, sizeof vars, "outbase", out_rel) != 0 ||
        append_string(vars, sizeof vars, "theme", INVENT_PLOTS_DIR "/theme.gp") != 0 ||
        append_string(vars, sizeof vars, "script", path) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) { /* its own process group, so that a kill reaches its children */
        setpgid(0, 0);
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, STDIN_FILENO) < 0 || chdir(p->opts->plot_dir) != 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", "-e", vars, INVENT_PLOTS_DIR "/render.gp", (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int status = wait_limited(pid, overran);
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Moves DIR/.tmp.fmt to DIR/name.fmt for every format (or removes them). */
static int publish(const plot *p, const char *tmp_rel, int ok)
{
    char from[PATH_MAX + 32], to[PATH_MAX + 32];
    for (int i = 0; i < N_FORMATS; i++) {
        snprintf(from, sizeof from, "%s/%s.%s", p->opts->plot_dir, tmp_rel, FORMATS[i]);
        snprintf(to, sizeof to, "%s/%s.%s", p->opts->plot_dir, p->name, FORMATS[i]);
        if (ok && rename(from, to) != 0)
            ok = 0;
        if (!ok)
            unlink(from);
    }
    return ok;
}

/* Renders the committed data; -> 1 when the three files are in place. */
static int render(plot *p, const char *script)
{
    char data_rel[PLOT_NAME_MAX + 16], tmp_rel[PLOT_NAME_MAX + 32];
    int overran = 0;
    snprintf(data_rel, sizeof data_rel, "data/%s.dat", p->name);
    snprintf(tmp_rel, sizeof tmp_rel, ".%s.%ld.tmp", p->name, (long)getpid());
    int ok = run_gnuplot(p, script, data_rel, tmp_rel, &overran) == 0;
    ok = publish(p, tmp_rel, ok);
    if (overran) {
        stopped = 1;
        figure_failed(p->opts, p->name, "gnuplot ran longer than %g s and was stopped; "
                                        "later figures skipped", time_limit);
    } else if (!ok) {
        figure_failed(p->opts, p->name, "plots/%s failed", script);
    }
    return ok;
}

int plot_render(plot *p, const char *script)
{
    if (!p)
        return INVENT_OK;
    int ok = 0;
    if (paths_file_commit(&p->data, !p->broken) == 0)
        ok = render(p, script);
    else if (p->broken)
        figure_failed(p->opts, p->name, "a variable is too long or holds a control character");
    else
        figure_failed(p->opts, p->name, "cannot write its data '%s' (%s)", p->data.path,
                      strerror(errno));
    if (ok && p->keep[0] && write_keep(p) != 0) {
        figure_failed(p->opts, p->name, "cannot keep its data in '%s' (%s)", p->keep,
                      strerror(errno));
        ok = 0;
    }
    free(p);
    return ok ? INVENT_OK : INVENT_EIO;
}
