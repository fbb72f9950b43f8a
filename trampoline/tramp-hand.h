/* tramp-hand.h -- the trampoline of a run ens_launch's caller spawned
 * (hand.c, runtime/hand.h). */
#ifndef ENS_TRAMP_HAND_H
#define ENS_TRAMP_HAND_H

/* With 'ensemble-exec --plan PLAN --hand FILE': FILE's environment set,
 * our standard output and error connected to 'ensemble run''s
 * collector, and *argc 3 ('--plan PLAN' left); else nothing.  Exit 127
 * when it cannot be (said on stderr). */
void	tramp_hand(int *argc, char **argv);

#endif
