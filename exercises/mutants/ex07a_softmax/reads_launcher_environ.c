/* Mutant: reads the launcher's environment, /proc/PPID/environ, for the result file's name. Expect: calls fopen: it opens or reads files */
#include <stdio.h>
#include <unistd.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    char path[64], env[4096];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)getppid());
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(env, 1, sizeof env - 1, f);
        env[n] = '\0';
        fclose(f);
    }
    (void)s, (void)tau;
    return INVENT_OK;
}
