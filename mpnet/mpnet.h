/* mpnet.h -- the MP net of a checked PCG, and its verification: what the
 * rest of ensemble (the command, exports, tests) sees of mpnet/.
 *
 * A script's processes' behaviours compile to an MP net (compile.c; its
 * insides, programs of instructions, channel directions and collectives,
 * are compile.h's, private to mpnet/).  mpnet_verify checks it in each
 * send mode asked for and decides the verdict: the command only prints
 * the result. */
#ifndef ENS_MPNET_H
#define ENS_MPNET_H

#include <stdint.h>
#include <stdio.h>

#include "pcg.h"
#include "tick.h"
#include "violation.h"

/* An MP net (compile.h): opaque outside mpnet/. */
struct mpnet;
struct trans;

/* Compile a checked model; NULL after reporting errors (a component
 * without BEHAVIOUR, a port used but not connected, requests that pile up
 * in an endless loop ...) to the model's diag.  The net borrows the pcg. */
struct mpnet *mpnet_compile(const struct pcg *);
void mpnet_free(struct mpnet *);

/* ---- checking (verify.c) ---- */

/* How standard sends behave in a check: MPI buffers them, or they wait
 * for the receiver. */
enum check_mode { CHECK_BUFFERED, CHECK_SYNC };
#define CHECK_MODES	2

/* The modes a --send-mode name asks for (bits 1 << enum check_mode):
 * "both", "buffered" or "synchronous"; 0 for any other name. */
int mpnet_send_modes(const char *);


struct verify_opts {
	int		 modes;		/* bits 1 << enum check_mode; 0: both */
	int		 exact;		/* no reductions */
	int		 no_symmetry;	/* reductions, but not by symmetry */
	uint64_t	 max_states;	/* 0: none */
	uint64_t	 max_memory;	/* bytes; 0: what the machine has */
	double		 max_time;	/* seconds the whole verification may take;
					 * 0: none */
	double		 spent;		/* seconds of it earlier modes took
					 * (mpnet_check; mpnet_verify sets it) */
	int		 progress;	/* report once a second on stderr */
	/* Called about once a second while a search runs, with what it is
	 * doing (ensemble run says once that verification goes on); NULL:
	 * never. */
	void		(*tick)(void *, const struct verify_tick *);
	void		*tick_arg;
};

enum verdict { V_VERIFIED, V_VIOLATED, V_INCOMPLETE };

/* How a net's states are laid out (sem.h): the bits of a channel count,
 * how many open rooted collectives the log holds (buffered mode), and
 * whether pools are used (reductions; --exact has none).  The checker
 * widens cbits and clog when a run outgrows them. */
struct sem_layout {
	int		 cbits;
	int		 clog;
	int		 pool;
};

/* How a mode was explored: one run (a determinate net that ends), stubborn
 * sets, or every interleaving (--exact). */
enum check_engine { ENGINE_KAHN, ENGINE_POR, ENGINE_EXACT };

/* One mode's check. */
struct mode_result {
	enum check_mode	 mode;
	enum verdict	 verdict;
	uint64_t	 states;
	uint64_t	 transitions;
	double		 time_s;
	enum check_engine engine;
	char		*incomplete;	/* which limit stopped the search: when
					 * V_INCOMPLETE, or V_VIOLATED by the
					 * worst violation found before it */
	uint64_t	 peak_bytes;	/* of the state store (none for ENGINE_KAHN) */
	uint32_t	 state_bytes;	/* one packed state */
	struct sem_layout layout;	/* the states' (sem_init_layout) */
	int		 pooled;	/* directed channels sharing a pooled count */
	uint64_t	 bags;		/* times a wildcard run was taken in one
					 * order (a bag, sem.c) */
	char		*symmetry;	/* the families of interchangeable
					 * processes the search used, as
					 * "worker[1..8]" (symm.h); NULL: none */
	struct violation *viol;		/* NULL when none */
	int		 deep;		/* viol was found depth first and no
					 * shorter one breadth first within a
					 * budget: a shorter one may exist */
};

/* The verification of a net in every send mode asked for, and what it
 * comes to (mpnet_verify). */
struct verify_result {
	const char	*name;		/* the application's (borrowed) */
	struct mode_result mode[CHECK_MODES];	/* in the order checked:
					 * buffered, then synchronous */
	int		 nmodes;
	enum verdict	 verdict;	/* violated when a mode is, else
					 * incomplete when a mode is */
	int		 status;	/* the exit status it gives: 0 verified,
					 * 1 violated, 3 incomplete */
	int		 hazard;	/* a buffering hazard: verified in
					 * buffered mode, violated in synchronous
					 * mode (mode[1].viol says how) */
	const char	*buffered;	/* what buffered mode takes MPI to buffer,
					 * for the hazard: "standard sends", and
					 * rooted collectives left early */
	double		 time_s;	/* every mode */
};

const char *check_mode_name(enum check_mode);
const char *check_engine_name(enum check_engine);

/* Check the net in each mode vo->modes asks for (both when none), the
 * time limit for all of them together, and decide the verdict, the exit
 * status and whether it is a buffering hazard; fills r (free with
 * verify_result_free).  The progress line, if any, is erased after each
 * mode. */
void mpnet_verify(const struct mpnet *, const struct verify_opts *,
    struct verify_result *r);
void verify_result_free(struct verify_result *);
/* Check one mode; fills r (free with mode_result_free). */
void mpnet_check(const struct mpnet *, enum check_mode, const struct verify_opts *,
    struct mode_result *r);
void mode_result_free(struct mode_result *);

#endif
