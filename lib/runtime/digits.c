#include "digits.h"

#include <stdio.h>
#include <string.h>

char *digits_grouped(uint64_t n, char buf[DIGITS_GROUPED_CAP])
{
    char plain[21];
    int len = snprintf(plain, sizeof plain, "%llu", (unsigned long long)n), out = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[out++] = ',';
        buf[out++] = plain[i];
    }
    buf[out] = '\0';
    return buf;
}
