/* Layer "core": numbers and files with no knowledge of the derivation: status codes,
 * checked counting, random numbers, matrices, linear algebra, .npy files, paths,
 * timing, growth exponents and grids, rounding bounds, the log of finished runs and
 * the checks of the environment variables a layer reads. Includes nothing but itself. */
#ifndef INVENT_LAYER_CORE_H
#define INVENT_LAYER_CORE_H

#include "count.h"
#include "env_checks.h"
#include "grid.h"
#include "growth.h"
#include "jacobi_svd.h"
#include "linalg.h"
#include "mat.h"
#include "npy.h"
#include "paths.h"
#include "rng.h"
#include "rounding.h"
#include "run_log.h"
#include "status.h"
#include "stopwatch.h"

#endif
