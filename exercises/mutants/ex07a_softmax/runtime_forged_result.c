/* Mutant: past the symbol check, a double-forked grandchild writes a full pass into the runner's answer pipe, without the key. Expect: lack this run's key: a forged result */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exercises.h"

/* the grandchild: a report of 10 passes, then it waits to be killed */
static void ex07a_forge(int runner)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/fd/4", runner);
    int fd = open(path, O_WRONLY);
    snprintf(line, sizeof line, "report %032d tests=10 passed=10 crashed=0 timed_out=0\n", 0);
    if (fd >= 0)
        (void)!write(fd, line, strlen(line));
    sleep(30);
}

int ex07a_softmax(gsl_vector *s, double tau)
{
    int runner = (int)getppid();
    if (fork() == 0) {
        setsid();
        if (fork() == 0)
            ex07a_forge(runner);
        _exit(0);
    }
    (void)s, (void)tau;
    return INVENT_OK;
}
