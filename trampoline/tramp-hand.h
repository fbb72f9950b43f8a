/* tramp-hand.h -- the trampoline of a run ens_launch's caller spawned
 * (hand.c, runtime/hand.h). */
#ifndef ENS_TRAMP_HAND_H
#define ENS_TRAMP_HAND_H

/* With 'ensemble-exec --plan PLAN --hand FILE': FILE's environment set,
 * our standard output and error connected to 'ensemble run''s
 * collector, and *argc 3 ('--plan PLAN' left): 1; else nothing: 0.
 * Exit 127 when it cannot be (said on stderr).  The trampoline of such a
 * run never ends by a signal, but with 128 and its number: once a
 * process of a spawned job has died of a signal, Open MPI 4.1's mpirun
 * never ends (the caller's). */
int	tramp_hand(int *argc, char **argv);

#endif
