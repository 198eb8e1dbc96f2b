/* grade-run: runs one grader so that nothing it starts can hold the board.
 *
 *     grade-run SECONDS MEGABYTES PROGRAM [ARG...]
 *
 * PROGRAM runs as a child with at most MEGABYTES of address space per
 * process (0: no limit, for sanitizer builds, which reserve terabytes). This
 * process declares itself a subreaper, so every process PROGRAM starts, and
 * every process those start, comes back to it as an orphan when its parent
 * dies, even one that left its session (Criterion's workers call setsid).
 * When PROGRAM ends, or after SECONDS, every process still running below
 * this one is killed: a forked child that sleeps, or a grader stuck in a
 * constructor before main, cannot keep the board waiting.
 *
 * Exit status: PROGRAM's, 124 when it ran out of time (as timeout(1) says),
 * 128 + N when a signal N ended it, 2 for bad arguments. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { STATUS_TIMEOUT = 124, STATUS_USAGE = 2, POLL_MS = 10 };

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

int main(int argc, char **argv)
{
    long seconds = argc > 3 ? parse_count(argv[1], 24L * 3600) : -1;
    long megabytes = argc > 3 ? parse_count(argv[2], LONG_MAX >> 20) : -1;
    if (seconds <= 0 || megabytes < 0) {
        fprintf(stderr, "usage: grade-run SECONDS MEGABYTES PROGRAM [ARG...]\n");
        return STATUS_USAGE;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        perror("grade-run: prctl(PR_SET_CHILD_SUBREAPER)");
    double deadline = now() + (double)seconds;
    pid_t pid = fork();
    if (pid < 0) {
        perror("grade-run: fork");
        return STATUS_USAGE;
    }
    if (pid == 0) {
        limit_memory(megabytes);
        execvp(argv[3], argv + 3);
        fprintf(stderr, "grade-run: cannot run %s\n", argv[3]);
        _exit(127);
    }
    int status = wait_until(pid, deadline);
    kill_descendants(); /* PROGRAM too, when it ran out of time */
    return exit_status(status);
}
