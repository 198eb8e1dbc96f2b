/* Layer "runtime": what a chapter program needs to talk to its user: command-line
 * options, narration, claim checks and their controls, the chapter lifecycle,
 * figures and dumps. May include core. */
#ifndef INVENT_LAYER_RUNTIME_H
#define INVENT_LAYER_RUNTIME_H

#include "chapter.h"
#include "check.h"
#include "cli.h"
#include "cli_text.h"
#include "dump.h"
#include "plot.h"
#include "report.h"
#include "scope.h"

#endif
