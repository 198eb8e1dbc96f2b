#include "chapter_dump.h"

#include <stdio.h>
#include <unistd.h>

#include "chapter.h"
#include "dump.h"
#include "status.h"

void chapter_dump(const invent_opts *o, const char *name, const gsl_matrix *m)
{
    if (dump_matrix(o, name, m) == INVENT_OK)
        return;
    /* dump_matrix has printed its one line; end as chapter_must does */
    fflush(stdout);
    fflush(stderr);
    _exit(CHAPTER_EXIT_RUNTIME);
}
