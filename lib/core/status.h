/* Status codes: how a library function says what went wrong without exiting. */
#ifndef INVENT_STATUS_H
#define INVENT_STATUS_H

enum invent_status {
    INVENT_OK = 0,
    INVENT_ESHAPE,    /* operand shapes do not fit together */
    INVENT_ERANGE,    /* an argument is outside its allowed range */
    INVENT_ENOMEM,    /* an allocation failed */
    INVENT_EOVERFLOW, /* a count does not fit in 64 bits */
    INVENT_EIO,       /* a file could not be opened, read or written */
    INVENT_EFORMAT,   /* a file is not in the expected format */
    INVENT_ENUMERIC   /* a numerical routine failed (no convergence, NaN) */
};

/* code -> a short English phrase, never NULL */
const char *invent_strerror(int status);

#endif
