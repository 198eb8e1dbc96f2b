/* Mutant: calls the library's interval and verdict instead of computing them. Expect: calls paired_interval_of */
#include "exercises.h"

int ex14_paired_verdict(const gsl_vector *a, const gsl_vector *b, double level, double margin,
                        paired_interval *iv, paired_verdict *verdict)
{
    int status = paired_interval_of(a, b, level, iv);
    return status ? status : paired_verdict_of(iv, margin, verdict);
}
