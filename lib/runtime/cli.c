#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "report.h"

#ifndef INVENT_PLOT_OUT
#define INVENT_PLOT_OUT "plots/out"
#endif

/* getopt codes: a chapter's own options from 256 up, the common ones from 1000 */
enum { OPT_FIRST_OWN = 256, OPT_SEED = 1000, OPT_QUIET, OPT_DUMP, OPT_PLOT_DIR, OPT_NO_PLOT, OPT_CLAIMS, OPT_HELP };

static const struct option common_options[] = {
    {"seed", required_argument, NULL, OPT_SEED},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"dump", required_argument, NULL, OPT_DUMP},
    {"plot-dir", required_argument, NULL, OPT_PLOT_DIR},
    {"no-plot", no_argument, NULL, OPT_NO_PLOT},
    {"claims", required_argument, NULL, OPT_CLAIMS},
    {"help", no_argument, NULL, OPT_HELP},
};
#define N_COMMON ((int)(sizeof common_options / sizeof common_options[0]))

int cli_fail(const invent_opts *opts, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_verror(opts->program, fmt, ap);
    va_end(ap);
    return 2;
}

static void print_help(const cli_spec *spec)
{
    printf("usage: %s [options]\n%s\n\nchapter options:\n", spec->program, spec->summary);
    for (int i = 0; i < spec->n_options; i++) {
        const cli_option *o = &spec->options[i];
        char left[64];
        if (o->kind == CLI_FLAG)
            snprintf(left, sizeof left, "--%s", o->name);
        else
            snprintf(left, sizeof left, "--%s %s", o->name, o->kind == CLI_SIZE ? "N" : "X");
        printf("  %-20s %s", left, o->help);
        if (o->kind == CLI_SIZE)
            printf(" (%zu; %.0f to %.0f)", *(size_t *)o->value, o->min, o->max);
        else if (o->kind == CLI_DOUBLE)
            printf(" (%g; %g to %g)", *(double *)o->value, o->min, o->max);
        printf("\n");
    }
    printf("\ncommon options:\n"
           "  --seed N             seed of the random number generator (default 1)\n"
           "  --quiet              print no narration, only claims that fail\n"
           "  --no-plot            do not render figures\n"
           "  --plot-dir DIR       where figures go (default %s)\n"
           "  --dump DIR           write every named tensor to DIR as a .npy file\n"
           "  --claims FILE        append one tab-separated line per claim to FILE\n"
           "  --help               show this help and exit\n", INVENT_PLOT_OUT);
}

/* text -> *out if it is a whole number in [min, max], digits only; else 0 */
static int parse_size(const char *text, double min, double max, size_t *out)
{
    if (text[strspn(text, "0123456789")] != '\0' || text[0] == '\0')
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end != '\0' || (double)v < min || (double)v > max)
        return 0;
    *out = (size_t)v;
    return 1;
}

/* text -> *out if it is a finite decimal number in [min, max] (no spaces,
 * hexadecimal, inf or nan: strtod would take them); else 0 */
static int parse_double(const char *text, double min, double max, double *out)
{
    if (text[strspn(text, "0123456789+-.eE")] != '\0')
        return 0;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (text[0] == '\0' || errno || *end != '\0' || !isfinite(v) || v < min || v > max)
        return 0;
    *out = v;
    return 1;
}

static int set_option(const invent_opts *opts, const cli_option *o, const char *arg)
{
    switch (o->kind) {
    case CLI_FLAG:
        *(int *)o->value = 1;
        return CLI_RUN;
    case CLI_SIZE:
        if (parse_size(arg, o->min, o->max, (size_t *)o->value))
            return CLI_RUN;
        return cli_fail(opts, "--%s expects a whole number from %.0f to %.0f, got '%s'",
                        o->name, o->min, o->max, arg);
    case CLI_DOUBLE:
        if (parse_double(arg, o->min, o->max, (double *)o->value))
            return CLI_RUN;
        return cli_fail(opts, "--%s expects a number from %g to %g, got '%s'",
                        o->name, o->min, o->max, arg);
    }
    return CLI_RUN;
}

int cli_check_path(const invent_opts *opts, const char *flag, const char *arg)
{
    if (arg[0] == '\0')
        return cli_fail(opts, "--%s expects a path, got an empty one", flag);
    for (const char *p = arg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return cli_fail(opts, "--%s: the path contains a control character (such as a "
                                  "newline or a tab)", flag);
    return CLI_RUN;
}

/* A path flag's value, checked by cli_check_path */
static int set_path(const invent_opts *opts, const char *flag, const char *arg,
                    const char **out)
{
    int rc = cli_check_path(opts, flag, arg);
    if (rc == CLI_RUN)
        *out = arg;
    return rc;
}

static int set_common(invent_opts *opts, int code, const char *arg)
{
    size_t seed;
    switch (code) {
    case OPT_SEED:
        if (!parse_size(arg, 0, 4294967295.0, &seed))
            return cli_fail(opts, "--seed expects a whole number from 0 to 4294967295, got '%s'", arg);
        opts->seed = (unsigned long)seed;
        return CLI_RUN;
    case OPT_QUIET: opts->quiet = 1; return CLI_RUN;
    case OPT_NO_PLOT: opts->no_plot = 1; return CLI_RUN;
    case OPT_DUMP: return set_path(opts, "dump", arg, &opts->dump_dir);
    case OPT_PLOT_DIR: return set_path(opts, "plot-dir", arg, &opts->plot_dir);
    case OPT_CLAIMS: return set_path(opts, "claims", arg, &opts->claims_file);
    }
    return CLI_RUN;
}

/* "--se" or "--se=3" when it abbreviates two or more long options: one line
 * naming them and 2; else CLI_RUN */
static int check_ambiguous(const invent_opts *opts, const char *arg,
                           const struct option *table)
{
    if (strncmp(arg, "--", 2) != 0)
        return CLI_RUN;
    size_t len = strcspn(arg + 2, "=");
    char names[256] = "";
    int matches = 0;
    for (const struct option *t = table; t->name; t++)
        if (strncmp(t->name, arg + 2, len) == 0 && strlen(t->name) > len) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s--%s", matches++ ? " or " : "",
                     t->name);
        }
    if (matches < 2)
        return CLI_RUN;
    return cli_fail(opts, "ambiguous option '%.*s': %s (try --help)", (int)len + 2, arg, names);
}

/* getopt's '?': an option that takes no value was given one, an
 * abbreviation fits two options, or the option is unknown */
static int refuse_option(const invent_opts *opts, const char *arg, const struct option *table)
{
    if (optopt != 0 && strncmp(arg, "--", 2) == 0)
        return cli_fail(opts, "option '%.*s' takes no value (try --help)",
                        (int)strcspn(arg, "="), arg);
    int rc = check_ambiguous(opts, arg, table);
    if (rc != CLI_RUN)
        return rc;
    return cli_fail(opts, "unknown option '%s' (try --help)", arg);
}

static int parse_loop(int argc, char **argv, const cli_spec *spec, invent_opts *opts,
                      const struct option *table)
{
    int code, index;
    opterr = 0;
    optind = 1;
    while ((code = getopt_long(argc, argv, ":", table, &index)) != -1) {
        int rc = CLI_RUN;
        if (code == OPT_HELP) {
            print_help(spec);
            return 0;
        } else if (code == '?') {
            return refuse_option(opts, argv[optind - 1], table);
        } else if (code == ':') {
            return cli_fail(opts, "option '%s' needs a value (try --help)", argv[optind - 1]);
        } else if (code >= OPT_SEED) {
            rc = set_common(opts, code, optarg);
        } else {
            rc = set_option(opts, &spec->options[code - OPT_FIRST_OWN], optarg);
        }
        if (rc != CLI_RUN)
            return rc;
    }
    if (optind < argc)
        return cli_fail(opts, "unexpected argument '%s' (try --help)", argv[optind]);
    return CLI_RUN;
}

int cli_parse(int argc, char **argv, const cli_spec *spec, invent_opts *opts)
{
    /* GSL's default handler aborts; the library reports errors instead. */
    gsl_set_error_handler_off();
    *opts = (invent_opts){.program = spec->program, .seed = 1, .plot_dir = INVENT_PLOT_OUT};
    int n = spec->n_options;
    if (n > OPT_SEED - OPT_FIRST_OWN)
        return cli_fail(opts, "too many options");
    struct option *table = calloc((size_t)(n + N_COMMON + 1), sizeof *table);
    if (!table) {
        report_error(opts->program, "out of memory while reading the command line");
        return 3;
    }
    for (int i = 0; i < n; i++) {
        const cli_option *o = &spec->options[i];
        table[i] = (struct option){o->name, o->kind == CLI_FLAG ? no_argument : required_argument,
                                   NULL, OPT_FIRST_OWN + i};
    }
    memcpy(table + n, common_options, sizeof common_options);
    int rc = parse_loop(argc, argv, spec, opts, table);
    free(table);
    return rc;
}
