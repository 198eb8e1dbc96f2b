/* Checkpoints of the chapter-13 model: a folder of .npy files that numpy (or
 * PyTorch) can open, one per tensor (tok_emb.npy, l0.Wq.npy, ...), plus
 * shape.npy, the sizes (V, T_max, d, H, L, m, post-norm), vocab.npy, the
 * byte of each symbol, and eps.npy, the norms' epsilon: with the weights,
 * every setting that changes the logits. Values are saved in float64 and
 * so come back bit for bit. A save is whole or nothing: the folder is written beside
 * its target under a temporary name, synced, then put in the target's
 * place in one rename; a checkpoint already there is never half
 * overwritten, and a failed save leaves nothing behind. */
#ifndef INVENT_CHECKPOINT_H
#define INVENT_CHECKPOINT_H

#include <stddef.h>

#include "gpt.h"

/* Sizes a checkpoint may claim in shape.npy, each at least 1 (the chapters
 * allow far less): beyond them the shape is not one of ours. */
#define CHECKPOINT_MAX_SIZE 65536
/* The largest weight a checkpoint may hold: trained weights are of order
 * 1, and 1e300 would overflow the first product. */
#define CHECKPOINT_MAX_ABS 1e6
/* The largest epsilon a checkpoint may hold: beyond it the norm no longer normalises. */
#define CHECKPOINT_MAX_EPS 1.0
/* The epsilon of a checkpoint without eps.npy, written before the file existed: every
 * such checkpoint came from block_new's weights, whose eps is fixed at 1e-5 and which
 * no option changed, so this default is the value they were trained with, not a guess;
 * refusing them would throw away checkpoints whose eps is known exactly. */
#define CHECKPOINT_OLD_EPS 1e-5

/* shape -> the bytes its checkpoint takes on disk, at most (a header and
 * a partly filled block per file included) */
size_t checkpoint_bytes(const gpt_shape *shape);

/* dir, bytes -> INVENT_OK when a checkpoint of that many bytes can be saved
 * there, checked before any work by making (then removing) the temporary
 * folder beside it; else INVENT_EIO and *why: the real reason (a name too
 * long, not a folder, a folder holding other files, a device or kernel
 * folder, not writable, too little space, ...). Creates nothing that
 * stays. */
int checkpoint_check_target(const char *dir, size_t bytes, const char **why);

/* w, symbols: (V) bytes -> the checkpoint at dir, whole or not at all
 * (missing parents are created, an existing checkpoint or empty folder
 * there is replaced); INVENT_ERANGE, before anything is written, when the
 * norms' epsilons differ (eps.npy holds one); INVENT_EIO with errno on failure */
int checkpoint_save(const char *dir, gpt_weights *w, const unsigned char *symbols);

/* dir -> *shape and symbols: (*vocab <= 256) from shape.npy and vocab.npy,
 * every field checked: sizes whole numbers from 1 to CHECKPOINT_MAX_SIZE,
 * the norm 0 or 1, the vocabulary distinct whole bytes in order.
 * INVENT_EIO when a file is missing, INVENT_EFORMAT when it is not one of
 * ours; why (len bytes) says which and why */
int checkpoint_peek(const char *dir, gpt_shape *shape, unsigned char *symbols, size_t *vocab,
                    char *why, size_t len);

/* dir -> every tensor of w read back, each float64, of its shape, finite
 * and at most CHECKPOINT_MAX_ABS in magnitude, and every norm's eps from
 * eps.npy (CHECKPOINT_OLD_EPS without it); else INVENT_ESHAPE (another
 * shape), INVENT_EFORMAT or INVENT_EIO, and bad (len bytes) receives
 * "name: reason" for the tensor or file at fault */
int checkpoint_load(const char *dir, gpt_weights *w, char *bad, size_t len);

/* Removes the files checkpoint_save wrote for w's shape, then dir if it is empty. */
void checkpoint_remove(const char *dir, gpt_weights *w);

#endif
