/* Sparse patterns (sparse_lists.h): random ones, their checks and the
 * pairs they score. */
#include "sparse_lists.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>

#include "status.h"

/* rows, pick(i) = how many of its i earlier entries row i keeps -> start:
 * (rows + 1) and key: each row's kept entries (a random, ascending choice)
 * and then the row itself */
static int random_rows(size_t rows, double f, gsl_rng *r, size_t **start, uint32_t **key)
{
    *start = malloc((rows + 1) * sizeof **start);
    if (!*start)
        return INVENT_ENOMEM;
    (*start)[0] = 0;
    for (size_t i = 0; i < rows; i++)
        (*start)[i + 1] = (*start)[i] + (size_t)lround(f * (double)i) + 1;
    *key = malloc((*start)[rows] * sizeof **key);
    uint32_t *all = malloc(rows * sizeof *all);
    if (!*key || !all) {
        free(all);
        return INVENT_ENOMEM;
    }
    for (size_t i = 0; i < rows; i++) {
        all[i] = (uint32_t)i;
        size_t kept = (*start)[i + 1] - (*start)[i] - 1;
        if (kept)
            gsl_ran_choose(r, *key + (*start)[i], kept, all, i, sizeof *all);
        (*key)[(*start)[i + 1] - 1] = (uint32_t)i;
    }
    free(all);
    return INVENT_OK;
}

int attn_key_list_random(size_t T, double f, gsl_rng *r, attn_key_list *list)
{
    *list = (attn_key_list){T, NULL, NULL};
    if (T == 0 || T > UINT32_MAX || !(f > 0.0 && f <= 1.0))
        return INVENT_ERANGE;
    int status = random_rows(T, f, r, &list->start, &list->key);
    if (status != INVENT_OK)
        attn_key_list_free(list);
    return status;
}

int attn_block_list_random(size_t T, double f, gsl_rng *r, attn_block_list *list)
{
    size_t blocks = T / ATTN_TILE + (T % ATTN_TILE != 0);
    *list = (attn_block_list){blocks, NULL, NULL};
    if (T == 0 || T > UINT32_MAX || !(f > 0.0 && f <= 1.0))
        return INVENT_ERANGE;
    int status = random_rows(blocks, f, r, &list->start, &list->key);
    if (status != INVENT_OK)
        attn_block_list_free(list);
    return status;
}

void attn_key_list_free(attn_key_list *list)
{
    free(list->start), free(list->key);
    list->start = NULL, list->key = NULL;
}

void attn_block_list_free(attn_block_list *list)
{
    free(list->start), free(list->key);
    list->start = NULL, list->key = NULL;
}

/* rows of a CSR pattern -> INVENT_OK when each row i lists ascending
 * entries below i and then i itself */
static int rows_check(size_t rows, const size_t *start, const uint32_t *key)
{
    if (!start || !key || start[0] != 0)
        return INVENT_ERANGE;
    for (size_t i = 0; i < rows; i++) {
        if (start[i + 1] <= start[i] || start[i + 1] - start[i] > i + 1 ||
            key[start[i + 1] - 1] != i)
            return INVENT_ERANGE;
        for (size_t e = start[i]; e + 1 < start[i + 1]; e++)
            if (key[e] >= key[e + 1])
                return INVENT_ERANGE;
    }
    return INVENT_OK;
}

int attn_key_list_check(const attn_shape *s, const attn_key_list *list)
{
    if (attn_shape_check(s) != INVENT_OK || s->window || list->T != s->T)
        return INVENT_ERANGE;
    return rows_check(list->T, list->start, list->key);
}

int attn_block_list_check(const attn_shape *s, const attn_block_list *list)
{
    if (attn_shape_check(s) != INVENT_OK || s->window ||
        list->blocks != s->T / ATTN_TILE + (s->T % ATTN_TILE != 0))
        return INVENT_ERANGE;
    return rows_check(list->blocks, list->start, list->key);
}

uint64_t attn_key_list_pairs(const attn_key_list *list) { return list->start[list->T]; }

uint64_t attn_block_list_pairs(const attn_block_list *list, size_t T)
{
    uint64_t pairs = 0;
    for (size_t b = 0; b < list->blocks; b++) {
        uint64_t rows = T - b * ATTN_TILE < ATTN_TILE ? T - b * ATTN_TILE : ATTN_TILE;
        size_t listed = list->start[b + 1] - list->start[b];
        pairs += (listed - 1) * rows * ATTN_TILE + rows * (rows + 1) / 2;
    }
    return pairs;
}
