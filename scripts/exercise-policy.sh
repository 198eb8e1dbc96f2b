#!/bin/sh
# The symbol policy: what a student's object file may hold and call.
#   exercise-policy.sh OBJECT PREFIX [HELPER...]
# OBJECT is the student's file compiled (exercises/ex07a_softmax.c ->
# build/exercises/ex07a_softmax.o), PREFIX its exercise's (ex07a_), HELPER
# the library functions its contract lets it call (its grader's line
# " * Allowed calls: ..."). Accepted: global functions named PREFIX*, static
# functions and data, and calls into GSL, libm, malloc and free, printing,
# a few C library helpers that a compiler may call on its own (memcpy), and
# the HELPERs. Refused, each with one line naming the symbol, the reason and,
# where the debug information tells, the line of the student's file:
#   - any other global definition (a library symbol of the same name would
#     be replaced: the grader would compare the student with itself);
#   - constructors, destructors, init/fini code, Criterion tests or hooks,
#     and any section a C function and its data do not need;
#   - every other call: those that end the process, run programs, open
#     files, read /proc, find symbols at run time, signal or trace other
#     processes, and any name outside the list above;
#   - a system call written in assembly, and the text "/proc".
# Exit status: 0 when the object keeps to the policy, 1 when it does not
# (its lines on stdout), 3 when it calls a name on POLICY_REFUSED, 2 for
# bad arguments.
set -u
# libm's functions, by name (without their symbol versions), on one line;
# `exercise-policy.sh --libm > FILE` once, then POLICY_LIBM=FILE, spares
# each call the work (scripts/exercise.sh does so)
libm_names() {
    nm -D --defined-only "$(${CC:-cc} -print-file-name=libm.so.6)" 2>/dev/null |
        awk '{ sub(/@.*/, "", $NF); print $NF }' | tr '\n' ' '
    echo
}
[ "${1:-}" = --libm ] && { libm_names && exit 0; }
if [ $# -lt 2 ] || [ ! -r "$1" ]; then
    echo "usage: exercise-policy.sh OBJECT PREFIX [HELPER...] | --libm" >&2
    exit 2
fi
obj=$1 prefix=$2
shift 2
helpers=" $* "
if [ -r "${POLICY_LIBM:-}" ]; then
    read -r libm <"$POLICY_LIBM"
else
    libm=$(libm_names)
fi
libm=" $libm "

# symbol -> "file:line" of its definition, from the debug information: the
# line of its first byte (a declaration in a header does not count)
def_line() {
    # shellcheck disable=SC2046
    set -- $(objdump -t "$obj" | awk -v s="$1" '$NF == s && NF >= 5 { print $(NF - 2), $1; exit }')
    [ $# -eq 2 ] && addr2line -e "$obj" -j "$1" "0x$2" 2>/dev/null
}

# symbol -> "file:line" of its first use (a relocation), from the debug information
use_line() {
    objdump -dr -l "$obj" 2>/dev/null | awk -v s="$1" '
        /^\/.*:[0-9]+/ { at = $1 }
        /R_X86_64_/ { t = $NF; sub(/[-+]0x[0-9a-f]+$/, "", t); if (t == s) { print at; exit } }'
}

# "file:line" -> "exercises/file.c:line: " (the path from exercises/ on), or
# "" when unknown or in another file (a header's declaration)
at() {
    case $1 in
    */exercises/* | exercises/*) printf '%s: ' "$(printf '%s' "$1" | sed 's|.*/exercises/|exercises/|; s| .*||')" ;;
    esac
}

# "file:line" (or ""), words -> one line of refusal
refuse() {
    where=$(at "$1")
    shift
    echo "  -> ${where}refused: $*"
    bad=1
}

# name -> $why, why a call to it is refused, or "" when it is allowed (set
# without a subshell: this runs for every import)
why_call() {
    why=""
    case $1 in
    _exit | _Exit | exit | quick_exit | abort | atexit | at_quick_exit | on_exit | raise | \
        longjmp | siglongjmp | _longjmp | __longjmp_chk)
        why="it ends the process or leaves the function by another door than its return:"
        why="$why a forged end of a test; return a status instead" ;;
    syscall | fork | vfork | clone | clone3 | exec* | posix_spawn* | system | popen | \
        ptrace | process_vm_* | kill | tgkill | sigaction | signal | prctl | mmap | mprotect)
        why="it runs, signals or traces another process, or reaches the kernel directly;"
        why="$why the exercise needs none of that" ;;
    open | open64 | openat | openat64 | fopen | fopen64 | freopen | fdopen | creat | read | \
        write | pread* | pwrite* | readlink | opendir | getenv | secure_getenv | setenv | \
        unsetenv | putenv | environ | __environ | getppid)
        why="it opens or reads files (/proc/self/exe, /proc/PPID/environ) or the"
        why="$why environment: a way to forge the grader's result; the exercise needs no file" ;;
    dlopen | dlsym | dlvsym | dladdr | dlinfo | dl_iterate_phdr | _r_debug | _dl_*)
        why="it finds a symbol at run time, past this check; call only what the contract names" ;;
    criterion_* | cr_* | grade_* | __start_* | __stop_*)
        why="it reaches into the grader or Criterion: a forged result" ;;
    mallinfo* | malloc_* | mallopt | __malloc_hook | __free_hook)
        why="it reads or changes the heap's accounting, which the leak check measures" ;;
    gsl_*_fread | gsl_*_fwrite | gsl_*_fscanf | gsl_*_fprintf | gsl_set_error_handler* | \
        gsl_set_stream* | gsl_ieee_env_setup | gsl_rng_env_setup)
        why="a GSL call that reads files or the environment, or silences GSL's errors" ;;
    gsl_* | cblas_* | malloc | calloc | realloc | reallocarray | free | aligned_alloc | \
        posix_memalign | memcpy | memmove | memset | memcmp | __memcpy_chk | __memmove_chk | \
        __memset_chk | __stack_chk_fail | __assert_fail | qsort | bsearch | abs | labs | llabs | \
        strlen | printf | __printf_chk | puts | putchar | fprintf | __fprintf_chk | fputs | \
        fputc | putc | fflush | stdout | stderr | snprintf | __snprintf_chk | sprintf | \
        __sprintf_chk | _GLOBAL_OFFSET_TABLE_) ;;
    *)
        case $helpers in
        *" $1 "*) ;;
        *) case $libm in
            *" $1 "*) ;;
            *) why="not on this exercise's list: GSL, libm, malloc/free, printing, and the"
            why="$why helpers its contract names (${helpers# }); write it yourself" ;;
            esac ;;
        esac ;;
    esac
}

# a section's name -> $why, why it is refused, or "" when a C function needs it
why_section() {
    why=""
    case $1 in
    .text | .text.* | .data | .data.* | .bss | .bss.* | .rodata | .rodata.* | .debug_* | \
        .rela* | .comment | .note.GNU-stack | \
        .note.gnu.property | .eh_frame | .symtab | .strtab | .shstrtab | .group) ;;
    .init_array* | .ctors* | .preinit_array*)
        why="a constructor: code that runs before the grader, outside your function" ;;
    .fini_array* | .dtors*)
        why="a destructor: code that runs after the grader's report, outside your function" ;;
    .init | .fini) why="init/fini code, which runs outside your function" ;;
    cr_* | .cr_* | *criterion*) why="a Criterion test or hook: the grader's own business" ;;
    *) why="a section that a C function and its data do not need" ;;
    esac
}

# a section -> the function its first relocation points at (a constructor's
# name), or the target's own name when it is no function
section_target() {
    at=$(readelf -rW "$obj" | awk -v s=".rela$1" '
        /^Relocation section/ { on = index($0, "\x27" s "\x27") > 0 }
        on && /R_X86_64/ { print $5, ($7 == "" ? 0 : $7); exit }')
    [ -n "$at" ] || return 0
    objdump -t "$obj" | awk -v sec="${at% *}" -v off="${at#* }" '
        function hex(v) { sub(/^0+/, "", v); return v == "" ? "0" : v }
        $3 == "F" && $4 == sec && hex($1) == hex(off) { print $NF; found = 1; exit }
        END { if (!found) print sec }'
}

# Every symbol (nm: NAME TYPE ...) and section at once, then a verdict
# without a process per name; the file's lines are looked up only for what
# is refused. Exit 3: a call on POLICY_REFUSED (the grader's "Refused
# calls", the reference and its equivalents), said first.
symbols=$(nm -P "$obj") || exit 2
sections=$(readelf -SW "$obj" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p')
refused=" ${POLICY_REFUSED:-} "
bad=0
while read -r name type _; do
    case $type in
    U) case $refused in *" $name "*)
           echo "  -> $(at "$(use_line "$name")")calls $name: the library's own version of" \
               "what this exercise asks you to write (the contract lists it); replace that" \
               "call with your code"
           exit 3 ;;
       esac ;;
    esac
done <<EOF
$symbols
EOF
while read -r name type _; do
    case $type in
    U)
        why_call "$name"
        [ -z "$why" ] || refuse "$(use_line "$name")" "calls $name: $why" ;;
    [a-z]) ;;
    *)
        case $type:$name in T:"$prefix"*) continue ;; esac
        refuse "$(def_line "$name")" "defines $name, a global symbol that is not one of your" \
            "${prefix}* functions: a library function of that name would be replaced by yours" \
            "(the grader would compare your code with itself); make a helper static" ;;
    esac
done <<EOF
$symbols
EOF
for sec in $sections; do
    why_section "$sec"
    [ -z "$why" ] && continue
    target=$(section_target "$sec")
    refuse "$(def_line "$target")" "section $sec${target:+ ($target)}: $why"
done
# system calls written in assembly, and paths into /proc
# shellcheck disable=SC2016
objdump -d "$obj" | grep -qE '[[:space:]](syscall|sysenter|int[[:space:]]+\$0x80)\b' &&
    refuse "" "a system call written in assembly: the exercise needs no kernel call"
grep -qa '/proc' "$obj" &&
    refuse "" "the text \"/proc\": your code has no business with other processes' files"
exit $bad
