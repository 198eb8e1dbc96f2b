#include "corpus_option.h"

#include <errno.h>
#include <string.h>

#include "chapter.h"
#include "status.h"

int corpus_option_load(const invent_opts *o, const char *path, size_t context, corpus **text)
{
    int status = corpus_load(path, text);
    if (status == INVENT_EIO && strcmp(path, CORPUS_FORTUNES_DIR) == 0 && errno == ENOENT)
        return cli_fail(o, "no corpus: %s is missing; install the Debian package 'fortunes' "
                           "(make deps) or give a text file with --corpus FILE",
                        CORPUS_FORTUNES_DIR);
    if (status == INVENT_EIO)
        return cli_fail(o, "--corpus %s: cannot read it (%s)", path, strerror(errno));
    if (status == INVENT_EFORMAT)
        return cli_fail(o, "--corpus %s: no text in it (an empty file, or a folder without "
                           "text files)", path);
    chapter_must(status, "loading the corpus");
    size_t held = corpus_part_len(*text, CORPUS_VALID);
    if (held < context + 1)
        return cli_fail(o, "--corpus %s: %zu characters are too few: its last tenth (%zu) must "
                           "hold one context of %zu characters and the next one",
                        path, (*text)->n, held, context);
    return CLI_RUN;
}
