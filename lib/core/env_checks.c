#include "env_checks.h"

#include "status.h"

#define ENV_CHECKS_MAX 4

static env_check_fn checks[ENV_CHECKS_MAX];
static int n_checks;

void env_checks_add(env_check_fn check)
{
    for (int i = 0; i < n_checks; i++)
        if (checks[i] == check)
            return;
    if (n_checks < ENV_CHECKS_MAX)
        checks[n_checks++] = check;
}

int env_checks_run(char *why, size_t size)
{
    for (int i = 0; i < n_checks; i++) {
        int status = checks[i](why, size);
        if (status != INVENT_OK)
            return status;
    }
    return INVENT_OK;
}
