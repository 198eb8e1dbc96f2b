#include "schedule.h"

#include <math.h>

double lr_at(const lr_schedule *sch, size_t step)
{
    if (step < sch->warmup)
        return sch->peak * (double)(step + 1) / (double)(sch->warmup + 1);
    if (step >= sch->decay || sch->decay <= sch->warmup)
        return sch->floor;
    double ratio = (double)(step - sch->warmup) / (double)(sch->decay - sch->warmup);
    return sch->floor + 0.5 * (1.0 + cos(M_PI * ratio)) * (sch->peak - sch->floor);
}
