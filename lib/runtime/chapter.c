#include "chapter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dump.h"
#include "paths.h"
#include "plot.h"
#include "report.h"
#include "scope.h"
#include "status.h"

#if defined(__SANITIZE_ADDRESS__)
#define LEAK_CHECK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEAK_CHECK 1
#endif
#endif
#ifdef LEAK_CHECK
#include <sanitizer/lsan_interface.h>
#endif

/* The program name for messages that have no opts at hand. */
static const char *program = "invent";

/* "--dump: ..." for one output path that cannot be used; -> 2 */
static int refuse_path(const invent_opts *o, const char *flag, const char *path, size_t longest)
{
    if (errno == ENAMETOOLONG && strlen(path) + 1 + longest >= PATH_MAX)
        return cli_fail(o, "%s: the path is %zu characters long; with the names written inside "
                           "it (up to %zu) it must stay under %d (PATH_MAX)",
                        flag, strlen(path), longest, PATH_MAX);
    if (errno == EINVAL)
        return cli_fail(o, "%s: '%s' is a FIFO, socket or block device, not a file", flag, path);
    return cli_fail(o, "%s: cannot write to '%s' (%s)", flag, path, strerror(errno));
}

/* Checks --dump, --plot-dir and --claims before any work is done, all of
 * them before anything is created, so that a bad path costs one line and
 * exit 2 and leaves no trace. */
static int check_outputs(const invent_opts *o, const char *plot_dir)
{
    if (o->dump_dir && paths_check_dir(o->dump_dir, DUMP_LONGEST_FILE) != 0)
        return refuse_path(o, "--dump", o->dump_dir, DUMP_LONGEST_FILE);
    if (plot_dir && paths_check_dir(plot_dir, PLOT_LONGEST_FILE) != 0)
        return refuse_path(o, "--plot-dir", plot_dir, PLOT_LONGEST_FILE);
    if (o->claims_file && paths_check_file(o->claims_file) != 0)
        return refuse_path(o, "--claims", o->claims_file, 0);
    return CLI_RUN;
}

/* Then makes them: opens the claims file once and creates the directories,
 * which can still fail where the checks could not tell (/proc, a FIFO's
 * reader gone); a failure undoes what was made, and is exit 2. */
static int make_outputs(const invent_opts *o, const char *plot_dir)
{
    int claims_made = 0, dump_made = 0, plot_made = 0, rc = CLI_RUN;
    if (o->claims_file && paths_open_once(o->claims_file, &claims_made) != 0)
        rc = refuse_path(o, "--claims", o->claims_file, 0);
    else if (o->dump_dir && paths_ready_dir_counted(o->dump_dir, &dump_made) != 0)
        rc = refuse_path(o, "--dump", o->dump_dir, DUMP_LONGEST_FILE);
    else if (plot_dir && paths_ready_dir_counted(plot_dir, &plot_made) != 0)
        rc = refuse_path(o, "--plot-dir", plot_dir, PLOT_LONGEST_FILE);
    if (rc == CLI_RUN)
        return rc;
    if (plot_dir)
        paths_unmake_dirs(plot_dir, plot_made);
    if (o->dump_dir)
        paths_unmake_dirs(o->dump_dir, dump_made);
    if (claims_made)
        unlink(o->claims_file);
    return rc;
}

/* Every exit of a chapter program ends here (on_exit). Standard output
 * must have been written: a full disk or a closed pipe is exit status 3.
 * The process then ends with _exit, so that no thread pool is waited for:
 * OpenBLAS's workers, short of memory, can spin forever in their first
 * allocation, and its exit handler would wait for them. Under
 * AddressSanitizer the leak check, which _exit skips, is run first. */
static void end_process(int status, void *unused)
{
    (void)unused;
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        report_error(program, "cannot write standard output (%s)",
                     errno ? strerror(errno) : "an earlier write failed");
        if (status < CHAPTER_EXIT_USAGE)
            status = CHAPTER_EXIT_RUNTIME;
    }
    fflush(stderr);
#ifdef LEAK_CHECK
    __lsan_do_leak_check();
#endif
    _exit(status);
}

int chapter_parse(int argc, char **argv, const cli_spec *spec, invent_opts *opts)
{
    static int registered;
    program = spec->program;
    scope_name_program(spec->program);
    if (!registered++)
        on_exit(end_process, NULL);
    return cli_parse(argc, argv, spec, opts);
}

int chapter_start(invent_opts *opts, const char *title)
{
    const char *plot_dir = opts->no_plot ? NULL : opts->plot_dir;
    int rc = check_outputs(opts, plot_dir);
    if (rc == CLI_RUN)
        rc = make_outputs(opts, plot_dir);
    if (rc != CLI_RUN)
        return rc;
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
    report_error(program, "%s: %s", what, invent_strerror(status));
    fflush(stderr);
    _exit(CHAPTER_EXIT_RUNTIME);
}

int chapter_fail(const invent_opts *opts, const char *what, int status)
{
    if (status == INVENT_ENOMEM)
        scope_out_of_memory(what);
    report_error(opts->program, "%s: %s", what, invent_strerror(status));
    return CHAPTER_EXIT_RUNTIME;
}

int chapter_end(void)
{
    int claims = check_finish();
    if (claims == CHAPTER_EXIT_RUNTIME || plot_failures() || dump_failures())
        return CHAPTER_EXIT_RUNTIME;
    return claims;
}
