/* violation.h -- what the checker finds wrong, whichever model it checks:
 * the kinds of violation, how they rank, their names, and one violation
 * ready to print.  Every model's judge ranks states by vkind_prio: the MP
 * net's (judge.c), the IR net's (irnet.c) and the Promela export's
 * (promela.c); report.c writes a script's violations, irnet.c an IR
 * model's.  It needs nothing of a model, so that each judge reads it
 * without the others' headers (mpnet.h hands it on to mpnet/'s users). */
#ifndef ENS_VIOLATION_H
#define ENS_VIOLATION_H

#include <stddef.h>
#include <stdint.h>

enum vkind {
	VK_DEADLOCK, VK_UNMATCHED_SEND, VK_ORPHAN_RECV, VK_COLL_MISMATCH,
	VK_UNWAITED, VK_LIVELOCK, VK_COUNT
};

/* How bad kind k is, 1 and up.  Kinds from worst down: livelock,
 * collective mismatch, deadlock, orphan receive, unmatched send,
 * unwaited request; the verdict names the worst found.  (Neither the IR
 * net nor the Promela export has polls, so neither shows a livelock.)
 * Inline: judge.c asks it on the explorers' hot path. */
static inline int
vkind_prio(enum vkind k)
{
	static const int	prio[VK_COUNT] = {
		[VK_LIVELOCK] = 6, [VK_COLL_MISMATCH] = 5, [VK_DEADLOCK] = 4,
		[VK_ORPHAN_RECV] = 3, [VK_UNMATCHED_SEND] = 2, [VK_UNWAITED] = 1,
	};

	return prio[k];
}

/* The kind's name in the JSON report: "deadlock", "unmatched-send". */
const char *vkind_name(enum vkind);

struct trans;

/* One violation, ready to print. */
struct violation {
	enum vkind	 kind;
	char		*message;	/* one line */
	char		*detail;	/* wait-for lines, each ending in \n */
	/* What repeats is said once in message and detail (pcg/fold.h:
	 * "stencil[1..64]: each waits in ... for the previous one"); these
	 * say it of every process, or are NULL when that is the same. */
	char		*message_full;
	char		*detail_full;
	int		*procs;		/* the processes involved */
	int		 nprocs;
	char		**trace;	/* the counterexample's actions, in order */
	int		 ntrace;
	size_t		 trace_total;	/* actions in all */
	size_t		 trace_first;	/* actions left out before trace[0], which
					 * is action number trace_first + 1 */
	uint64_t	*final;		/* the state it ends in (for --explain) */
	/* For drawing the counterexample as a timeline (explain.c): the
	 * transitions of trace[0 .. ntrace) (sem.h's, private to mpnet/),
	 * the state before the first, and who waits for whom at the end
	 * (process waits[2k] for waits[2k + 1], every blocked process). */
	struct trans	*steps;
	uint64_t	*start;
	int		*waits;
	int		 nwaits;
};

/* Free what v holds (not v itself). */
void violation_free(struct violation *v);

#endif
