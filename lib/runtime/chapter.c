#include "chapter.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dump.h"
#include "env_checks.h"
#include "paths.h"
#include "plot.h"
#include "report.h"
#include "scope.h"
#include "status.h"

/* Seconds the exit may spend in library exit handlers (OpenBLAS joins its
 * threads) before the process ends without them. */
#define EXIT_WAIT 5

/* The program name for messages that have no opts at hand. */
static const char *program = "invent";

/* "--dump: ..." for one output path that cannot be used; longest: the
 * longest name written inside it (0 for a file); -> 2 */
static int refuse_path(const invent_opts *o, const char *flag, const char *path, size_t longest)
{
    size_t len = strlen(path);
    if (errno == ENAMETOOLONG && longest > 0 && len + 1 + longest >= PATH_MAX)
        return cli_fail(o, "%s: the path is %zu characters long; with the names written inside "
                           "it (up to %zu) it must stay under %d (PATH_MAX)",
                        flag, len, longest, PATH_MAX);
    if (errno == ENAMETOOLONG && len >= PATH_MAX)
        return cli_fail(o, "%s: the path is %zu characters long, over %d (PATH_MAX)", flag, len,
                        PATH_MAX - 1);
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

/* Whether standard output lost something (a full disk): said once. */
static int stdout_failed(void)
{
    static int said;
    errno = 0;
    if (said || (fflush(stdout) == 0 && !ferror(stdout)))
        return said;
    report_error(program, "cannot write standard output (%s)",
                 errno ? strerror(errno) : "an earlier write failed");
    fflush(stderr);
    return said = 1;
}

static volatile sig_atomic_t exit_status;

static void exit_now(int signal_number)
{
    (void)signal_number;
    _exit(exit_status);
}

/* Every exit of a chapter program passes here (on_exit). chapter_end and
 * --help have checked standard output; on any other way out that printed,
 * a write that failed still makes the status 3, at once. Otherwise the exit
 * goes on, with a limit: OpenBLAS's exit handler joins its worker threads,
 * and a worker short of memory spins forever in its first allocation
 * (ulimit -v), so after EXIT_WAIT seconds an alarm ends the process with
 * its status. */
static void end_process(int status, void *unused)
{
    (void)unused;
    if (status < CHAPTER_EXIT_USAGE && stdout_failed())
        _exit(CHAPTER_EXIT_RUNTIME);
    exit_status = status;
    struct sigaction on_alarm = {.sa_handler = exit_now};
    sigaction(SIGALRM, &on_alarm, NULL);
    alarm(EXIT_WAIT);
}

int chapter_parse(int argc, char **argv, const cli_spec *spec, invent_opts *opts)
{
    static int registered;
    program = spec->program;
    scope_name_program(spec->program);
    if (!registered++)
        on_exit(end_process, NULL);
    int rc = cli_parse(argc, argv, spec, opts);
    char why[256];
    if (rc == CLI_RUN && env_checks_run(why, sizeof why) != INVENT_OK)
        rc = cli_fail(opts, "%s", why);
    return rc == 0 && stdout_failed() ? CHAPTER_EXIT_RUNTIME : rc; /* after --help */
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

int chapter_begin(int argc, char **argv, const cli_spec *spec, invent_opts *opts,
                  const char *title)
{
    int rc = chapter_parse(argc, argv, spec, opts);
    return rc == CLI_RUN ? chapter_start(opts, title) : rc;
}

void chapter_must(int status, const char *what)
{
    if (status == INVENT_OK)
        return;
    if (status == INVENT_ENOMEM)
        scope_out_of_memory(what);
    fflush(stdout);
    /* once the claims file is lost (a full disk, a file-size limit), its one
     * line has said why the run ends with 3; a write failing after it has
     * the same cause and adds nothing */
    if (!check_claims_lost())
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
    if (claims == CHAPTER_EXIT_RUNTIME || plot_failures() || dump_failures() || stdout_failed())
        return CHAPTER_EXIT_RUNTIME;
    return claims;
}

void chapter_dump(const invent_opts *o, const char *name, const gsl_matrix *m)
{
    if (dump_matrix(o, name, m) == INVENT_OK)
        return;
    fflush(stdout);
    fflush(stderr);
    _exit(CHAPTER_EXIT_RUNTIME);
}

int chapter_close(const invent_opts *o, int rc, const char *next)
{
    if (rc != 0)
        return rc;
    report_section(o, "What follows");
    report_text(o, "%s", next);
    return chapter_end();
}
