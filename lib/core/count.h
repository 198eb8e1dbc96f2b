/* Exact counting in 64 bits: parameters, multiply-adds, bytes. Every
 * operation reports overflow instead of wrapping around. */
#ifndef INVENT_COUNT_H
#define INVENT_COUNT_H

#include <stdint.h>

/* a*b -> *out; INVENT_EOVERFLOW (and *out untouched) when it does not fit */
int count_mul(uint64_t a, uint64_t b, uint64_t *out);

/* a+b -> *out; INVENT_EOVERFLOW when it does not fit */
int count_add(uint64_t a, uint64_t b, uint64_t *out);

/* product of n factors -> *out; INVENT_EOVERFLOW on overflow */
int count_product(const uint64_t *factors, int n, uint64_t *out);

#endif
