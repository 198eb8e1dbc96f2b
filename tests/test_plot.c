/* Unit tests: figures are rendered whole, or skipped without fuss; paths
 * and texts with quotes are passed safely; a renderer that hangs is stopped. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "plot.h"
#include "private_dir.h"
#include "status.h"

/* the figures' folder, not made yet: plot_begin makes it */
static char dir[PATH_MAX];

static void make_dir(void)
{
    private_dir_make();
    private_path(dir, sizeof dir, "figures");
}

TestSuite(plot, .init = make_dir, .fini = private_dir_remove);

static int exists(const char *name)
{
    char path[PATH_MAX + 64];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 && st.st_size > 0;
}

Test(plot, no_plot_gives_a_null_figure_that_every_call_accepts)
{
    invent_opts o = {.program = "ch99", .no_plot = 1, .plot_dir = dir};
    plot *p = plot_begin(&o, "ch99_none");
    cr_assert_null(p);
    plot_block(p, "x y");
    PLOT_ROW(p, 1, 2);
    plot_set(p, "a", 1.0);
    cr_assert_eq(plot_render(p, "ch01_steps.gp"), INVENT_OK);
    cr_assert_not(exists("ch99_none.png"));
}

Test(plot, renders_pdf_svg_and_png_together, .init = cr_redirect_stderr)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot is not installed");
    invent_opts o = {.program = "ch99", .plot_dir = dir};
    plot *p = plot_begin(&o, "ch99_steps");
    cr_assert_not_null(p);
    plot_set(p, "layers", 2);
    plot_set(p, "layers_deep", 6);
    for (int k = 0; k < 2; k++) {
        plot_block(p, "N recurrent stack");
        for (int n = 1; n <= 5; n++)
            PLOT_ROW(p, n, n + 1, 2);
    }
    cr_assert_eq(plot_render(p, "ch01_steps.gp"), INVENT_OK);
    cr_assert(exists("ch99_steps.pdf") && exists("ch99_steps.svg") && exists("ch99_steps.png"));
    cr_assert(exists("data/ch99_steps.dat"));
    cr_assert_eq(plot_failures(), 0);
}

/* path -> its whole text (at most 4095 bytes) in buf */
static const char *slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

Test(plot, a_kept_figure_stores_its_stamp_variables_and_blocks, .init = cr_redirect_stderr)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot is not installed");
    invent_opts o = {.program = "ch99", .plot_dir = dir};
    char kept[PATH_MAX], broken_kept[PATH_MAX], text[4096];
    private_path(kept, sizeof kept, "ch99_kept.tsv");
    private_path(broken_kept, sizeof broken_kept, "ch99_not_kept.tsv");
    plot *p = plot_begin(&o, "ch99_kept");
    plot_keep(p, kept, "chapter 99: a figure's data", "build/ch99 --full", 2);
    plot_set(p, "layers", 2);
    plot_set(p, "layers_deep", 6);
    plot_block(p, "N recurrent stack");
    PLOT_ROW(p, 1, 2, 3);
    cr_assert_eq(plot_render(p, "ch01_steps.gp"), INVENT_OK);
    slurp(kept, text, sizeof text);
    cr_assert(strncmp(text, "# chapter 99: a figure's data; command: build/ch99 --full", 57) == 0,
              "%s", text);
    cr_assert_not_null(strstr(text, "\n# layers: 2\n# layers_deep: 6\n"), "%s", text);
    cr_assert_not_null(strstr(text, "\n1 2 3\n"), "%s", text);
    p = plot_begin(&o, "ch99_not_kept"); /* a figure that does not render keeps nothing */
    plot_keep(p, broken_kept, "chapter 99", "build/ch99", 2);
    cr_assert_eq(plot_render(p, "no_such_script.gp"), INVENT_EIO);
    cr_assert_eq(access(broken_kept, F_OK), -1);
}

Test(plot, a_failing_script_leaves_no_figure_and_is_counted, .init = cr_redirect_stderr)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot is not installed");
    invent_opts o = {.program = "ch99", .plot_dir = dir};
    plot *p = plot_begin(&o, "ch99_broken");
    plot_block(p, "x");
    PLOT_ROW(p, 1);
    cr_assert_eq(plot_render(p, "no_such_script.gp"), INVENT_EIO);
    cr_assert_not(exists("ch99_broken.pdf") || exists("ch99_broken.svg") || exists("ch99_broken.png"));
    cr_assert_eq(plot_failures(), 1);
}

/* Renders ch01_steps.gp with a small data set into o->plot_dir. */
static int render_steps(const invent_opts *o, const char *name, const char *title)
{
    plot *p = plot_begin(o, name);
    cr_assert_not_null(p);
    plot_set(p, "layers", 2);
    plot_set(p, "layers_deep", 6);
    if (title)
        plot_set_text(p, "note", title);
    for (int k = 0; k < 2; k++) {
        plot_block(p, "N recurrent stack");
        for (int n = 1; n <= 5; n++)
            PLOT_ROW(p, n, n + 1, 2);
    }
    return plot_render(p, "ch01_steps.gp");
}

Test(plot, quotes_in_text_variables_are_escaped, .init = cr_redirect_stderr)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot is not installed");
    invent_opts o = {.program = "ch99", .plot_dir = dir};
    cr_assert_eq(render_steps(&o, "ch99_quote", "it's \"quoted\"; print 'x'"), INVENT_OK);
    cr_assert(exists("ch99_quote.png"));
}

Test(plot, a_quote_in_the_plot_directory_is_no_problem, .init = cr_redirect_stderr)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot is not installed");
    char quoted[PATH_MAX], png[PATH_MAX + 32];
    private_path(quoted, sizeof quoted, "it's; a \"dir\"");
    invent_opts o = {.program = "ch99", .plot_dir = quoted};
    cr_assert_eq(paths_make_dirs(quoted), 0);
    cr_assert_eq(render_steps(&o, "ch99_steps", NULL), INVENT_OK);
    snprintf(png, sizeof png, "%s/ch99_steps.png", quoted);
    cr_assert_eq(access(png, R_OK), 0);
}

/* Whether the process named in DIR/child still runs (a zombie does not). */
static int child_alive(void)
{
    char path[PATH_MAX + 16], stat_line[256];
    long pid = 0;
    snprintf(path, sizeof path, "%s/child", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%ld", &pid), 1);
    fclose(f);
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = fgets(stat_line, sizeof stat_line, f);
    fclose(f);
    char *end = line ? strrchr(line, ')') : NULL;
    return end && end[1] == ' ' && end[2] != 'Z';
}

Test(plot, a_gnuplot_that_hangs_is_stopped_and_later_figures_skipped, .init = cr_redirect_stderr)
{
    /* a "gnuplot" that sleeps, and a child of it that must die with it */
    char bin[PATH_MAX], script[PATH_MAX + 16], path[2 * PATH_MAX];
    private_path(bin, sizeof bin, "bin");
    cr_assert_eq(paths_make_dirs(bin), 0);
    snprintf(script, sizeof script, "%s/gnuplot", bin);
    FILE *f = fopen(script, "w");
    fprintf(f, "#!/bin/sh\nsleep 30 &\necho $! > %s/child\nwait\n", dir);
    fclose(f);
    chmod(script, 0755);
    snprintf(path, sizeof path, "%s:%s", bin, getenv("PATH"));
    setenv("PATH", path, 1);
    plot_set_time_limit(0.5);
    invent_opts o = {.program = "ch99", .plot_dir = dir};
    cr_assert_eq(render_steps(&o, "ch99_hang", NULL), INVENT_EIO);
    cr_assert_eq(plot_failures(), 1);
    cr_assert_null(plot_begin(&o, "ch99_after"), "figures after a hang are skipped");
    usleep(200 * 1000);
    cr_assert_not(child_alive(), "the child of the renderer was killed too");
    cr_assert_not(exists("ch99_hang.png"));
}

Test(plot, a_figure_name_too_long_for_the_checked_paths_is_refused, .init = cr_redirect_stderr)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot is not installed");
    char name[PLOT_NAME_MAX + 2];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    invent_opts o = {.program = "ch99", .plot_dir = dir};
    cr_assert_null(plot_begin(&o, name));
    cr_assert_eq(plot_failures(), 1);
}
