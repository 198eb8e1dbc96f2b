#include "chapter.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "paths.h"
#include "plot.h"
#include "report.h"
#include "scope.h"
#include "status.h"

/* Checks --dump, --plot-dir and --claims before any work is done, so that a
 * bad path costs one line and exit 2 rather than a failure halfway. */
static int check_outputs(const invent_opts *o)
{
    if (o->dump_dir && paths_ready_dir(o->dump_dir) != 0)
        return cli_fail(o, "--dump: cannot write to directory '%s' (%s)", o->dump_dir,
                        strerror(errno));
    if (!o->no_plot && paths_ready_dir(o->plot_dir) != 0)
        return cli_fail(o, "--plot-dir: cannot write to directory '%s' (%s)", o->plot_dir,
                        strerror(errno));
    FILE *f = o->claims_file ? fopen(o->claims_file, "a") : NULL;
    if (o->claims_file && !f)
        return cli_fail(o, "--claims: cannot append to '%s' (%s)", o->claims_file,
                        strerror(errno));
    if (f)
        fclose(f);
    return CLI_RUN;
}

/* The program name for chapter_must's message, set by chapter_start. */
static const char *must_program = "invent";

int chapter_parse(int argc, char **argv, const cli_spec *spec, invent_opts *opts)
{
    return cli_parse(argc, argv, spec, opts);
}

int chapter_start(invent_opts *opts, const char *title)
{
    int rc = check_outputs(opts);
    if (rc != CLI_RUN)
        return rc;
    scope_name_program(opts->program);
    must_program = opts->program;
    check_setup(opts);
    report_title(opts, title);
    return CLI_RUN;
}

void chapter_must(int status, const char *what)
{
    if (status == INVENT_OK)
        return;
    if (status == INVENT_ENOMEM)
        scope_out_of_memory(what);
    fflush(stdout);
    report_error(must_program, "%s: %s", what, invent_strerror(status));
    fflush(stderr);
    _exit(CHAPTER_EXIT_RUNTIME);
}

int chapter_fail(const invent_opts *opts, const char *what, int status)
{
    report_error(opts->program, "%s: %s", what, invent_strerror(status));
    return CHAPTER_EXIT_RUNTIME;
}

int chapter_end(void)
{
    if (check_finish() != 0)
        return CHAPTER_EXIT_CLAIM;
    return plot_failures() ? CHAPTER_EXIT_RUNTIME : 0;
}
