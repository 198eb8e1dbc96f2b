/* make bench-train: what one training step of chapter 13's model costs in C,
 * on the float32 path (gpt32.h) and on the float64 reference path (gpt.h),
 * both through the one train_step (train_step.h).
 *
 * The model (by default its --full sizes: 4 layers, 4 heads, width 128,
 * context 64, batch 12, 114 symbols) trains on random tokens: one untimed
 * warm-up step, then --steps timed ones; each step is timed in three parts
 * (the forward pass with the loss, the backward pass, clipping and AdamW)
 * and the median of each part over the steps is reported. The rate in
 * GFLOP/s counts the multiply-adds of the shapes (2 FLOP each: the products
 * once forward and twice backward, the attention's score and value products
 * once forward and five times backward, as attn_train.h recomputes them)
 * and is set against the machine's FMA peak measured in the same run
 * (machine.h). One line per precision is appended to the CSV given with
 * --dump DIR (DIR/bench-train.csv):
 *   impl,dtype,threads,layers,dim,heads,context,batch,ms_forward,ms_backward,
 *   ms_optimiser,ms_step,tokens_per_s,peak_mb,gflops,peak_share,cpu_ms_step
 * the columns scripts/check_training.py --bench writes for PyTorch. cpu_ms_step
 * is the median CPU time of the process (all threads) per step: on a machine
 * shared with other work it counts the work, not the waiting.
 *
 * With --ablations, every ablation of chapter 14 (ablation32.h) is then timed
 * on the float32 path the same way, each drawn at the run's seed, the full
 * model first, and reported in lines of their own (not in the CSV) with its
 * time as a share of that full model's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <gsl/gsl_sort.h>

#include "invent.h"
#include "train_memory.h"

void openblas_set_num_threads(int n); /* OpenBLAS's own call (not in GSL's cblas.h) */

typedef struct {
    size_t layers, heads, dim, context, batch, steps, threads, vocab;
} sizes;

static long peak_mb(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss / 1024 : -1;
}

/* -> the FLOPs of one training step of these sizes (see the head comment) */
static double step_flops(const sizes *s)
{
    double n = (double)(s->batch * s->context), C = (double)s->dim, m = 4.0 * C;
    double products = n * ((double)s->layers * (4 * C * C + 2 * C * m) + (double)s->vocab * C);
    double pairs = (double)(s->context * (s->context + 1) / 2); /* causal (query, key) pairs */
    double attention = (double)(s->batch * s->heads * s->layers) * pairs * (C / (double)s->heads);
    return 2.0 * (3.0 * products + 2.0 * attention + 5.0 * attention);
}

/* Per precision: median seconds of each part and of the whole step, and CPU seconds. */
typedef struct {
    double part[3], step, cpu;
} timing;

static double median(double *v, size_t n)
{
    gsl_sort(v, 1, n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* plan, sizes, r -> the medians over s->steps timed steps after one warm-up */
static timing time_steps(const sizes *s, const step_plan *plan, gsl_rng *r)
{
    size_t n = s->batch * s->context, S = s->steps;
    size_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    double *t = calloc(5 * S, sizeof *t);
    chapter_must(x && y && t ? INVENT_OK : INVENT_ENOMEM, "set-up");
    for (size_t step = 0; step <= S; step++) { /* step 0 warms up, untimed */
        for (size_t i = 0; i < n; i++)
            x[i] = gsl_rng_uniform_int(r, s->vocab), y[i] = gsl_rng_uniform_int(r, s->vocab);
        step_report rep;
        double cpu = stopwatch_cpu();
        chapter_must(train_step(plan, step, x, y, &rep), "a training step");
        if (step > 0)
            t[4 * S + step - 1] = stopwatch_cpu() - cpu;
        for (int k = 0; step > 0 && k < 3; k++) {
            t[k * S + step - 1] = rep.seconds[k];
            t[3 * S + step - 1] += rep.seconds[k];
        }
    }
    timing out;
    for (int k = 0; k < 3; k++)
        out.part[k] = median(t + k * S, S);
    out.step = median(t + 3 * S, S);
    out.cpu = median(t + 4 * S, S);
    free(x), free(y), free(t);
    return out;
}

static void report_timing(const invent_opts *o, const sizes *s, const char *dtype,
                          const char *label, const timing *t, double peak)
{
    double tokens = (double)(s->batch * s->context) / t->step;
    double gflops = step_flops(s) / t->step / 1e9;
    report_line(o, "  C %-7s %-30s %7.1f ms a step (forward %.1f, backward %.1f, optimiser %.1f), "
                   "%.0f tokens/s, %.1f GFLOP/s = %.0f%% of the FMA peak, peak memory %ld MB; "
                   "%.1f ms of CPU a step",
                dtype, label, 1e3 * t->step, 1e3 * t->part[0], 1e3 * t->part[1], 1e3 * t->part[2],
                tokens, gflops, 100.0 * gflops / peak, peak_mb(), 1e3 * t->cpu);
    if (!o->dump_dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/bench-train.csv", o->dump_dir);
    FILE *f = fopen(path, "a");
    chapter_must(f ? INVENT_OK : INVENT_EIO, "writing bench-train.csv");
    fprintf(f, "C,%s,%zu,%zu,%zu,%zu,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%.0f,%ld,%.1f,%.3f,%.3f\n", dtype,
            s->threads, s->layers, s->dim, s->heads, s->context, s->batch, 1e3 * t->part[0],
            1e3 * t->part[1], 1e3 * t->part[2], 1e3 * t->step, tokens, peak_mb(), gflops,
            gflops / peak, 1e3 * t->cpu);
    fclose(f);
}

static gpt_shape shape_of(const sizes *s)
{
    return (gpt_shape){.vocab = s->vocab, .context = s->context, .dim = s->dim,
                       .heads = s->heads, .layers = s->layers, .hidden = 4 * s->dim,
                       .norm = BLOCK_PRE_NORM};
}

/* the float32 path from w's weights -> its timing */
static timing time_float32(const sizes *s, const gpt_weights *w, gsl_rng *r)
{
    gpt_shape shape = shape_of(s);
    gpt32 *m = gpt32_new(&shape, s->batch, s->context);
    adamw opt;
    chapter_must(m ? gpt32_from64(m, w) : INVENT_ENOMEM, "the float32 model");
    m->workers = (int)s->threads;
    chapter_must(adamw_init(&opt, m->t, m->count, 0.1), "AdamW");
    step_plan plan = {.model = m, .forward = gpt32_train_forward, .backward = gpt32_train_backward,
                      .t = m->t, .count = m->count, .opt = &opt,
                      .sch = {.peak = 1e-3, .floor = 1e-4, .warmup = 2, .decay = s->steps + 1},
                      .clip = 1.0};
    timing t = time_steps(s, &plan, r);
    adamw_free(&opt);
    gpt32_free(m);
    return t;
}

/* ablation a drawn at seed on the float32 path -> its timing */
static timing time_ablation32(const sizes *s, ablation a, unsigned long seed, gsl_rng *r)
{
    gpt_shape shape = shape_of(s);
    gsl_rng *draw = rng_new(seed);
    ablated *f = draw ? ablated_new(a, &shape, draw) : NULL;
    ablated32 *m = NULL;
    adamw opt;
    chapter_must(f ? ablated32_new(f, s->batch, s->context, &m) : INVENT_ENOMEM,
                 "the float32 ablated model");
    m->m->workers = (int)s->threads;
    chapter_must(adamw_init(&opt, m->train, m->n_train, 0.1), "AdamW");
    step_plan plan = {.model = m, .forward = ablated32_train_forward,
                      .backward = ablated32_train_backward, .t = m->train, .count = m->n_train,
                      .opt = &opt,
                      .sch = {.peak = 1e-3, .floor = 1e-4, .warmup = 2, .decay = s->steps + 1},
                      .clip = 1.0};
    timing t = time_steps(s, &plan, r);
    adamw_free(&opt);
    ablated32_free(m);
    ablated_free(f);
    gsl_rng_free(draw);
    return t;
}

/* every ablation on the float32 path, the full model first -> one line each */
static void report_ablations(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    double full = 0.0;
    for (ablation a = ABL_FULL; a < ABL_COUNT; a++) {
        timing t = time_ablation32(s, a, o->seed, r);
        full = a == ABL_FULL ? t.step : full;
        report_line(o, "  C float32 ablation %-12s %7.1f ms a step (forward %.1f, backward %.1f, "
                       "optimiser %.1f), %.2f of the full model's; %.1f ms of CPU a step",
                    ablation_name(a), 1e3 * t.step, 1e3 * t.part[0], 1e3 * t.part[1],
                    1e3 * t.part[2], t.step / full, 1e3 * t.cpu);
    }
}

/* the float64 path on w -> its timing */
static timing time_float64(const sizes *s, gpt_weights *w, gsl_rng *r)
{
    gpt_shape shape = shape_of(s);
    size_t count = gpt_tensor_count(&shape);
    gpt_batch b = {w, gpt_zeros(&shape), gpt_trace_new(w, s->batch, s->context),
                   gpt_work_new(w, s->batch, s->context)};
    tensor_ref *list = calloc(count, sizeof *list);
    adamw opt;
    chapter_must(b.g && b.tr && b.work && list ? INVENT_OK : INVENT_ENOMEM, "the float64 model");
    gpt_tensors(w, b.g, list);
    chapter_must(adamw_init(&opt, list, count, 0.1), "AdamW");
    step_plan plan = {.model = &b, .forward = gpt_batch_forward, .backward = gpt_batch_backward,
                      .t = list, .count = count, .opt = &opt,
                      .sch = {.peak = 1e-3, .floor = 1e-4, .warmup = 2, .decay = s->steps + 1},
                      .clip = 1.0};
    timing t = time_steps(s, &plan, r);
    adamw_free(&opt);
    free(list);
    gpt_trace_free(b.tr);
    gpt_work_free(b.work);
    gpt_free(b.g);
    return t;
}

static int run(const invent_opts *o, const sizes *s, int with64, int ablations)
{
    gpt_shape shape = shape_of(s);
    openblas_set_num_threads((int)s->threads);
    gsl_rng *r = rng_new(o->seed);
    gpt_weights *w = gpt_new(&shape, r);
    chapter_must(r && w ? INVENT_OK : INVENT_ENOMEM, "creating the model");
    double peak;
    chapter_must(machine_fma_peak(0.2, &peak), "measuring the FMA peak");
    char label[96];
    snprintf(label, sizeof label, "(L %zu, H %zu, d %zu, T %zu, B %zu, %zu threads)", s->layers,
             s->heads, s->dim, s->context, s->batch, s->threads);
    report_line(o, "  %.3g GFLOP a step; FMA peak of this run: %.0f GFLOP/s (float32, %s path)",
                step_flops(s) / 1e9, peak, simd_name(simd_best()));
    timing t32 = time_float32(s, w, r);
    report_timing(o, s, "float32", label, &t32, peak);
    if (with64) {
        timing t64 = time_float64(s, w, r);
        report_timing(o, s, "float64", label, &t64, peak);
    }
    if (ablations)
        report_ablations(o, s, r);
    gpt_free(w);
    gsl_rng_free(r);
    return 0;
}

int main(int argc, char **argv)
{
    sizes s = {.layers = 4, .heads = 4, .dim = 128, .context = 64, .batch = 12, .steps = 10,
               .threads = 2, .vocab = 114};
    int no64 = 0, ablations = 0;
    const cli_option options[] = {
        {"layers", CLI_SIZE, &s.layers, 1, 12, "blocks L"},
        {"heads", CLI_SIZE, &s.heads, 1, 16, "heads H (dividing the width)"},
        {"dim", CLI_SIZE, &s.dim, 8, 512, "width d"},
        {"context", CLI_SIZE, &s.context, 2, 256, "characters per sequence"},
        {"batch", CLI_SIZE, &s.batch, 1, 64, "sequences per step"},
        {"vocab", CLI_SIZE, &s.vocab, 2, 256, "symbols V"},
        {"steps", CLI_SIZE, &s.steps, 5, 1000, "timed steps (after one untimed), at least 5"},
        {"threads", CLI_SIZE, &s.threads, 1, 64, "threads (OpenBLAS's and the attention's)"},
        {"no-float64", CLI_FLAG, &no64, 0, 1, "time the float32 path only"},
        {"ablations", CLI_FLAG, &ablations, 0, 1,
         "also time chapter 14's ablations on the float32 path"},
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
    rc = train_memory_refuse(&o, &shape, s.batch, s.context, 4, 1, "the benchmark");
    if (rc != CLI_RUN)
        return rc;
    rc = chapter_start(&o, "Training step of chapter 13's model, timed");
    return rc != CLI_RUN ? rc : run(&o, &s, !no64, ablations);
}
