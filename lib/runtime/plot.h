/* Figures for the slides: a chapter writes the data of a figure here, then
 * one gnuplot script from plots/ renders it, with the shared theme, as PDF,
 * SVG and PNG into the plot directory (plots/out by default). Every call
 * accepts a NULL figure and does nothing, so a chapter needs no special
 * case for --no-plot or a machine without gnuplot. */
#ifndef INVENT_PLOT_H
#define INVENT_PLOT_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

#include "cli.h"
#include "paths.h"

/* The longest figure name ("ch07_temperature" is 16 characters). */
#define PLOT_NAME_MAX 64

/* The longest name written inside the plot directory ("data/NAME.dat" and
 * a temporary suffix): chapter_start refuses a directory too long to hold it. */
#define PLOT_LONGEST_FILE (5 + PLOT_NAME_MAX + 4 + PATHS_TEMP_EXTRA)

/* Seconds gnuplot may take for one figure before it is stopped. */
#define PLOT_TIME_LIMIT 60.0

typedef struct plot plot;

/* name (e.g. "ch01_recall") -> a figure under construction, or NULL when
 * figures are off, gnuplot is missing (said once) or the data cannot be written */
plot *plot_begin(const invent_opts *o, const char *name);

/* Starts a new data block (gnuplot's `index`), its columns named in a comment. */
void plot_block(plot *p, const char *columns);

/* v: (n) -> one row of the current block */
void plot_row(plot *p, const double *v, size_t n);
#define PLOT_ROW(p, ...) \
    plot_row((p), (const double[]){__VA_ARGS__}, \
             sizeof((const double[]){__VA_ARGS__}) / sizeof(double))

/* m: (rows, cols) -> a block of "x y value" lines, x = column, y = row, with a
 * blank line after each row (for heatmaps: `with image` or pm3d) */
void plot_matrix(plot *p, const gsl_matrix *m);

/* Defines a gnuplot variable the script can use: a number, or a string
 * (any text without control characters; quotes are escaped). */
void plot_set(plot *p, const char *var, double value);
void plot_set_text(plot *p, const char *var, const char *text);

/* Also keeps the figure's data at path once it renders, for a deck to draw it again
 * without the run: the stamp of results_file.h (what, command, threads), then each
 * variable as a "# name: value" line, then the data blocks (the figure's own script reads
 * the file as it is); written whole or not at all. A keep that cannot be written is said
 * in one line and counted as a failed figure. */
void plot_keep(plot *p, const char *path, const char *what, const char *command, int threads);

/* Renders with plots/<script> and frees p; the three files appear together
 * or not at all. Returns INVENT_OK, or an error after a one-line message.
 * gnuplot runs inside the plot directory, so the directory's name never
 * appears in its commands; after PLOT_TIME_LIMIT seconds it is killed with
 * its process group, and later figures of the program are skipped. */
int plot_render(plot *p, const char *script);

/* How many figures failed to render in this program (for the exit status). */
int plot_failures(void);

/* Changes PLOT_TIME_LIMIT for the rest of the program (tests). */
void plot_set_time_limit(double seconds);

#endif
