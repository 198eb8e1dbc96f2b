/* Checkpoints of the chapter-13 model: a folder of .npy files that numpy (or
 * PyTorch) can open, one per tensor (tok_emb.npy, l0.Wq.npy, ...), plus
 * shape.npy, the sizes (V, T_max, d, H, L, m, post-norm), and vocab.npy,
 * the byte of each symbol. Values are saved in float64 and so come back
 * bit for bit. */
#ifndef INVENT_CHECKPOINT_H
#define INVENT_CHECKPOINT_H

#include <stddef.h>

#include "gpt.h"

/* w, symbols: (V) bytes -> the files in dir (which must exist) */
int checkpoint_save(const char *dir, gpt_weights *w, const unsigned char *symbols);

/* dir -> *shape and symbols: (*vocab <= 256) from shape.npy and vocab.npy;
 * INVENT_EIO when a file is missing, INVENT_EFORMAT when it is not one of ours */
int checkpoint_peek(const char *dir, gpt_shape *shape, unsigned char *symbols, size_t *vocab);

/* dir -> every tensor of w read back; INVENT_ESHAPE when a file has another
 * shape, INVENT_EIO or INVENT_EFORMAT when it is missing or unreadable; bad
 * (len bytes) receives the name of the tensor at fault */
int checkpoint_load(const char *dir, gpt_weights *w, char *bad, size_t len);

/* Removes the files checkpoint_save wrote for w's shape, then dir if it is empty. */
void checkpoint_remove(const char *dir, gpt_weights *w);

#endif
