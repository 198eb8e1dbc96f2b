/* The guards around every graded test (grade.h): a test passes only when it
 * reached its last line; early exits, crashes and GSL errors in student code
 * fail it with a message that names them and, where the debug information
 * tells, the student's line; each test's last line, and the counts, go to
 * grade-run with this run's key (grade-run.c, grade-key.h).
 *
 * Two kinds of process run this code. The runner (Criterion's main) starts
 * one worker process per test and calls the ReportHooks below; each worker
 * runs grade_setup, one test body, and grade_end. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/hooks.h>
#include <gsl/gsl_errno.h>

#include "grade-key.h"
#include "grade.h"

enum { FRAMES = 48, WHERE = 512, LISTING = 8192 };

/* AddressSanitizer (make exerciseN SAN=1) reports crashes better than
 * on_crash, and stops a test with status 1 after its report */
#ifdef __SANITIZE_ADDRESS__
enum { UNDER_ASAN = 1 };
#else
enum { UNDER_ASAN = 0 };
#endif

const char *grade_doing;

/* buf (a string in size bytes) <- buf followed by the formatted text, cut to fit */
static void append(char *buf, size_t size, const char *format, ...)
{
    size_t used = strlen(buf);
    va_list args;
    va_start(args, format);
    vsnprintf(buf + used, size - used, format, args);
    va_end(args);
}

/* ---------------------------------------------------- the student's line */

/* -> 1 when the program was linked position-independent (its debug
 * information then counts addresses from its load base) */
static int is_pie(const void *base)
{
    return ((const ElfW(Ehdr) *)base)->e_type == ET_DYN;
}

/* frames -> their addresses as addr2line wants them, as arguments
 * ("0x1a2b"), for the frames inside this program; returns how many */
static int program_addresses(void *const *frames, int n, char (*hex)[24])
{
    Dl_info self, at;
    if (!dladdr((void *)grade_setup, &self))
        return 0;
    uintptr_t base = is_pie(self.dli_fbase) ? (uintptr_t)self.dli_fbase : 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (dladdr(frames[i], &at) && at.dli_fbase == self.dli_fbase) /* -1: inside the call */
            snprintf(hex[k++], sizeof hex[0], "%#lx",
                     (unsigned long)((uintptr_t)frames[i] - base - 1));
    return k;
}

/* argv of addr2line -> its output in out (at most size - 1 bytes), "" when
 * it cannot run; uses fork, exec and read only, so a crash handler may call it */
static void run_addr2line(char *const *argv, char *out, size_t size)
{
    int fd[2];
    out[0] = '\0';
    if (pipe(fd) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        int quiet = open("/dev/null", O_WRONLY);
        dup2(fd[1], STDOUT_FILENO);
        dup2(quiet, STDERR_FILENO); /* its warnings are no business of the student's */
        close(fd[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t used = 0;
    ssize_t got;
    while (pid > 0 && used + 1 < size && (got = read(fd[0], out + used, size - 1 - used)) > 0)
        used += (size_t)got;
    out[used] = '\0';
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
}

/* the folder the grader runs in, the project's root; set by grade_setup */
static char root[4096];

/* addr2line's lines ("/root/exercises/ex07a_softmax.c:42") -> the first
 * one in exercises/ but outside exercises/tests/ (the student's file, a
 * solution or a mutant), relative to the root; or "" */
static void pick_student_line(const char *listing, char *where, size_t size)
{
    size_t skip = strlen(root);
    where[0] = '\0';
    for (const char *line = listing; line && *line; line = strchr(line, '\n')) {
        line += *line == '\n';
        if (skip && strncmp(line, root, skip) == 0 && line[skip] == '/')
            line += skip + 1;
        if (strncmp(line, "exercises/", 10) == 0 && strncmp(line, "exercises/tests/", 16) != 0) {
            snprintf(where, size, "%.*s", (int)strcspn(line, " \n"), line);
            return;
        }
    }
}

/* frames of the current stack -> where, "exercises/ex07a_softmax.c:42", the
 * innermost line of the graded file on that stack, or "" when unknown */
static void student_line(void *const *frames, int n, char *where, size_t size)
{
    static char hex[FRAMES][24];
    static char exe[4096], listing[LISTING];
    char *argv[FRAMES + 4] = {"addr2line", "-e", exe};
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int k = len > 0 ? program_addresses(frames, n < FRAMES ? n : FRAMES, hex) : 0;
    where[0] = '\0';
    if (k == 0)
        return;
    exe[len] = '\0';
    for (int i = 0; i < k; i++)
        argv[3 + i] = hex[i];
    run_addr2line(argv, listing, sizeof listing);
    pick_student_line(listing, where, size);
}

/* -> "; a test may use at most N MB", this process's memory limit, or ""
 * when it has none */
static void limit_note(char *note, size_t size)
{
    struct rlimit lim;
    note[0] = '\0';
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        snprintf(note, size, "; a test may use at most %ld MB", (long)(lim.rlim_cur >> 20));
}

/* ------------------------------------------------------------ GSL errors */

/* frames of a stack inside gsl_error -> the outermost GSL function on it,
 * the one the caller called (gsl_vector_get, gsl_blas_dgemm, ...) */
static const char *gsl_function(void *const *frames, int n)
{
    Dl_info gsl, at;
    const char *name = "a GSL function";
    if (!dladdr((void *)gsl_error, &gsl))
        return name;
    for (int i = 1; i < n && dladdr(frames[i], &at) && at.dli_fbase == gsl.dli_fbase; i++)
        if (at.dli_sname)
            name = at.dli_sname;
    return name;
}

/* GSL's error handler during a test: fails the test with GSL's reason, the
 * GSL function and the student's line (GSL would otherwise abort) */
static void on_gsl_error(const char *reason, const char *file, int line, int gsl_errno)
{
    (void)file, (void)line;
    void *frames[FRAMES];
    char where[WHERE], msg[WHERE + 512], hint[128] = "check the sizes and the indices you pass it";
    int n = backtrace(frames, FRAMES);
    student_line(frames, n, where, sizeof where);
    if (gsl_errno == GSL_ENOMEM) {
        snprintf(hint, sizeof hint, "an allocation failed");
        limit_note(hint + strlen(hint), sizeof hint - strlen(hint));
    }
    snprintf(msg, sizeof msg, "GSL: %s in %s", reason, gsl_function(frames, n));
    if (where[0])
        append(msg, sizeof msg, ", called at %s", where);
    if (grade_doing)
        append(msg, sizeof msg, ", during \"%s\"", grade_doing);
    cr_assert_fail("%s\nHint: %s", msg, hint);
}

/* --------------------------------------------------------------- crashes */

/* the faulting address of a SIGSEGV -> a word about a likely NULL pointer */
static void null_note(int sig, const siginfo_t *info, char *note, size_t size)
{
    char limit[64];
    note[0] = '\0';
    limit_note(limit, sizeof limit);
    if (sig == SIGSEGV && (uintptr_t)info->si_addr < (1u << 20))
        snprintf(note, size, " (through a NULL pointer: did an allocation fail%s?)", limit);
}

/* text -> stderr without stdio, which a crash may have left in any state */
static void say(const char *text)
{
    size_t left = strlen(text);
    for (ssize_t n; left > 0 && (n = write(STDERR_FILENO, text, left)) > 0; left -= (size_t)n)
        text += n;
}

/* a crash in a test's process: says where, then dies of the same signal */
static void on_crash(int sig, siginfo_t *info, void *context)
{
    (void)context;
    void *frames[FRAMES];
    char where[WHERE], note[128], line[WHERE + 256];
    int n = backtrace(frames, FRAMES);
    student_line(frames, n, where, sizeof where);
    null_note(sig, info, note, sizeof note);
    snprintf(line, sizeof line, "  -> %s: %s", criterion_current_test->name, strsignal(sig));
    if (where[0])
        append(line, sizeof line, " at %s%s", where, note);
    if (grade_doing)
        append(line, sizeof line, ", during \"%s\"", grade_doing);
    if (where[0] || grade_doing) {
        append(line, sizeof line, "\n");
        say(line);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* installs on_crash for the signals of a crash, on a stack of its own so
 * that even an overflowed stack is reported */
static void catch_crashes(void)
{
    static char alt[1 << 16];
    stack_t stack = {.ss_sp = alt, .ss_size = sizeof alt};
    sigaltstack(&stack, NULL);
    struct sigaction act = {.sa_sigaction = on_crash, .sa_flags = SA_SIGINFO | SA_ONSTACK};
    const int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        sigaction(signals[i], &act, NULL);
}

/* ----------------------------------------------------- a test's own end */

static int after_failed_check;

/* at exit() of a test's process: student code called exit() (grade_end and
 * Criterion after a failed check leave by other ways) */
static void on_exit_call(void)
{
    if (!after_failed_check)
        _exit(GRADE_CALLED_EXIT);
}

/* at quick_exit() of a test's process: only student code calls it */
static void on_quick_exit_call(void)
{
    _exit(GRADE_CALLED_QUICK_EXIT);
}

void grade_setup(void)
{
    static char out[BUFSIZ];
    void *warm[1];
    if (!getcwd(root, sizeof root))
        root[0] = '\0';
    setvbuf(stdout, out, _IOLBF, sizeof out); /* a printf allocates nothing */
    backtrace(warm, 1);                       /* loads what backtrace needs, now */
    atexit(on_exit_call);
    at_quick_exit(on_quick_exit_call);
    gsl_set_error_handler(on_gsl_error);
    if (!UNDER_ASAN)
        catch_crashes();
}

void grade_teardown(void)
{
    after_failed_check = 1;
}

/* ------------------------------------------------- the runner's messages */

/* The runner outlives every test's process: the hooks say in words what a
 * crash, a timeout or an early exit means, and count the results. */
static size_t crashed, timed_out;

/* signal -> what usually causes it */
static const char *crash_cause(int sig)
{
    if (sig == SIGABRT)
        return "abort() was called, or the C library found a corrupted heap or stack (a "
               "write past the end of an array?)";
    if (sig == SIGFPE)
        return "an integer division by zero?";
    return "look for an index past the end of a matrix or of an array, a NULL pointer, or "
           "memory used after free";
}

ReportHook(TEST_CRASH)(struct criterion_test_stats *stats)
{
    crashed++;
    printf("  -> %s: your code crashed (%s): %s.\n", stats->test->name, strsignal(stats->signal),
           crash_cause(stats->signal));
    fflush(stdout);
}

/* exit status of a test that ended before its last line -> why, and what to do */
static const char *early_exit_cause(int status)
{
    if (status == GRADE_CALLED_EXIT)
        return "your code called exit(); return a status instead";
    if (status == GRADE_CALLED_QUICK_EXIT)
        return "your code called quick_exit(); return a status instead";
    if (UNDER_ASAN && status == 1)
        return "a sanitizer stopped it; its report above names the line";
    return "its process ended early: _exit() or _Exit() in your code? Return a status instead";
}

/* a test's stats -> in words, a timeout or an end before its last line */
static void report_end(const struct criterion_test_stats *stats)
{
    if (stats->timed_out) {
        timed_out++;
        printf("  -> %s: did not finish within %.0f s. An endless loop? Check that every "
               "loop's index moves towards its bound.\n",
               stats->test->name, GRADE_TIMEOUT);
    } else if (stats->failed_asserts == 0 && stats->exit_code != GRADE_REACHED_END) {
        printf("  -> %s: the test never reached its end (exit status %d): %s.\n",
               stats->test->name, stats->exit_code, early_exit_cause(stats->exit_code));
    }
    fflush(stdout);
}

/* ------------------------------------------------ the answer to grade-run */

/* The runner's copy of this run's key (grade-key.h): read once at load,
 * before any test's process exists; the student's code never runs in the
 * runner (scripts/exercise-policy.sh refuses constructors and hooks). */
static char runner_key[GRADE_KEY_LEN + 1];

/* -> 1 when grade-run started this grader (descriptors 3 and 4 are its) */
static int keyed(void)
{
    return getenv("GRADE_KEYED") != NULL;
}

/* A test's process (boxfort-worker) starts with descriptors 0-2 only: at
 * its last line it reaches the runner's pipes through /proc/PPID/fd, a
 * path that student code cannot open (open and fopen are refused). */

/* which (GRADE_KEY_FD, GRADE_ENDS_FD), flags -> a descriptor of the runner's
 * pipe: its own in the runner, a fresh one in a test's process */
static int runner_fd(int which, int flags, int in_runner)
{
    char path[64];
    if (in_runner)
        return which;
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)getppid(), which);
    return open(path, flags | O_CLOEXEC);
}

/* key <- the next line of the key pipe; 0 when there is none */
static int read_key(char *key, int in_runner)
{
    char line[GRADE_KEY_LEN + 1];
    int fd = keyed() ? runner_fd(GRADE_KEY_FD, O_RDONLY, in_runner) : -1;
    ssize_t got = fd < 0 ? -1 : read(fd, line, sizeof line);
    if (fd >= 0 && !in_runner)
        close(fd);
    if (got != (ssize_t)sizeof line)
        return 0;
    memcpy(key, line, GRADE_KEY_LEN);
    key[GRADE_KEY_LEN] = '\0';
    return 1;
}

/* what, key, test -> one line "what key suite/test" to grade-run */
static void answer(const char *what, const char *key, const struct criterion_test *test,
                   int in_runner)
{
    int fd = keyed() && key[0] ? runner_fd(GRADE_ENDS_FD, O_WRONLY, in_runner) : -1;
    if (fd < 0)
        return;
    dprintf(fd, "%s %s %s/%s\n", what, key, test->category, test->name);
    if (!in_runner)
        close(fd);
}

/* At load of the runner (a test's process, "boxfort-worker", waits for
 * its last line): this run's key. */
__attribute__((constructor(101))) static void take_key(int argc, char **argv)
{
    if (argc > 0 && strcmp(argv[0], "boxfort-worker") != 0)
        read_key(runner_key, 1);
}

void grade_end(void)
{
    char key[GRADE_KEY_LEN + 1] = "";
    fflush(NULL);
    if (read_key(key, 0))
        answer("end", key, criterion_current_test, 0);
    _exit(GRADE_REACHED_END);
}

/* After each test, in the runner: the tests Criterion counts as passed. */
ReportHook(POST_TEST)(struct criterion_test_stats *stats)
{
    report_end(stats);
    if (stats->test_status == CR_STATUS_PASSED)
        answer("pass", runner_key, stats->test, 1);
}

/* After all tests: the counts, to grade-run, which checks them against
 * the tests' own last lines. */
ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    size_t tests = stats->nb_tests - stats->tests_skipped, passed = stats->tests_passed;
    if (keyed() && runner_key[0])
        dprintf(GRADE_ENDS_FD, "report %s tests=%zu passed=%zu crashed=%zu timed_out=%zu\n",
                runner_key, tests, passed, crashed, timed_out);
}
