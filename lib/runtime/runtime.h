/* Layer "runtime": what a chapter program needs to talk to its user: command-line
 * options (and whether one was typed), narration, numbers set for reading, claim
 * checks and their controls, the chapter lifecycle, figures, dumps and the results
 * files of --full runs. May include core. */
#ifndef INVENT_LAYER_RUNTIME_H
#define INVENT_LAYER_RUNTIME_H

#include "chapter.h"
#include "check.h"
#include "cli.h"
#include "cli_text.h"
#include "digits.h"
#include "dump.h"
#include "flag_given.h"
#include "plot.h"
#include "results_file.h"
#include "report.h"
#include "scope.h"

#endif
