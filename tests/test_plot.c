/* Unit tests: figures are rendered whole, or skipped without fuss. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"
#include "status.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/invent-plot-%d", (int)getpid());
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(plot, .init = make_dir, .fini = remove_dir);

static int exists(const char *name)
{
    char path[128];
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

Test(plot, quotes_in_text_variables_are_refused, .init = cr_redirect_stderr)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        cr_skip_test("gnuplot is not installed");
    invent_opts o = {.program = "ch99", .plot_dir = dir};
    plot *p = plot_begin(&o, "ch99_quote");
    plot_set_text(p, "title", "it's");
    cr_assert_eq(plot_render(p, "ch01_steps.gp"), INVENT_EIO);
}
