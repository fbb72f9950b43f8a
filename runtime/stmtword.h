/* stmtword.h -- the words a statement of a behaviour starts with, as the
 * script language and the behaviour text (monitor.h) spell them: the one
 * table of them.  pcg/behave.c names each statement kind by it
 * (pcg_stmt_word, which pcg/emit.c prints scripts with and behave.c the
 * 'behaviour' attribute, and cli/trace-export.c a statement an event can
 * come from), the protocol monitor (monitor.c) reads the behaviour text
 * by it, and infer/out.c writes an inferred behaviour with it.
 *
 * Header-only and libc-free, in runtime/ because libensemble may use only
 * MPI and libc (HACKING.md); libpcg's and libinfer's include paths name
 * runtime/ for it alone, as libcommon's does for percent.h. */
#ifndef ENS_STMTWORD_H
#define ENS_STMTWORD_H

/* The statements, by their words.  The sends come in the order of the
 * script's send modes (standard, synchronous, buffered); the collectives
 * over the application or a group, W_BARRIER to W_REDUCESCATTER, then
 * the rooted ones, W_BCAST to W_GATHERV; after them the statements whose
 * operands follow their words in other ways.  W_RECV_PROBED ('recv m')
 * has W_RECV's word: the monitor tells them by the operand.  W_LOOP and
 * W_CHOICE are blocks, not calls. */
enum stmt_word {
	W_SEND, W_SSEND, W_BSEND, W_ISEND, W_ISSEND, W_IBSEND, W_RECV, W_IRECV,
	W_RECV_ANY, W_IRECV_ANY, W_WAITALL, W_BARRIER, W_ALLREDUCE, W_ALLGATHER,
	W_ALLTOALL, W_ALLGATHERV, W_ALLTOALLV, W_REDUCESCATTER,
	W_BCAST, W_SCATTER, W_REDUCE, W_GATHER, W_SCATTERV, W_GATHERV,
	W_SENDRECV, W_SENDRECV_REPLACE, W_WAIT, W_TEST, W_WAITANY, W_WAITSOME,
	W_PROBE, W_PROBE_ANY, W_IPROBE, W_IPROBE_ANY,
	W_RECV_PROBED,
	W_LOOP, W_CHOICE,
	W_COUNT
};

/* Each statement's words; two words are one space apart ("recv any",
 * "bcast from"). */
static const char *const stmt_words[W_COUNT] = {
	"send", "ssend", "bsend", "isend", "issend", "ibsend", "recv", "irecv",
	"recv any", "irecv any", "waitall", "barrier", "allreduce", "allgather",
	"alltoall", "allgatherv", "alltoallv", "reducescatter", "bcast from",
	"scatter from", "reduce to", "gather to", "scatterv from", "gatherv to",
	"sendrecv", "sendrecv replace", "wait", "test", "waitany", "waitsome",
	"probe", "probe any", "iprobe", "iprobe any", "recv", "loop", "choice"
};

/* Whether w is a rooted collective's: its words end in "from" or "to",
 * and a root process follows them. */
static inline int
stmt_word_rooted(enum stmt_word w)
{
	return w >= W_BCAST && w <= W_GATHERV;
}

#endif
