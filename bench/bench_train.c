/* make bench-train: what one training step of chapter 13's model costs in C.
 *
 * The model of chapter 13 (by default its --full sizes: 4 layers, 4 heads,
 * width 128, context 64, batch 12, 114 symbols) trains on random tokens for
 * a number of steps; each step is timed in three parts: the forward pass
 * with the loss, the backward pass, and the optimiser (clipping and AdamW).
 * One line is appended to the CSV given with --dump DIR (DIR/bench-train.csv):
 *   impl,dtype,threads,layers,dim,heads,context,batch,ms_forward,ms_backward,
 *   ms_optimiser,ms_step,tokens_per_s,peak_mb,cpu_ms_step
 * the same columns that scripts/check_training.py --bench writes for PyTorch.
 * Times are wall-clock milliseconds; cpu_ms_step is the CPU time of all
 * threads per step, which a machine shared with other work disturbs less. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "adamw.h"
#include "gpt.h"
#include "invent.h"
#include "train_memory.h"

void openblas_set_num_threads(int n); /* OpenBLAS's own call (not in GSL's cblas.h) */

typedef struct {
    size_t layers, heads, dim, context, batch, steps, threads;
} sizes;

static long peak_mb(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss / 1024 : -1;
}

/* -> seconds of the three parts, summed over the steps, in t[0..2]; CPU seconds in t[3] */
static void time_steps(const sizes *s, gpt_weights *w, gpt_weights *g, gsl_rng *r, double *t)
{
    size_t B = s->batch, T = s->context, n = B * T, count = gpt_tensor_count(&w->shape);
    size_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    tensor_ref list[count];
    gpt_tensors(w, g, list);
    adamw opt;
    gpt_trace *tr = gpt_trace_new(w, B, T);
    chapter_must(x && y && tr ? adamw_init(&opt, list, count, 0.1) : INVENT_ENOMEM, "set-up");
    for (size_t step = 0; step <= s->steps; step++) { /* step 0 warms up, untimed */
        for (size_t i = 0; i < n; i++)
            x[i] = gsl_rng_uniform_int(r, w->shape.vocab), y[i] = gsl_rng_uniform_int(r, w->shape.vocab);
        double loss, c0 = stopwatch_cpu(), t0 = stopwatch_now();
        chapter_must(gpt_forward(w, x, y, tr, &loss), "the forward pass");
        double t1 = stopwatch_now();
        for (size_t k = 0; k < count; k++)
            memset(list[k].grad, 0, list[k].size * sizeof(double));
        chapter_must(gpt_backward(w, x, y, tr, g), "the backward pass");
        double t2 = stopwatch_now();
        grad_clip(list, count, 1.0);
        chapter_must(adamw_step(&opt, list, count, 1e-3), "the AdamW step");
        double t3 = stopwatch_now();
        if (step > 0)
            t[0] += t1 - t0, t[1] += t2 - t1, t[2] += t3 - t2, t[3] += stopwatch_cpu() - c0;
    }
    adamw_free(&opt);
    gpt_trace_free(tr);
    free(x);
    free(y);
}

static int run(const invent_opts *o, const sizes *s)
{
    gpt_shape shape = {.vocab = 114, .context = s->context, .dim = s->dim, .heads = s->heads,
                       .layers = s->layers, .hidden = 4 * s->dim, .norm = BLOCK_PRE_NORM};
    openblas_set_num_threads((int)s->threads);
    gsl_rng *r = rng_new(o->seed);
    gpt_weights *w = gpt_new(&shape, r), *g = gpt_new(&shape, NULL);
    chapter_must(r && w && g ? INVENT_OK : INVENT_ENOMEM, "creating the model");
    double t[4] = {0};
    time_steps(s, w, g, r, t);
    double n = (double)s->steps, step = (t[0] + t[1] + t[2]) / n;
    double tokens = (double)(s->batch * s->context) / step;
    report_line(o, "C (double, GSL + OpenBLAS): %.1f ms a step (forward %.1f, backward %.1f, "
                   "optimiser %.1f), %.0f tokens/s, peak %ld MB; %.1f ms of CPU a step",
                1e3 * step, 1e3 * t[0] / n, 1e3 * t[1] / n, 1e3 * t[2] / n, tokens, peak_mb(),
                1e3 * t[3] / n);
    if (o->dump_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/bench-train.csv", o->dump_dir);
        FILE *f = fopen(path, "a");
        chapter_must(f ? INVENT_OK : INVENT_EIO, "writing bench-train.csv");
        fprintf(f, "C,float64,%zu,%zu,%zu,%zu,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%.0f,%ld,%.3f\n",
                s->threads, s->layers, s->dim, s->heads, s->context, s->batch, 1e3 * t[0] / n,
                1e3 * t[1] / n, 1e3 * t[2] / n, 1e3 * step, tokens, peak_mb(), 1e3 * t[3] / n);
        fclose(f);
    }
    gpt_free(w);
    gpt_free(g);
    gsl_rng_free(r);
    return 0;
}

int main(int argc, char **argv)
{
    sizes s = {.layers = 4, .heads = 4, .dim = 128, .context = 64, .batch = 12, .steps = 10,
               .threads = 2};
    const cli_option options[] = {
        {"layers", CLI_SIZE, &s.layers, 1, 12, "blocks L"},
        {"heads", CLI_SIZE, &s.heads, 1, 16, "heads H (dividing the width)"},
        {"dim", CLI_SIZE, &s.dim, 8, 512, "width d"},
        {"context", CLI_SIZE, &s.context, 2, 256, "characters per sequence"},
        {"batch", CLI_SIZE, &s.batch, 1, 64, "sequences per step"},
        {"steps", CLI_SIZE, &s.steps, 1, 1000, "timed steps (after one untimed)"},
        {"threads", CLI_SIZE, &s.threads, 1, 64, "OpenBLAS threads"},
    };
    const cli_spec spec = {"bench-train", "Time training steps of chapter 13's model in C.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.dim % s.heads != 0)
        return cli_fail(&o, "--heads (%zu) must divide --dim (%zu)", s.heads, s.dim);
    gpt_shape shape = {.vocab = 114, .context = s.context, .dim = s.dim, .heads = s.heads,
                       .layers = s.layers, .hidden = 4 * s.dim};
    size_t bytes = train_memory_bytes(&shape, s.batch, s.context, 4, 1);
    if (bytes > TRAIN_MEMORY_BUDGET)
        return cli_fail(&o, "--layers %zu --dim %zu --heads %zu --context %zu --batch %zu would "
                            "take about %.1f GiB, more than the benchmark's %zu GiB: make some "
                            "of them smaller", s.layers, s.dim, s.heads, s.context, s.batch,
                        (double)bytes / (1u << 30), TRAIN_MEMORY_BUDGET >> 30);
    rc = chapter_start(&o, "Training step of chapter 13's model, timed");
    return rc != CLI_RUN ? rc : run(&o, &s);
}
