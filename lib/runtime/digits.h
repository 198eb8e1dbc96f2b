/* Numbers for people to read: the digits of a count in groups of three,
 * 10,000,000,000, as the narration writes the ledger's sizes. */
#ifndef INVENT_DIGITS_H
#define INVENT_DIGITS_H

#include <stdint.h>

/* the longest result, 18,446,744,073,709,551,615, and its terminating NUL */
#define DIGITS_GROUPED_CAP 27

/* n -> buf: n in decimal with a comma between groups of three digits; returns buf */
char *digits_grouped(uint64_t n, char buf[DIGITS_GROUPED_CAP]);

#endif
