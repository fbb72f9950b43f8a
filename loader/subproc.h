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

/* The same in two halves, so that several commands run at once: start
 * argv (NULL with *cause when it cannot be), then take its end as
 * subproc_run says (the deadline counts from the start; its output is
 * read then: a command that writes more than a pipe holds waits until
 * then).  subproc_end and subproc_drop free it; subproc_drop kills it
 * first, for an answer no longer needed. */
struct subproc;
struct subproc *subproc_start(const char *const argv[], double wait,
    char **cause);
int subproc_end(struct subproc *, char **out, char **err, int *status,
    char **cause);
void subproc_drop(struct subproc *);
/* Start argv now, ahead of need, so that its answer comes while other
 * work is done: the first subproc_start of the same argv takes it (its
 * wait counted from now), subproc_ahead_drop kills those not taken (a
 * run refused before it asked).  Nothing is said when it cannot start:
 * subproc_start then starts it again and says why. */
void subproc_ahead(const char *const argv[], double wait);
void subproc_ahead_drop(void);

#endif
