#include "status.h"

const char *invent_strerror(int status)
{
    switch (status) {
    case INVENT_OK: return "success";
    case INVENT_ESHAPE: return "shapes do not match";
    case INVENT_ERANGE: return "argument out of range";
    case INVENT_ENOMEM: return "out of memory";
    case INVENT_EOVERFLOW: return "count overflows 64 bits";
    case INVENT_EIO: return "input/output error";
    case INVENT_EFORMAT: return "bad file format";
    case INVENT_ENUMERIC: return "numerical failure";
    default: return "unknown error";
    }
}
