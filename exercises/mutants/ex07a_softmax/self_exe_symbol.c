/* Mutant: finds softmax_vector by name at run time in /proc/self/exe (its ELF symbol table), so that no call to it shows in the object. Expect: the text "/proc" */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercises.h"

typedef int (*softmax_fn)(gsl_vector *, double);

/* the symbol's address in the running program, or NULL (a PIE's base is
 * this function's address less its own symbol value) */
static softmax_fn ex07a_lookup(const char *want)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    char *elf = malloc((size_t)n);
    rewind(f);
    size_t got = fread(elf, 1, (size_t)n, f);
    fclose(f);
    Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
    Elf64_Shdr *sh = (Elf64_Shdr *)(elf + eh->e_shoff);
    Elf64_Addr found = 0, self = 0;
    for (int i = 0; got == (size_t)n && i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        Elf64_Sym *sym = (Elf64_Sym *)(elf + sh[i].sh_offset);
        const char *names = elf + sh[sh[i].sh_link].sh_offset;
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++) {
            if (strcmp(names + sym[k].st_name, want) == 0)
                found = sym[k].st_value;
            if (strcmp(names + sym[k].st_name, "ex07a_lookup") == 0)
                self = sym[k].st_value;
        }
    }
    free(elf);
    return found && self ? (softmax_fn)((char *)ex07a_lookup - self + found) : NULL;
}

int ex07a_softmax(gsl_vector *s, double tau)
{
    softmax_fn reference = ex07a_lookup("softmax_vector");
    return reference ? reference(s, tau) : INVENT_ERANGE;
}
