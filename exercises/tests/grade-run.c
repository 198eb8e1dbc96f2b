/* grade-run: runs one grader and keeps its own account of the grade.
 *
 *     grade-run SECONDS MEGABYTES TESTS PROGRAM [ARG...]  3>RESULT
 *
 * PROGRAM (a grader) runs as a child with at most MEGABYTES of address space
 * per process (0: no limit, for sanitizer builds, which reserve terabytes)
 * and must hold TESTS graded tests. A pass cannot come from student code:
 *   - a key drawn here at run time (getrandom) reaches the grader through a
 *     pipe on its fd 3 (GRADE_KEY_FD), never through an environment or a
 *     file; the grader reads it once in its runner, and once more in each
 *     test's process at the test's last line, after the student's code;
 *   - the grader answers through a second pipe on its fd 4 (GRADE_ENDS_FD):
 *     one line "end KEY test" from each test that reached its last line, one
 *     "pass KEY test" per test that Criterion counted as passed, and one
 *     "report KEY counts" at the end;
 *   - this process is a subreaper: every process below it comes back to it
 *     as an orphan; when PROGRAM ends, or after SECONDS, every one still
 *     running is killed, and the answer is read only then, to its end of
 *     file, which comes once every holder of the pipe is gone;
 *   - PASS needs PROGRAM's exit status 0, TESTS tests all counted passed, and
 *     every one of them seen ending here with the key.
 * The account goes to this process's fd 3, which PROGRAM never has, as one
 * line: "verdict=PASS|FAIL tests=T passed=P crashed=C timed_out=O ended=E
 * status=S"; what went wrong is said on stdout, among the grader's messages.
 *
 * Exit status: PROGRAM's, 124 when it ran out of time (as timeout(1) says),
 * 128 + N when a signal N ended it, 2 for bad arguments. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade-key.h"

enum { STATUS_TIMEOUT = 124, STATUS_USAGE = 2, POLL_MS = 10, RESULT_FD = 3, ANSWER = 1 << 16 };

/* text -> a number in [0, max], or -1 when it is not one */
static long parse_count(const char *text, long max)
{
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (errno || end == text || *end || n < 0 || n > max)
        return -1;
    return n;
}

/* megabytes (0: none) -> this process's address-space limit */
static void limit_memory(long megabytes)
{
    if (megabytes == 0)
        return;
    rlim_t bytes = (rlim_t)megabytes << 20;
    struct rlimit lim = {bytes, bytes};
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        perror("grade-run: setrlimit");
}

/* -> seconds on a clock that only moves forward */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* pid, deadline -> its wait status, or -1 when the deadline passed first;
 * reaps any orphan that ends meanwhile */
static int wait_until(pid_t pid, double deadline)
{
    const struct timespec pause = {0, POLL_MS * 1000000L};
    while (now() < deadline) {
        int status;
        pid_t done = waitpid(-1, &status, WNOHANG);
        if (done == pid)
            return status;
        if (done <= 0)
            nanosleep(&pause, NULL);
    }
    return -1;
}

/* SIGKILL to every child of this process (the kernel lists them in
 * /proc/self/task/TID/children; this process has one thread) */
static void kill_children(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    int child;
    while (fscanf(f, "%d", &child) == 1)
        kill(child, SIGKILL);
    fclose(f);
}

/* kills and reaps every descendant; a killed process's own children become
 * this process's children before its death is reported, so each round
 * finds the next generation, until none is left */
static void kill_descendants(void)
{
    for (;;) {
        kill_children();
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
    }
}

/* wait status (or -1 for a timeout) -> this program's exit status */
static int exit_status(int status)
{
    if (status == -1)
        return STATUS_TIMEOUT;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

/* key <- GRADE_KEY_LEN hex digits from the kernel's random source */
static int draw_key(char *key)
{
    unsigned char raw[GRADE_KEY_LEN / 2];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(key + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* key -> the read end of a pipe that holds GRADE_KEY_COPIES lines of it,
 * one for the runner and one for each test's last line; -1 on failure */
static int key_pipe(const char *key)
{
    int fd[2];
    char line[GRADE_KEY_LEN + 1];
    if (pipe(fd) != 0)
        return -1;
    memcpy(line, key, GRADE_KEY_LEN);
    line[GRADE_KEY_LEN] = '\n';
    for (int i = 0; i < GRADE_KEY_COPIES; i++)
        if (write(fd[1], line, sizeof line) != (ssize_t)sizeof line)
            return -1;
    close(fd[1]);
    return fd[0];
}

/* in the child: the key on fd GRADE_KEY_FD, the answer pipe on
 * GRADE_ENDS_FD, stdin, stdout and stderr; every other descriptor closed */
static void child_fds(int key_fd, int ends_fd)
{
    int k = fcntl(key_fd, F_DUPFD, 16), e = fcntl(ends_fd, F_DUPFD, 16);
    if (k < 0 || e < 0 || dup2(k, GRADE_KEY_FD) < 0 || dup2(e, GRADE_ENDS_FD) < 0)
        _exit(127);
    close_range(GRADE_ENDS_FD + 1, ~0U, 0);
}

/* fd -> everything written into it until end of file, at most size - 1 bytes */
static size_t read_all(int fd, char *buf, size_t size)
{
    size_t used = 0;
    ssize_t got;
    while (used + 1 < size && (got = read(fd, buf + used, size - 1 - used)) > 0)
        used += (size_t)got;
    buf[used] = '\0';
    return used;
}

/* the grader's answer, once checked */
typedef struct {
    long tests, passed, crashed, timed_out, reports, ended, forged, pass_lines;
    char ends[ANSWER], passes[ANSWER]; /* test names, one per line */
} account;

/* list of names, one per line -> 1 when name is on it */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == '\n') && p[n] == '\n')
            return 1;
    return 0;
}

/* one line of the answer, key already checked -> counted into a */
static void count_line(account *a, const char *what, const char *rest)
{
    if (strcmp(what, "end") == 0 && !listed(a->ends, rest)) {
        a->ended++;
        strncat(a->ends, rest, sizeof a->ends - strlen(a->ends) - 2);
        strcat(a->ends, "\n");
    } else if (strcmp(what, "pass") == 0) {
        a->pass_lines++;
        strncat(a->passes, rest, sizeof a->passes - strlen(a->passes) - 2);
        strcat(a->passes, "\n");
    } else if (strcmp(what, "report") == 0) {
        a->reports++;
        sscanf(rest, "tests=%ld passed=%ld crashed=%ld timed_out=%ld", &a->tests, &a->passed,
               &a->crashed, &a->timed_out);
    }
}

/* the answer's text, key -> a; a line without the key counts as forged */
static void take_account(account *a, char *text, const char *key)
{
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *what = line, *k = strchr(line, ' '), *rest;
        if (!k || !(rest = strchr(k + 1, ' '))) {
            a->forged++;
            continue;
        }
        *k++ = '\0', *rest++ = '\0';
        if (strlen(k) != GRADE_KEY_LEN || strcmp(k, key) != 0)
            a->forged++;
        else
            count_line(a, what, rest);
    }
}

/* a, the tests wanted, PROGRAM's status -> 1 for a pass; says on stdout
 * what a pass by other means than the tests' own last lines looked like */
static int judge(const account *a, long wanted, int status)
{
    int ok = status == 0 && a->reports == 1 && a->tests == wanted && a->passed == wanted &&
             a->pass_lines == wanted && a->ended == wanted && !a->forged;
    if (a->forged)
        printf("  -> grade-run: %ld line(s) of the grader's answer lack this run's key: "
               "a forged result\n",
               a->forged);
    if (a->reports > 1)
        printf("  -> grade-run: %ld reports instead of one: a forged summary\n", a->reports);
    for (const char *p = a->passes; *p; p = strchr(p, '\n') + 1) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, "\n"), p);
        if (!listed(a->ends, name))
            printf("  -> %s: counted as passed, but it never reached its last line: its "
                   "process ended with the pass status from outside the test (a forged exit "
                   "status, or a hook that rewrote the count)\n",
                   name);
    }
    if (a->reports == 1 && a->passed > a->pass_lines)
        printf("  -> grade-run: the report counts %ld passed, but only %ld tests passed one "
               "by one: a hook that rewrote the count\n",
               a->passed, a->pass_lines);
    if (a->reports == 1 && a->tests != wanted)
        printf("  -> grade-run: the grader ran %ld tests, not its %ld\n", a->tests, wanted);
    fflush(stdout);
    return ok;
}

/* the account -> RESULT_FD, one line */
static void write_result(const account *a, int pass, int status)
{
    dprintf(RESULT_FD, "verdict=%s tests=%ld passed=%ld crashed=%ld timed_out=%ld ended=%ld "
                       "status=%d\n",
            pass ? "PASS" : "FAIL", a->tests, a->passed, a->crashed, a->timed_out, a->ended,
            status);
}

/* argv -> the child, running PROGRAM with fds from child_fds; its pid */
static pid_t start(char **argv, long megabytes, int key_fd, int ends[2])
{
    pid_t pid = fork();
    if (pid == 0) {
        close(ends[0]);
        child_fds(key_fd, ends[1]);
        limit_memory(megabytes);
        setenv("GRADE_KEYED", "1", 1);
        execvp(argv[0], argv);
        fprintf(stderr, "grade-run: cannot run %s\n", argv[0]);
        _exit(127);
    }
    close(key_fd);
    close(ends[1]);
    return pid;
}

int main(int argc, char **argv)
{
    long seconds = argc > 4 ? parse_count(argv[1], 24L * 3600) : -1;
    long megabytes = argc > 4 ? parse_count(argv[2], LONG_MAX >> 20) : -1;
    long wanted = argc > 4 ? parse_count(argv[3], GRADE_KEY_COPIES - 1) : -1;
    if (seconds <= 0 || megabytes < 0 || wanted <= 0 || fcntl(RESULT_FD, F_GETFD) < 0) {
        fprintf(stderr, "usage: grade-run SECONDS MEGABYTES TESTS PROGRAM [ARG...] 3>RESULT\n");
        return STATUS_USAGE;
    }
    char key[GRADE_KEY_LEN + 1] = "";
    int ends[2], key_fd = draw_key(key) == 0 ? key_pipe(key) : -1;
    if (key_fd < 0 || pipe(ends) != 0 || fcntl(RESULT_FD, F_SETFD, FD_CLOEXEC) < 0) {
        perror("grade-run: the key or the answer pipe");
        return STATUS_USAGE;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        perror("grade-run: prctl(PR_SET_CHILD_SUBREAPER)");
    double deadline = now() + (double)seconds;
    pid_t pid = start(argv + 4, megabytes, key_fd, ends);
    if (pid < 0) {
        perror("grade-run: fork");
        return STATUS_USAGE;
    }
    int status = wait_until(pid, deadline);
    kill_descendants(); /* PROGRAM too, when it ran out of time */
    static account a;
    static char text[ANSWER];
    read_all(ends[0], text, sizeof text);
    take_account(&a, text, key);
    int code = exit_status(status);
    write_result(&a, judge(&a, wanted, code), code);
    return code;
}
