/* model.h -- what the explorers (explore.c, kahn.c) see of a model, in
 * the spirit of LTSmin's PINS: a state is a vector of words, transitions
 * fall into groups (a process's, mostly), each group says which of its
 * transitions a state enables and fires one, and the model judges a
 * state.  The MP net of a script (sem.c: sem_model) and the IR net of a
 * thesis model (irnet.c) implement it; the explorers know nothing else
 * of either. */
#ifndef ENS_MODEL_H
#define ENS_MODEL_H

#include <stdint.h>

/* What the explorers need to know of a transition besides its group:
 * its role (enum trole) and whether it is safe.  The rest is the model's
 * own, read only by its fire and its reports. */
enum trole {
	TR_STEP,	/* anything else */
	TR_MATCH,	/* a pending request of its group takes a message */
	TR_POST,	/* its group posts a request or sends without waiting:
			 * it touches nothing a TR_MATCH of its group reads */
	TR_ALL,		/* a step every group takes at once (a collective):
			 * nobody is stuck while it is enabled */
};

struct trans {
	uint8_t		 kind;		/* the model's (sem.h: enum tkind) */
	uint8_t		 role;		/* enum trole */
	uint8_t		 safe;		/* independent of all other groups, now
					 * and later (stubborn sets need it) */
	uint8_t		 rdv;		/* the model's */
	int		 proc;		/* its group */
	int		 dc;		/* the model's */
	int		 slot;
	int		 alt;
	int		 pc;
};

/* What a group is doing in a state, for judging it. */
enum { PS_RUNS, PS_BLOCKED, PS_ENDED };

/* A state's judge: how bad s is, 0 good, higher worse.  'ps' says per
 * group whether it runs, is blocked or ended. */
typedef int (*judge_fn)(void *arg, const uint64_t *s, const unsigned char *ps);

/* A model.  Functions take 'arg' first; those an explorer does not use
 * may be NULL (kahn.c's, in a model that is never determinate). */
struct model {
	void		*arg;
	int		 ngroups;
	uint32_t	 words;		/* of a state vector */
	uint32_t	 bytes;		/* of it that matter (the rest is zero) */
	int		 max_trans;	/* room enough for one group's transitions */
	int		 all_group;	/* the group TR_ALL transitions are in */
	/* One run decides (kahn.c): every group has at most one transition
	 * enabled, an enabled one stays so until it fires, and those of
	 * different groups commute. */
	int		 determinate;
	/* How bad a state is (a judge_fn), and its argument. */
	judge_fn	 judge;
	void		*judge_arg;
	/* Judge states where every group can move too: they may all be
	 * polling in vain (a livelock needs no blocked process). */
	int		 judge_busy;

	void	(*initial)(void *, uint64_t *s);
	/* Group g's enabled transitions in s, appended to out (room for
	 * max_trans); how many.  'safe' is set only after want_safe(1). */
	int	(*enabled)(void *, const uint64_t *s, int g, struct trans *out);
	/* Fire t in s: 0, 1 when it left a channel holding two messages or
	 * more, one more than before (a channel grows: the proviso counts
	 * these, explore.c), or -1 when the state has no room for the result
	 * (a count ran out of bits: the model says which in its reports). */
	/* Optional (NULL: none): 'at' names the state the next calls of
	 * 'enabled_kept' ask of; enabled_kept is 'enabled', the same answer,
	 * computed again only for the groups whose part of the state it
	 * reads changed since the state 'at' named before (a state's cost
	 * is then what changed, mostly); at(NULL) forgets what was kept
	 * (a new search). */
	void	(*at)(void *, const uint64_t *s);
	int	(*enabled_kept)(void *, const uint64_t *s, int g, struct trans *out);
	/* (with them) Per group a bit: enabled_kept answers from what it
	 * kept, without asking again (valid after 'at'). */
	const uint64_t *(*kept)(void *);
	int	(*fire)(void *, uint64_t *s, const struct trans *t);
	void	(*want_safe)(void *, int);
	/* Put s in the canonical form of its orbit under the model's
	 * symmetries (NULL: none): states of one orbit show the same and
	 * lead to the same, up to the permutation (symm.c).  Returns where
	 * group g went (g < 0: -1).  'from', when not NULL, is a state in
	 * canonical form one step before s (its cost is then the step's). */
	int	(*canon)(void *, uint64_t *s, int g, const uint64_t *from);
	/* For stubborn sets of several groups (may be NULL: one group's
	 * only): the groups whose steps, while g takes none, may add to or
	 * take from g's enabled transitions in s, change g's state, or not
	 * commute with one of g's steps; with none enabled, those that may
	 * enable one.  Into out (room for ngroups), each once, g never;
	 * how many.  A set of groups closed under it (each group's deps in
	 * it) whose enabled transitions are not empty is persistent: no
	 * step outside it changes what its groups can do, and every such
	 * step commutes with theirs. */
	int	(*deps)(void *, const uint64_t *s, int g, int *out);
	/* Whether group g has ended in s; whether it can still end from
	 * where it is (it is not in an endless loop for good). */
	int	(*ended)(void *, const uint64_t *s, int g);
	int	(*can_end)(void *, const uint64_t *s, int g);
	/* Which groups interact: per group into c, the least group of its
	 * component; groups of different components never do. */
	void	(*components)(void *, int *c);

	/* For kahn.c: whether group g receives from another group; the
	 * group other than t's own whose state t may change (the sender of
	 * what it takes), or -1; the groups t may let go on, into out (room
	 * for ngroups), how many; the group g's next step waits for (a
	 * synchronous send's receiver), or -1; whether g waits at a TR_ALL
	 * step (NULL when no step is TR_ALL). */
	int	(*receives)(void *, int g);
	int	(*partner)(void *, const struct trans *t);
	int	(*wakes)(void *, const struct trans *t, int *out);
	int	(*waits_on)(void *, const uint64_t *s, int g);
	int	(*at_all)(void *, const uint64_t *s, int g);
	/* For kahn.c's endless run (NULL: hold every receiver still): -1
	 * when g's program ends, else the groups g hears from on every
	 * round of its endless loops (it cannot go round without a message
	 * from one, or one at a step they take together), into out (room
	 * for ngroups); how many.  The groups with a channel into q, into
	 * out; how many. */
	int	(*must_from)(void *, int g, int *out);
	int	(*senders)(void *, int q, int *out);
};

#endif
