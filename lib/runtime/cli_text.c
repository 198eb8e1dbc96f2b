#include "cli_text.h"

#include <string.h>

#include "cli.h"
#include "report.h"

/* arg -> the option it names ("--name" or "--name=..."), or NULL */
static const cli_text_option *named(const char *arg, const cli_text_option *opts, int n)
{
    if (strncmp(arg, "--", 2) != 0)
        return NULL;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(opts[i].name);
        if (strncmp(arg + 2, opts[i].name, len) == 0 &&
            (arg[2 + len] == '\0' || arg[2 + len] == '='))
            return &opts[i];
    }
    return NULL;
}

int cli_take_text(int *argc, char **argv, const cli_text_option *opts, int n,
                  const char *program)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const cli_text_option *o = strcmp(argv[i], "--") == 0 ? NULL : named(argv[i], opts, n);
        if (!o) {
            argv[kept++] = argv[i];
            continue;
        }
        const char *eq = strchr(argv[i], '=');
        const char *value = eq ? eq + 1 : i + 1 < *argc ? argv[++i] : NULL;
        if (!value || value[0] == '\0') {
            report_error(program, "option '--%s' needs a value (try --help)", o->name);
            return 2;
        }
        *o->value = value;
    }
    *argc = kept;
    argv[kept] = NULL;
    return CLI_RUN;
}
