#!/bin/sh
# where.sh FILE PROGRAM [ARG...] -- a component's wrapper for the Slurm
# tests: writes to FILE this host's name and its trampoline's command line
# (ensemble-exec's directory and the TCP ports left out), then becomes
# PROGRAM.
file=$1
shift
printf '%s %s\n' "$(hostname)" "$(tr '\0' ' ' </proc/$PPID/cmdline |
    sed -e 's|^[^ ]*/||' -e 's/:[0-9][0-9]*/:PORT/g' -e 's/ $//')" >"$file"
exec "$@"
