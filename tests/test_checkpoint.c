/* Unit tests: checkpoints saved whole or not at all, their targets checked
 * before any work, and every header and value checked when they are read
 * back (issue 28). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint.h"
#include "gpt.h"
#include "npy.h"
#include "paths.h"
#include "rng.h"
#include "status.h"

static const gpt_shape small = {.vocab = 5, .context = 4, .dim = 4, .heads = 2, .layers = 1,
                                .hidden = 8, .norm = BLOCK_PRE_NORM};
static const unsigned char symbols[5] = "abcde";
static char root[96], ckpt[128];

static void make_root(void)
{
    const char *tmp = paths_temp_dir();
    snprintf(root, sizeof root, "%.40s/invent-ckpt-test-%d", tmp, (int)getpid());
    cr_assert_eq(mkdir(root, 0700), 0);
    snprintf(ckpt, sizeof ckpt, "%s/model", root);
}

static void remove_root(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(checkpoint, .init = make_root, .fini = remove_root);

/* folder -> how many entries it has (. and .. aside) */
static int entries(const char *folder)
{
    DIR *d = opendir(folder);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return d ? n : -1;
}

static gpt_weights *drawn(unsigned long seed)
{
    gsl_rng *r = rng_new(seed);
    gpt_weights *w = gpt_new(&small, r);
    gsl_rng_free(r);
    cr_assert_not_null(w);
    return w;
}

/* w's first tensor, first value */
static double first_value(gpt_weights *w)
{
    tensor_ref t[gpt_tensor_count(&small)];
    gpt_tensors(w, NULL, t);
    return t[0].value[0];
}

Test(checkpoint, a_save_over_a_checkpoint_replaces_it_whole_and_a_failed_one_leaves_it)
{
    gpt_weights *a = drawn(1), *b = drawn(2), *back = gpt_new(&small, NULL);
    char bad[160];
    cr_assert_eq(checkpoint_save(ckpt, a, symbols), INVENT_OK);
    int files = entries(ckpt);
    cr_assert_eq(files, (int)gpt_tensor_count(&small) + 3); /* shape, vocab, eps */
    cr_assert_eq(checkpoint_save(ckpt, b, symbols), INVENT_OK); /* replaced */
    cr_assert_eq(checkpoint_load(ckpt, back, bad, sizeof bad), INVENT_OK, "%s", bad);
    cr_assert_eq(first_value(back), first_value(b));
    cr_assert_eq(entries(root), 1, "a temporary folder is left beside the checkpoint");
    /* a file-size limit makes the next save fail midway: b stays whole */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = {200, 200};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);
    cr_assert_eq(checkpoint_save(ckpt, a, symbols), INVENT_EIO);
    limit = (struct rlimit){RLIM_INFINITY, RLIM_INFINITY};
    setrlimit(RLIMIT_FSIZE, &limit);
    cr_assert_eq(entries(root), 1, "the failed save left a temporary folder");
    cr_assert_eq(entries(ckpt), files);
    cr_assert_eq(checkpoint_load(ckpt, back, bad, sizeof bad), INVENT_OK, "%s", bad);
    cr_assert_eq(first_value(back), first_value(b), "the old checkpoint was overwritten");
    gpt_free(a), gpt_free(b), gpt_free(back);
}

Test(checkpoint, targets_are_checked_before_any_work_with_the_real_reason)
{
    char path[PATH_MAX], name[300];
    const char *why;
    size_t bytes = checkpoint_bytes(&small);
    snprintf(path, sizeof path, "%s/new/", root); /* trailing slash, as --dump takes it */
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_OK, "%s", why);
    snprintf(path, sizeof path, "%s/a/b/c", root); /* missing parents are made at save time */
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_OK, "%s", why);
    cr_assert_eq(entries(root), 0, "the check left something behind");
    snprintf(path, sizeof path, "%s/file", root);
    FILE *f = fopen(path, "w");
    fclose(f);
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "not a folder"), "%s", why);
    snprintf(path, sizeof path, "%s/file/below", root);
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "ot a directory"), "%s", why);
    cr_assert_eq(checkpoint_check_target(root, bytes, &why), INVENT_EIO); /* holds "file" */
    cr_assert(strstr(why, "other files"), "%s", why);
    cr_assert_eq(checkpoint_check_target("/dev/null", bytes, &why), INVENT_EIO);
    cr_assert_eq(checkpoint_check_target("/proc/invent-ckpt", bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "/proc"), "%s", why);
    memset(name, 'n', 250), name[250] = '\0'; /* 250 bytes: no room for the temporary name */
    snprintf(path, sizeof path, "%s/%s", root, name);
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "NAME_MAX"), "%s", why);
    name[240] = '\0'; /* the near miss: 240 bytes leave room */
    snprintf(path, sizeof path, "%s/%s", root, name);
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_OK, "%s", why);
    cr_assert_eq(checkpoint_check_target(ckpt, (size_t)1 << 62, &why), INVENT_EIO);
    cr_assert(strstr(why, "space"), "%s", why);
}

/* file name (in ckpt) <- a float64 vector of n numbers */
static void write_numbers(const char *name, const double *x, size_t n)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.npy", ckpt, name);
    cr_assert_eq(npy_save(path, NPY_F64, 1, &n, x), INVENT_OK);
}

Test(checkpoint, headers_and_values_are_checked_when_read)
{
    gpt_weights *w = drawn(3), *back = gpt_new(&small, NULL);
    cr_assert_eq(checkpoint_save(ckpt, w, symbols), INVENT_OK);
    gpt_shape s;
    unsigned char got[256];
    size_t V;
    char why[160];
    cr_assert_eq(checkpoint_peek(ckpt, &s, got, &V, why, sizeof why), INVENT_OK, "%s", why);
    double shape[7] = {5, 4, 4, 2, 1, 8, 0}, vocab[5] = {97, 98, 99, 100, 101};
    shape[2] = 4.5; /* a fraction */
    write_numbers("shape", shape, 7);
    cr_assert_eq(checkpoint_peek(ckpt, &s, got, &V, why, sizeof why), INVENT_EFORMAT);
    cr_assert(strstr(why, "width"), "%s", why);
    shape[2] = 4;
    write_numbers("shape", shape, 7);
    vocab[4] = 256 + 97; /* wraps around to 'a' as a byte */
    write_numbers("vocab", vocab, 5);
    cr_assert_eq(checkpoint_peek(ckpt, &s, got, &V, why, sizeof why), INVENT_EFORMAT);
    vocab[4] = 99; /* a byte twice */
    write_numbers("vocab", vocab, 5);
    cr_assert_eq(checkpoint_peek(ckpt, &s, got, &V, why, sizeof why), INVENT_EFORMAT);
    vocab[4] = 101;
    write_numbers("vocab", vocab, 5);
    cr_assert_eq(checkpoint_peek(ckpt, &s, got, &V, why, sizeof why), INVENT_OK, "%s", why);
    tensor_ref t[gpt_tensor_count(&small)];
    gpt_tensors(w, NULL, t);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.npy", ckpt, t[1].name);
    const double values[3] = {NAN, 1e300, 0.5}; /* the last one is the near miss */
    const int want[3] = {INVENT_EFORMAT, INVENT_EFORMAT, INVENT_OK};
    for (int k = 0; k < 3; k++) {
        t[1].value[0] = values[k];
        cr_assert_eq(npy_save(path, NPY_F64, t[1].ndim, t[1].shape, t[1].value), INVENT_OK);
        cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), want[k], "%g: %s",
                     values[k], why);
    }
    float f32[t[1].size];
    for (size_t i = 0; i < t[1].size; i++)
        f32[i] = (float)t[1].value[i];
    cr_assert_eq(npy_save(path, NPY_F32, t[1].ndim, t[1].shape, f32), INVENT_OK);
    cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_EFORMAT);
    cr_assert(strstr(why, "float32"), "%s", why);
    unlink(path);
    cr_assert_eq(mkfifo(path, 0600), 0); /* refused at once, not waited on */
    cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_EFORMAT);
    cr_assert(strstr(why, "regular"), "%s", why);
    gpt_free(w), gpt_free(back);
}

/* eps travels with the weights; a checkpoint without eps.npy (written before it
 * existed) gets CHECKPOINT_OLD_EPS; a bad one is refused */
Test(checkpoint, eps_is_saved_and_read_back_and_an_old_checkpoint_gets_the_fixed_default)
{
    gpt_weights *w = drawn(5), *back = gpt_new(&small, NULL);
    char why[160], path[PATH_MAX];
    w->blocks[0]->eps = 3e-4;
    cr_assert_eq(checkpoint_save(ckpt, w, symbols), INVENT_OK);
    cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_OK, "%s", why);
    cr_assert_eq(back->blocks[0]->eps, 3e-4);
    const double bad[3] = {0.0, NAN, 2.0};
    for (int k = 0; k < 3; k++) {
        write_numbers("eps", &bad[k], 1);
        cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_EFORMAT, "%g", bad[k]);
        cr_assert(strstr(why, "eps.npy"), "%s", why);
    }
    snprintf(path, sizeof path, "%s/eps.npy", ckpt);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_OK, "%s", why);
    cr_assert_eq(back->blocks[0]->eps, CHECKPOINT_OLD_EPS);
    gpt_free(w), gpt_free(back);
}
