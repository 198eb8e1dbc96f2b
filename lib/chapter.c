#include "chapter.h"

#include "check.h"
#include "plot.h"
#include "report.h"
#include "status.h"

int chapter_begin(int argc, char **argv, const cli_spec *spec, const char *title,
                  invent_opts *opts)
{
    int rc = cli_parse(argc, argv, spec, opts);
    if (rc != CLI_RUN)
        return rc;
    check_setup(opts);
    report_title(opts, title);
    return CLI_RUN;
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
