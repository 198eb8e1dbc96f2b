#include "flag_given.h"

#include <string.h>

int flag_given(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0)
            return 0;
        if (strncmp(arg, "--", 2) != 0)
            continue;
        size_t n = strcspn(arg + 2, "=");
        if (n > 0 && n <= strlen(name) && strncmp(arg + 2, name, n) == 0)
            return 1;
    }
    return 0;
}
