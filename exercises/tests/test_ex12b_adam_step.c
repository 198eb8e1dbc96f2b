/* Grader for exercise 12b: one Adam step, against adam_step, step after step
 * on two copies of the same parameters. The student's parameters, gradients
 * and moments are views with a tda; the gradients must come back unchanged.
 * Refused calls: adam_step adamw_step train_run learn_block_step */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "m = b1 m + (1-b1) g, v = b2 v + (1-b2) g^2, p -= rate (m / (1-b1^t)) "
                          "/ (sqrt(v / (1-b2^t)) + eps), with t = opt->steps after adding one";

/* two copies of a model with matrices of the given shapes, N(0, 1) values */
static void twin_params(param_set *a, param_set *b, const size_t (*shape)[2], size_t n, gsl_rng *r)
{
    *a = (param_set){0};
    *b = (param_set){0};
    for (size_t k = 0; k < n; k++) {
        gsl_matrix *va = params_add(a, shape[k][0], shape[k][1], 1.0, r);
        gsl_matrix *vb = params_add(b, shape[k][0], shape[k][1], 0.0, NULL);
        cr_assert(va && vb, "grader: out of memory");
        gsl_matrix_memcpy(vb, va);
    }
}

/* every matrix of ps and of opt's moments -> replaced by a view with a tda */
static void pad_all(param_set *ps, adam *opt)
{
    for (size_t k = 0; k < ps->n; k++) {
        grade_repad(&ps->value[k]), grade_repad(&ps->grad[k]);
        grade_repad(&opt->moments.value[k]), grade_repad(&opt->moments.grad[k]);
    }
}

/* the student's matrices after a step: nothing written outside them, and
 * the gradients as they were (g0: copies from before the step) */
static void check_views(const param_set *ps, const adam *opt, gsl_matrix *const *g0)
{
    for (size_t k = 0; k < ps->n; k++) {
        grade_padding("a parameter matrix", ps->value[k]);
        grade_padding("a first moment", opt->moments.value[k]);
        grade_padding("a second moment", opt->moments.grad[k]);
        grade_matrix("ps->grad after the step", ps->grad[k], g0[k], 0.0,
                     "the gradients are the step's input: read them, do not change or clear "
                     "them (the training loop clears them before the next backward pass)");
    }
}

/* `steps` Adam steps with random gradients of size ~sigma on both copies;
 * after each, the student's parameters and moments must match the library's */
static void compare(const size_t (*shape)[2], size_t n, size_t steps, double sigma,
                    unsigned long seed)
{
    gsl_rng *r = grade_rng(seed);
    param_set mine, ref;
    twin_params(&mine, &ref, shape, n, r);
    adam opt_mine, opt_ref;
    cr_assert_eq(adam_init(&opt_mine, &mine, 0.01), INVENT_OK);
    cr_assert_eq(adam_init(&opt_ref, &ref, 0.01), INVENT_OK);
    pad_all(&mine, &opt_mine);
    for (size_t t = 1; t <= steps; t++) {
        for (size_t k = 0; k < n; k++) {
            rng_fill_gaussian(ref.grad[k], r, sigma);
            gsl_matrix_memcpy(mine.grad[k], ref.grad[k]);
        }
        cr_assert_eq(adam_step(&opt_ref, &ref), INVENT_OK);
        char what[96];
        snprintf(what, sizeof what, "parameters after step %zu", t);
        grade_status(what, ex12b_adam_step(&opt_mine, &mine), INVENT_OK,
                     "return INVENT_OK when the parameters fit the optimiser");
        cr_assert(opt_mine.steps == t,
                  "after %zu steps opt->steps is %lu.\nHint: add one to "
                  "opt->steps in every successful call, before the bias corrections",
                  t, opt_mine.steps);
        check_views(&mine, &opt_mine, ref.grad);
        for (size_t k = 0; k < n; k++) {
            grade_matrix(what, mine.value[k], ref.value[k], 1e-12, HINT);
            grade_matrix("first moment m", opt_mine.moments.value[k], opt_ref.moments.value[k],
                         1e-12, "m = beta1 m + (1 - beta1) g, kept in opt->moments.value[k]");
            grade_matrix("second moment v", opt_mine.moments.grad[k], opt_ref.moments.grad[k],
                         1e-12, "v = beta2 v + (1 - beta2) g^2, kept in opt->moments.grad[k]");
        }
    }
    adam_free(&opt_mine), adam_free(&opt_ref);
    params_free(&mine), params_free(&ref);
    gsl_rng_free(r);
}

GRADE(ex12b, several_matrices_several_steps)
{
    const size_t shape[][2] = {{3, 4}, {1, 4}, {2, 2}};
    compare(shape, 3, 5, 1.0, 127);
}

GRADE(ex12b, size_one)
{
    const size_t shape[][2] = {{1, 1}};
    compare(shape, 1, 3, 1.0, 128);
}

GRADE(ex12b, huge_and_tiny_gradients)
{
    const size_t shape[][2] = {{2, 3}};
    compare(shape, 1, 3, 1e8, 129);
    compare(shape, 1, 3, 1e-8, 130);
}

GRADE(ex12b, two_sizes_and_a_large_matrix)
{
    const size_t small[][2] = {{2, 3}}, large[][2] = {{300, 200}, {1, 1000}}, one[][2] = {{1, 1}};
    compare(small, 1, 2, 1.0, 131);
    compare(large, 2, 2, 1.0, 132);
    compare(one, 1, 2, 1.0, 133);
}

GRADE(ex12b, first_step_moves_by_about_the_rate)
{
    param_set ps = {0};
    gsl_matrix *p = params_add(&ps, 1, 3, 0.0, NULL);
    const double g[] = {1e-6, -3.0, 1e6};
    for (size_t j = 0; j < 3; j++)
        gsl_matrix_set(ps.grad[0], 0, j, g[j]);
    adam opt;
    cr_assert_eq(adam_init(&opt, &ps, 0.1), INVENT_OK);
    ex12b_adam_step(&opt, &ps);
    gsl_matrix *want = gsl_matrix_alloc(1, 3), *raw = gsl_matrix_alloc(1, 3);
    for (size_t j = 0; j < 3; j++) { /* -rate * sign(g), up to eps / |g| */
        double m = (1 - opt.beta1) * g[j], v = (1 - opt.beta2) * g[j] * g[j];
        gsl_matrix_set(want, 0, j, -copysign(0.1 / (1.0 + 1e-8 / fabs(g[j])), g[j]));
        gsl_matrix_set(raw, 0, j, -0.1 * m / (sqrt(v) + opt.eps));
    }
    grade_mistake known[] = {{raw, "the step without the bias correction: divide m by "
                                   "1 - beta1^t and v by 1 - beta2^t (t = 1 here)"}};
    grade_matrix_why("parameters after one step from 0 with gradients 1e-6, -3, 1e6", p, want,
                     1e-9, "the first step moves each parameter by about the rate, against "
                     "the sign of its gradient", known, 1);
    gsl_matrix_free(want), gsl_matrix_free(raw);
    adam_free(&opt);
    params_free(&ps);
}

GRADE(ex12b, mismatched_parameters_are_refused)
{
    param_set ps = {0}, other = {0};
    params_add(&ps, 2, 2, 0.0, NULL);
    params_add(&other, 2, 3, 0.0, NULL);
    adam opt;
    cr_assert_eq(adam_init(&opt, &ps, 0.1), INVENT_OK);
    grade_status("parameters of shape (2, 3) for moments (2, 2)", ex12b_adam_step(&opt, &other),
                 INVENT_ESHAPE, "compare every parameter's shape with its moments' first");
    cr_assert(opt.steps == 0,
              "a refused step changed opt->steps to %lu.\nHint: compare the shapes before "
              "changing anything",
              opt.steps);
    GRADE_NO_LEAK(0, ex12b_adam_step(&opt, &other), "allocate nothing");
    params_add(&ps, 1, 1, 0.0, NULL);
    grade_status("2 parameter matrices for an optimiser of 1", ex12b_adam_step(&opt, &ps),
                 INVENT_ESHAPE, "compare ps->n with opt->moments.n first");
    adam_free(&opt);
    params_free(&ps), params_free(&other);
}

GRADE(ex12b, no_memory_leak)
{
    param_set ps = {0};
    params_add(&ps, 8, 8, 0.0, NULL);
    adam opt;
    cr_assert_eq(adam_init(&opt, &ps, 0.1), INVENT_OK);
    GRADE_NO_LEAK(adam_step(&opt, &ps), ex12b_adam_step(&opt, &ps), "allocate nothing");
    adam_free(&opt);
    params_free(&ps);
}
