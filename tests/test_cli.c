/* Unit tests: the shared command line accepts what it should and rejects
 * the rest with one line and exit code 2. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stddef.h>
#include <string.h>

#include "cli.h"

static size_t seq;
static double tau;
static int full;

static const cli_option options[] = {
    {"seq", CLI_SIZE, &seq, 1, 64, "sequence length"},
    {"tau", CLI_DOUBLE, &tau, 0.01, 100, "temperature"},
    {"full", CLI_FLAG, &full, 0, 0, "run everything"},
};
static const cli_spec spec = {"ch99", "A test chapter.", options, 3};

/* Parses a NULL-terminated argument list with fresh defaults. */
static int parse(invent_opts *o, const char **args)
{
    char *argv[16] = {"ch99"};
    int argc = 1;
    while (args[argc - 1])
        argv[argc] = (char *)args[argc - 1], argc++;
    seq = 8;
    tau = 1.0;
    full = 0;
    return cli_parse(argc, argv, &spec, o);
}

Test(cli, defaults_when_no_flags)
{
    invent_opts o;
    const char *args[] = {NULL};
    cr_assert_eq(parse(&o, args), CLI_RUN);
    cr_assert_eq(seq, 8);
    cr_assert_eq(o.seed, 1);
    cr_assert_eq(o.quiet, 0);
    cr_assert_null(o.dump_dir);
    cr_assert_str_eq(o.program, "ch99");
}

Test(cli, reads_common_and_own_flags)
{
    invent_opts o;
    const char *args[] = {"--seq", "64", "--tau=0.5", "--full", "--seed", "3", "--quiet",
                          "--no-plot", "--dump", "/tmp/d", "--plot-dir", "/tmp/p", NULL};
    cr_assert_eq(parse(&o, args), CLI_RUN);
    cr_assert_eq(seq, 64);
    cr_assert_float_eq(tau, 0.5, 1e-15);
    cr_assert_eq(full, 1);
    cr_assert_eq(o.seed, 3);
    cr_assert(o.quiet && o.no_plot);
    cr_assert_str_eq(o.dump_dir, "/tmp/d");
    cr_assert_str_eq(o.plot_dir, "/tmp/p");
}

static void expect_rejection(const char **args, const char *message)
{
    invent_opts o;
    cr_assert_eq(parse(&o, args), 2);
    fflush(stderr);
    cr_assert_stderr_eq_str(message);
}

Test(cli, rejects_zero_size, .init = cr_redirect_stderr)
{
    const char *args[] = {"--seq", "0", NULL};
    expect_rejection(args, "ch99: --seq expects a whole number from 1 to 64, got '0'\n");
}

Test(cli, rejects_non_number, .init = cr_redirect_stderr)
{
    const char *args[] = {"--seq", "abc", NULL};
    expect_rejection(args, "ch99: --seq expects a whole number from 1 to 64, got 'abc'\n");
}

Test(cli, rejects_negative_and_trailing_garbage, .init = cr_redirect_stderr)
{
    const char *neg[] = {"--seq", "-3", NULL}, *junk[] = {"--seq", "4x", NULL};
    invent_opts o;
    cr_assert_eq(parse(&o, neg), 2);
    cr_assert_eq(parse(&o, junk), 2);
}

Test(cli, rejects_too_large_size, .init = cr_redirect_stderr)
{
    const char *args[] = {"--seq", "65", NULL};
    expect_rejection(args, "ch99: --seq expects a whole number from 1 to 64, got '65'\n");
}

Test(cli, rejects_out_of_range_and_infinite_numbers, .init = cr_redirect_stderr)
{
    const char *small[] = {"--tau", "0", NULL}, *inf[] = {"--tau", "inf", NULL};
    const char *nan[] = {"--tau", "nan", NULL};
    invent_opts o;
    cr_assert_eq(parse(&o, small), 2);
    cr_assert_eq(parse(&o, inf), 2);
    cr_assert_eq(parse(&o, nan), 2);
}

Test(cli, rejects_unknown_flag, .init = cr_redirect_stderr)
{
    const char *args[] = {"--bogus", NULL};
    expect_rejection(args, "ch99: unknown option '--bogus' (try --help)\n");
}

Test(cli, rejects_missing_value, .init = cr_redirect_stderr)
{
    const char *args[] = {"--seq", NULL};
    expect_rejection(args, "ch99: option '--seq' needs a value (try --help)\n");
}

Test(cli, rejects_stray_argument, .init = cr_redirect_stderr)
{
    const char *args[] = {"extra", NULL};
    expect_rejection(args, "ch99: unexpected argument 'extra' (try --help)\n");
}

Test(cli, rejects_bad_seed, .init = cr_redirect_stderr)
{
    const char *args[] = {"--seed", "-1", NULL};
    invent_opts o;
    cr_assert_eq(parse(&o, args), 2);
}

Test(cli, help_exits_zero_and_lists_options, .init = cr_redirect_stdout)
{
    invent_opts o;
    const char *args[] = {"--help", NULL};
    cr_assert_eq(parse(&o, args), 0);
}

Test(cli, cli_fail_prints_one_line_and_returns_two, .init = cr_redirect_stderr)
{
    invent_opts o = {.program = "ch99"};
    cr_assert_eq(cli_fail(&o, "--heads (%d) must divide --dim (%d)", 3, 8), 2);
    fflush(stderr);
    cr_assert_stderr_eq_str("ch99: --heads (3) must divide --dim (8)\n");
}
