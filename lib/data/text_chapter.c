#include "text_chapter.h"

int text_chapter_open(const text_chapter *c, int argc, char **argv, invent_opts *o,
                      corpus **text)
{
    *text = NULL;
    int rc = cli_take_text(&argc, argv, c->texts, c->n_texts, c->spec->program);
    if (rc == CLI_RUN)
        rc = chapter_parse(argc, argv, c->spec, o);
    if (rc != CLI_RUN)
        return rc;
    c->defaults(c->settings);
    rc = c->check(o, c->settings, text);
    if (rc == CLI_RUN)
        rc = chapter_start(o, c->title);
    if (rc != CLI_RUN) {
        corpus_free(*text);
        *text = NULL;
    }
    return rc;
}
