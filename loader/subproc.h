/* subproc.h -- a command run to its end or a deadline, its output taken
 * (subproc.c): what 'ensemble run' asks of Slurm's commands.  libc
 * only. */
#ifndef ENS_SUBPROC_H
#define ENS_SUBPROC_H

/* Run argv (its program found in PATH) with /dev/null as its standard
 * input, for wait seconds at most; its output in *out and *err (the
 * caller frees them), its wait status in *status.  0; 1 when it did not
 * end in time (it is killed, and *out and *err hold what it wrote); -1
 * with *cause when it could not be run.  It waits for its own child
 * only. */
int subproc_run(const char *const argv[], double wait, char **out,
    char **err, int *status, char **cause);

#endif
