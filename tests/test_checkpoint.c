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
#include "private_dir.h"
#include "rng.h"
#include "status.h"

static const gpt_shape small = {.vocab = 5, .context = 4, .dim = 4, .heads = 2, .layers = 1,
                                .hidden = 8, .norm = BLOCK_PRE_NORM};
static const gpt_shape two_layers = {.vocab = 9, .context = 7, .dim = 8, .heads = 2,
                                     .layers = 2, .hidden = 16, .norm = BLOCK_PRE_NORM};
static const unsigned char symbols[5] = "abcde";
static char ckpt[PATH_MAX];

/* the suite's own folder, the checkpoint "model" in it */
static void make_root(void)
{
    private_dir_make();
    private_path(ckpt, sizeof ckpt, "model");
}

TestSuite(checkpoint, .init = make_root, .fini = private_dir_remove);

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
    gpt_weights *a = drawn(1), *b = drawn(2), *back = gpt_zeros(&small);
    char bad[160];
    cr_assert_eq(checkpoint_save(ckpt, a, symbols), INVENT_OK);
    int files = entries(ckpt);
    cr_assert_eq(files, (int)gpt_tensor_count(&small) + 3); /* shape, vocab, eps */
    cr_assert_eq(checkpoint_save(ckpt, b, symbols), INVENT_OK); /* replaced */
    cr_assert_eq(checkpoint_load(ckpt, back, bad, sizeof bad), INVENT_OK, "%s", bad);
    cr_assert_eq(first_value(back), first_value(b));
    cr_assert_eq(entries(private_dir), 1, "a temporary folder is left beside the checkpoint");
    /* a file-size limit makes the next save fail midway: b stays whole */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = {200, 200};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);
    cr_assert_eq(checkpoint_save(ckpt, a, symbols), INVENT_EIO);
    limit = (struct rlimit){RLIM_INFINITY, RLIM_INFINITY};
    setrlimit(RLIMIT_FSIZE, &limit);
    cr_assert_eq(entries(private_dir), 1, "the failed save left a temporary folder");
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
    private_path(path, sizeof path, "new/"); /* trailing slash, as --dump takes it */
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_OK, "%s", why);
    private_path(path, sizeof path, "a/b/c"); /* missing parents are made at save time */
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_OK, "%s", why);
    cr_assert_eq(entries(private_dir), 0, "the check left something behind");
    private_path(path, sizeof path, "file");
    FILE *f = fopen(path, "w");
    fclose(f);
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "not a folder"), "%s", why);
    private_path(path, sizeof path, "file/below");
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "ot a directory"), "%s", why);
    cr_assert_eq(checkpoint_check_target(private_dir, bytes, &why), INVENT_EIO); /* holds "file" */
    cr_assert(strstr(why, "other files"), "%s", why);
    cr_assert_eq(checkpoint_check_target("/dev/null", bytes, &why), INVENT_EIO);
    cr_assert_eq(checkpoint_check_target("/proc/invent-ckpt", bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "/proc"), "%s", why);
    memset(name, 'n', 250), name[250] = '\0'; /* 250 bytes: no room for the temporary name */
    private_path(path, sizeof path, name);
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_EIO);
    cr_assert(strstr(why, "NAME_MAX"), "%s", why);
    name[240] = '\0'; /* the near miss: 240 bytes leave room */
    private_path(path, sizeof path, name);
    cr_assert_eq(checkpoint_check_target(path, bytes, &why), INVENT_OK, "%s", why);
    cr_assert_eq(checkpoint_check_target(ckpt, (size_t)1 << 62, &why), INVENT_EIO);
    cr_assert(strstr(why, "space"), "%s", why);
}

/* name -> buf: the path of the checkpoint's file name.npy */
static const char *ckpt_file(char *buf, size_t size, const char *name)
{
    char file[64];
    cr_assert_lt(snprintf(file, sizeof file, "model/%s.npy", name), (int)sizeof file);
    return private_path(buf, size, file);
}

/* file name (in ckpt) <- a float64 vector of n numbers */
static void write_numbers(const char *name, const double *x, size_t n)
{
    char path[PATH_MAX];
    cr_assert_eq(npy_save(ckpt_file(path, sizeof path, name), NPY_F64, 1, &n, x), INVENT_OK);
}

Test(checkpoint, headers_and_values_are_checked_when_read)
{
    gpt_weights *w = drawn(3), *back = gpt_zeros(&small);
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
    ckpt_file(path, sizeof path, t[1].name);
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
    gpt_weights *w = drawn(5), *back = gpt_zeros(&small);
    char why[160], path[PATH_MAX];
    gpt_set_eps(w, 3e-4);
    cr_assert_eq(checkpoint_save(ckpt, w, symbols), INVENT_OK);
    cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_OK, "%s", why);
    cr_assert_eq(back->eps, 3e-4);
    cr_assert_eq(back->blocks[small.layers - 1]->eps, 3e-4);
    const double bad[3] = {0.0, NAN, 2.0};
    for (int k = 0; k < 3; k++) {
        write_numbers("eps", &bad[k], 1);
        cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_EFORMAT, "%g", bad[k]);
        cr_assert(strstr(why, "eps.npy"), "%s", why);
    }
    ckpt_file(path, sizeof path, "eps");
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(checkpoint_load(ckpt, back, why, sizeof why), INVENT_OK, "%s", why);
    cr_assert_eq(back->blocks[0]->eps, CHECKPOINT_OLD_EPS);
    cr_assert_eq(back->eps, CHECKPOINT_OLD_EPS);
    gpt_free(w), gpt_free(back);
}

/* eps.npy holds one epsilon: weights whose final norm's differs from a block's are
 * refused before anything is written (the near miss: only the final norm's set) */
Test(checkpoint, norms_with_different_eps_are_refused_before_any_file)
{
    gpt_weights *w = drawn(6);
    w->eps = 3e-4;
    cr_assert_eq(checkpoint_save(ckpt, w, symbols), INVENT_ERANGE);
    cr_assert_eq(access(ckpt, F_OK), -1, "a refused save left %s", ckpt);
    gpt_set_eps(w, 3e-4);
    cr_assert_eq(checkpoint_save(ckpt, w, symbols), INVENT_OK);
    gpt_free(w);
}

Test(checkpoint, saved_and_loaded_weights_are_identical_and_shapes_are_checked)
{
    char bad[160];
    gsl_rng *r = rng_new(3);
    gpt_weights *w = gpt_new(&two_layers, r), *back = gpt_zeros(&two_layers);
    const unsigned char alphabet[9] = "abcdefghi";
    cr_assert_eq(checkpoint_save(ckpt, w, alphabet), INVENT_OK);
    gpt_shape s;
    unsigned char got[256];
    size_t V;
    char why[160];
    cr_assert_eq(checkpoint_peek(ckpt, &s, got, &V, why, sizeof why), INVENT_OK, "%s", why);
    cr_assert(V == 9 && got[8] == 'i' && s.layers == 2 && s.hidden == 16 && s.norm == BLOCK_PRE_NORM);
    cr_assert_eq(checkpoint_load(ckpt, back, bad, sizeof bad), INVENT_OK);
    tensor_ref a[gpt_tensor_count(&two_layers)], b[gpt_tensor_count(&two_layers)];
    gpt_tensors(w, NULL, a);
    gpt_tensors(back, NULL, b);
    for (size_t k = 0; k < gpt_tensor_count(&two_layers); k++)
        cr_assert_arr_eq(a[k].value, b[k].value, a[k].size * sizeof(double), "%s", a[k].name);
    gpt_shape wider = two_layers;
    wider.hidden = 24;
    gpt_weights *other = gpt_zeros(&wider);
    cr_assert_eq(checkpoint_load(ckpt, other, bad, sizeof bad), INVENT_ESHAPE);
    cr_assert_str_eq(bad, "l0.W1: its shape does not match the sizes in shape.npy");
    checkpoint_remove(ckpt, w);
    cr_assert_neq(access(ckpt, F_OK), 0, "the folder is gone");
    gpt_free(other);
    gpt_free(w);
    gpt_free(back);
    gsl_rng_free(r);
}
