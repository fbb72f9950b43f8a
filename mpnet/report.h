/* report.h -- violations in the script's words (report.c). */
#ifndef ENS_REPORT_H
#define ENS_REPORT_H

#include "sem.h"

/* A state's judge (report.c's scratch space for one net and mode). */
struct rjudge;
struct rjudge *report_judge_new(struct sem *);
void report_judge_free(struct rjudge *);

/* How bad the violation state s shows is: 0 none, else report_prio of its
 * kind.  'ps' says per process whether it runs, is blocked (no transition
 * it takes part in is enabled) or ended (sem_states).  What a state shows
 * stays in every state after it: processes stuck for good (blocked, and
 * needing only processes that are stuck, ended, or can never give what
 * they need), a process that ended with requests pending or without a
 * collective others left, a message to a process that ended.  A state
 * where every process ended and every channel is empty, or where nothing
 * is stuck, is good. */
int report_judge(struct rjudge *, const uint64_t *s, const unsigned char *ps);
/* Kinds from worst down: collective mismatch, deadlock, orphan receive,
 * unmatched send, unwaited request; the verdict names the worst found. */
int report_prio(enum vkind);
/* The worst a net can show (no collectives: no mismatch). */
int report_worst(const struct mpnet *);

/* Describe the bad state 'final' reached by trace (from the initial
 * state) into v; free with violation_free. */
void report_violation(struct violation *v, struct sem *, const uint64_t *final,
    const struct trans *trace, size_t ntrace);
void violation_free(struct violation *);

#endif
