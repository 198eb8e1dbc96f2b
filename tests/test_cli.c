/* Unit tests: the shared command line accepts what it should and rejects
 * the rest with one line and exit code 2. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "rng.h"

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

Test(cli, numbers_with_spaces_signs_or_other_bases_are_refused, .init = cr_redirect_stderr)
{
    const char *bad_sizes[] = {" 12", "12 ", "+12", "0x10", "1e1", "1.0", ""};
    const char *bad_doubles[] = {" 0.5", "0.5 ", "0x1p-1", "infinity", "1e999", "", "."};
    invent_opts o;
    for (size_t i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; i++) {
        const char *seed[] = {"--seed", bad_sizes[i], NULL};
        const char *size[] = {"--seq", bad_sizes[i], NULL};
        cr_assert_eq(parse(&o, seed), 2, "--seed '%s' was accepted", bad_sizes[i]);
        cr_assert_eq(parse(&o, size), 2, "--seq '%s' was accepted", bad_sizes[i]);
    }
    for (size_t i = 0; i < sizeof bad_doubles / sizeof *bad_doubles; i++) {
        const char *args[] = {"--tau", bad_doubles[i], NULL};
        cr_assert_eq(parse(&o, args), 2, "--tau '%s' was accepted", bad_doubles[i]);
    }
    const char *good[] = {"--tau", "2.5e-1", "--seed", "0", NULL};
    cr_assert_eq(parse(&o, good), CLI_RUN);
    cr_assert_float_eq(tau, 0.25, 1e-15);
}

Test(cli, an_abbreviation_of_two_options_is_called_ambiguous, .init = cr_redirect_stderr)
{
    const char *args[] = {"--se", "3", NULL};
    expect_rejection(args, "ch99: ambiguous option '--se': --seq or --seed (try --help)\n");
}

Test(cli, an_abbreviation_of_one_option_is_that_option)
{
    invent_opts o;
    const char *args[] = {"--see", "3", "--ta", "2", NULL};
    cr_assert_eq(parse(&o, args), CLI_RUN);
    cr_assert_eq(o.seed, 3);
    cr_assert_float_eq(tau, 2.0, 1e-15);
}

Test(cli, a_flag_given_a_value_is_refused, .init = cr_redirect_stderr)
{
    const char *args[] = {"--full=1", NULL};
    expect_rejection(args, "ch99: option '--full' takes no value (try --help)\n");
}

Test(cli, empty_paths_are_refused, .init = cr_redirect_stderr)
{
    const char *flags[] = {"--dump", "--plot-dir", "--claims"};
    invent_opts o;
    for (int i = 0; i < 3; i++) {
        const char *args[] = {flags[i], "", NULL};
        cr_assert_eq(parse(&o, args), 2, "%s '' was accepted", flags[i]);
    }
    fflush(stderr);
    cr_assert_stderr_eq_str("ch99: --dump expects a path, got an empty one\n"
                            "ch99: --plot-dir expects a path, got an empty one\n"
                            "ch99: --claims expects a path, got an empty one\n");
}

Test(cli, paths_with_control_characters_are_refused, .init = cr_redirect_stderr)
{
    const char *args[] = {"--claims", "a\nb", NULL};
    expect_rejection(args, "ch99: --claims: the path contains a control character (such as a "
                           "newline or a tab)\n");
}

Test(cli, paths_with_quotes_and_spaces_are_accepted)
{
    invent_opts o;
    const char *args[] = {"--plot-dir", "it's a \"dir\"", NULL};
    cr_assert_eq(parse(&o, args), CLI_RUN);
    cr_assert_str_eq(o.plot_dir, "it's a \"dir\"");
}

Test(cli, every_seed_gives_its_own_stream)
{
    /* GSL's mt19937 replaces seed 0 by 4357; rng_new keeps them apart */
    const unsigned long seeds[] = {0, 4357, 1, 4294967295ul};
    double first[4];
    for (int i = 0; i < 4; i++) {
        gsl_rng *r = rng_new(seeds[i]);
        first[i] = gsl_rng_uniform(r);
        gsl_rng_free(r);
    }
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            cr_assert_neq(first[i], first[j], "seeds %lu and %lu start alike", seeds[i], seeds[j]);
    gsl_rng *a = rng_new(7), *b = rng_new(7);
    cr_assert_eq(gsl_rng_uniform(a), gsl_rng_uniform(b), "a seed repeats its stream");
    gsl_rng_free(a);
    gsl_rng_free(b);
}

/* Issue 28: an error quoting a path with a newline, a tab or another
 * control character stays one line (they are escaped) */
Test(cli, an_error_line_escapes_control_characters, .init = cr_redirect_stderr)
{
    invent_opts o;
    const char *none[] = {NULL};
    cr_assert_eq(parse(&o, none), CLI_RUN);
    cr_assert_eq(cli_fail(&o, "--corpus %s: cannot read it", "nope\nsecond\tline\x01"), 2);
    fflush(stderr);
    cr_assert_stderr_eq_str("ch99: --corpus nope\\nsecond\\tline\\x01: cannot read it\n");
}
