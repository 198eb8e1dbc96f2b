/* The channel between grade-run (the launcher) and a grader: a key drawn by
 * grade-run at run time comes in on GRADE_KEY_FD, GRADE_KEY_COPIES lines of
 * GRADE_KEY_LEN hex digits (one for the runner, one for each test's last
 * line); the answer goes out on GRADE_ENDS_FD, lines "WHAT KEY REST".
 * grade-run sets GRADE_KEYED=1 in the grader's environment (a flag, not a
 * secret) so that a grader run by hand leaves descriptors 3 and 4 alone. */
#ifndef GRADE_KEY_H
#define GRADE_KEY_H

enum { GRADE_KEY_FD = 3, GRADE_ENDS_FD = 4, GRADE_KEY_LEN = 32, GRADE_KEY_COPIES = 64 };

#endif
