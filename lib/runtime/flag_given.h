/* Whether the user typed a flag, so that a message about a size can say
 * when the value was the default rather than theirs. */
#ifndef INVENT_FLAG_GIVEN_H
#define INVENT_FLAG_GIVEN_H

/* argv: the command line, name: a long option without its dashes ("rank")
 * -> 1 when an argument names it, as --name, --name=N or an abbreviation
 * getopt_long accepts (--ra); 0 otherwise. Arguments after "--" are not
 * options. */
int flag_given(int argc, char **argv, const char *name);

#endif
