#include "corpus_option.h"

#include <errno.h>
#include <string.h>

#include "chapter.h"
#include "status.h"

/* corpus_load's INVENT_EIO -> the refusal, with its real reason */
static int refuse_unread(const invent_opts *o, const char *path, int why)
{
    if (strcmp(path, CORPUS_FORTUNES_DIR) == 0 && why == ENOENT)
        return cli_fail(o, "no corpus: %s is missing; install the Debian package 'fortunes' "
                           "(make deps) or give a text file with --corpus FILE",
                        CORPUS_FORTUNES_DIR);
    if (why == EINVAL)
        return cli_fail(o, "--corpus %s: neither a regular file nor a folder (a FIFO, a device "
                           "or a socket is not read)", path);
    if (why == EFBIG)
        return cli_fail(o, "--corpus %s: more than %zu MiB of text, the most a corpus holds",
                        path, CORPUS_MAX_BYTES >> 20);
    return cli_fail(o, "--corpus %s: cannot read it (%s)", path, strerror(why));
}

int corpus_option_load(const invent_opts *o, const char *path, size_t context, corpus **text)
{
    int rc = cli_check_path(o, "corpus", path);
    if (rc != CLI_RUN)
        return rc;
    int status = corpus_load(path, text);
    if (status == INVENT_EIO)
        return refuse_unread(o, path, errno);
    if (status == INVENT_EFORMAT)
        return cli_fail(o, "--corpus %s: no text in it (an empty file, or a folder without "
                           "text files: names without a dot, as the fortunes have, or ending "
                           "in .txt)", path);
    chapter_must(status, "loading the corpus");
    if ((*text)->vocab < 2)
        return cli_fail(o, "--corpus %s: one distinct byte (%zu characters of it): there is "
                           "nothing to predict", path, (*text)->n);
    size_t held = corpus_part_len(*text, CORPUS_VALID);
    if (held < context + 1)
        return cli_fail(o, "--corpus %s: %zu characters are too few: its last tenth (%zu) must "
                           "hold one context of %zu characters and the next one",
                        path, (*text)->n, held, context);
    return CLI_RUN;
}
