/* The cache argument of chapters 5 and 6, at decode time: the ledger's
 * setting (claim B3: 20 score functions, token vectors of d = 1,000, 50
 * layers) and three caches of one layer of T tokens, each read by one
 * decode step (attn_decode.h):
 *   0: keys and values of d per head (B3, values with W_o folded in, H2);
 *   1: keys and values of r = 200 per head (Q1, H2);
 *   2: the raw tokens, one array shared by every head as key and value (C1).
 * Measured at memory speed by decode_measure.h; each beside its bound, the
 * time at the same-run bandwidth or at the peak multiply-add rate,
 * whichever is longer (the roofline). `make bench` and chapter 11 both. */
#ifndef INVENT_DECODE_LEDGER_H
#define INVENT_DECODE_LEDGER_H

#include <stddef.h>

#include "attn_decode.h"
#include "decode_measure.h"

#define LEDGER_FUNCS 20 /* score functions (heads) */
#define LEDGER_D 1000   /* size of a token vector */
#define LEDGER_R 200    /* size of a factored key (and value) */
#define LEDGER_LAYERS 50
#define LEDGER_CACHES 3

/* T, cache 0..2 -> its decode shape (20 query heads; scale 1/sqrt(dh)) */
attn_decode_shape decode_ledger_shape(size_t T, int cache);

/* cache -> 1 when keys and values are one array (the raw tokens), else 0 */
int decode_ledger_shared(int cache);

/* T -> the floats of the largest of the three caches (d per head) */
size_t decode_ledger_floats(size_t T);

/* T, arena: (n) floats, rounds -> s, pt: the three caches' shapes and
 * points (decode_measure); its statuses */
int decode_ledger_measure(size_t T, const float *arena, size_t n, int rounds,
                          attn_decode_shape s[LEDGER_CACHES], decode_point pt[LEDGER_CACHES]);

/* s -> FLOP of one step: 2 per multiply-add, 2 H T dh multiply-adds */
double decode_ledger_flop(const attn_decode_shape *s);

/* s, p, peak GFLOP/s -> ms: the longer of p's bytes at p's same-run
 * bandwidth and the step's FLOP at the peak rate */
double decode_ledger_bound_ms(const attn_decode_shape *s, const decode_point *p, double peak);

/* FLOP per byte of a step, of the machine (peak / bandwidth) -> what bounds
 * the step by the roofline, in words: above the balance the multiply-add
 * rate, below it memory */
const char *decode_ledger_regime(double intensity, double balance);

#endif
