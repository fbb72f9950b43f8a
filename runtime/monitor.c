/* monitor.c -- the protocol monitor: a process's behaviour text (its
 * grammar: monitor.h) compiled to a small program (actions, jumps, splits
 * for 'choice', counted loops), followed as a set of positions, because
 * 'choice' and the end of a loop may go more than one way.  Each port call
 * must match an action one of the positions is at.  Where the process is
 * at one position, at an action that takes its call as it is (no request
 * or probed message to follow), the step is precomputed (compile_fast):
 * the call, the port type's index and where the action leads, past the
 * jumps after it; the step compares and stores, and counts a loop when
 * it leads to a loop's test (about 12 ns, against a microsecond for the
 * set of positions, so that the check can stay on: bench/monstep.c,
 * bench/checks.sh).
 * The sets a step builds are kept from step to step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"
#include "stmtword.h"

/* The call of each enum mon_op, as messages name it. */
static const char *const calls[] = {
	"ens_send", "ens_ssend", "ens_bsend", "ens_isend", "ens_issend",
	"ens_ibsend", "ens_recv", "ens_irecv", "ens_recv_any", "ens_irecv_any",
	"ens_waitall", "ens_barrier", "ens_bcast", "ens_scatter", "ens_reduce",
	"ens_allreduce", "ens_gather", "ens_allgather", "ens_alltoall",
	"ens_allgatherv", "ens_alltoallv", "ens_reduce_scatter", "ens_scatterv",
	"ens_gatherv", "ens_sendrecv", "ens_sendrecv_replace", "ens_wait",
	"ens_test", "ens_waitany", "ens_waitsome", "ens_probe", "ens_probe_any",
	"ens_iprobe", "ens_iprobe_any", "ens_finalize"
};

/* I_SOME: the branches a waitsome took, one at a time (slot a holds them
 * as bits, the waitsome's action is just before, b is its end). */
enum { I_ACT, I_JMP, I_SPLIT, I_ENTER, I_TEST, I_END, I_SOME };

struct ins {
	int	 kind;
	int	 a, b;		/* JMP: a; SPLIT: a, b; ENTER, TEST: a slot; TEST: b exit */
	long	 count;		/* ENTER: iterations, -1 forever */
	/* I_ACT */
	int	 word;
	char	*type;		/* port type, or recv any's type (NULL: any) */
	int	 port;
	char	*root;
	char	*group;		/* a collective's 'over'; NULL: none */
	int	 loc;		/* index in locs, -1 */
	/* The request an isend ... irecv any names with 'as', or wait or
	 * test names, or the message a probe or iprobe names with 'as' or
	 * 'recv' receives: its index in names, -1 none.  test, iprobe: b is
	 * the else block; waitsome: a, the slot of its branches. */
	int	 req;
	char	*rtype;		/* sendrecv: the receive's port (borrowed) */
	int	 rport;
	int	*on, *onpc;	/* waitany, waitsome: each branch's request */
	int	 non;		/* and its first instruction */
	/* The fast step's (compile_fast): the one call that matches this
	 * action with nothing for follow to do, -1 none (the others go the
	 * general way); its type's index; the instruction after it, past
	 * jumps. */
	int	 fop;
	int	 tidx;
	int	 next;
};

/* A set (or stack) of configurations, grown as needed up to
 * MON_MAX_CONFIGS: a step allocates for the configurations it meets, not
 * for the most it may. */
struct cfgs {
	long	*v;
	int	 n, cap;
};

struct mon {
	struct mon_fast	 f;		/* the inline step's (monitor.h): its
					 * c is rd's one configuration */
	struct mon_act	*acts;		/* f.acts, one per instruction */
	struct ins	*ins;
	int		 nins, ains;
	int		 nslots;
	char		**names;	/* the requests and messages named */
	unsigned char	*probed;	/* per name: 1 a probed message's */
	int		 nnames;
	char		**locs;
	int		 nlocs;
	struct cfgs	 rd;		/* the configurations it may be in */
	struct cfgs	 spare;		/* the next ready set, built by closure */
	struct cfgs	 seen, stack, next;	/* a step's scratch, kept */
	long		*cur;		/* CW: the configuration closure follows */
	int		 failed;
	int		 ntypes;	/* the port types, and their counts */
	const char *const *types;
	int		*nports;
	/* while parsing */
	const char	*p;
	int		 nextloc;
	char		*err;
};

/* Longs per configuration: the pc, the loops' counters (and waitsomes'
 * branches), then two per name: a request's, the request it holds (0
 * none, MON_POSTING while its post has not said which) and its number
 * among the posts, from 1; a probed message's, the port it was found on,
 * its type's index + 1 (0: none found) and its index. */
#define CW(m)	(1 + (m)->nslots + 2 * (m)->nnames)
#define MON_POSTING	(-1L)
/* The most longs of a configuration ens_mon_step's fast way copies. */
#define MON_FAST_CW	64
/* The request slot of name k in configuration c. */
#define RQ(m, c, k)	((c)[1 + (m)->nslots + 2 * (k)])
#define RQSEQ(m, c, k)	((c)[1 + (m)->nslots + 2 * (k) + 1])
/* The port probed message k was found on, in configuration c. */
#define PRTYPE(m, c, k)	RQ(m, c, k)
#define PRPORT(m, c, k)	RQSEQ(m, c, k)

static int
emit(struct mon *m, int kind)
{
	struct ins	*n;

	if (m->nins == m->ains) {
		int	a = m->ains ? m->ains * 2 : 32;

		if ((n = realloc(m->ins, sizeof(*n) * (size_t)a)) == NULL)
			return -1;
		m->ins = n;
		m->ains = a;
	}
	memset(&m->ins[m->nins], 0, sizeof(m->ins[0]));
	m->ins[m->nins].kind = kind;
	m->ins[m->nins].loc = -1;
	m->ins[m->nins].req = -1;
	return m->nins++;
}

/* The next token: '{', '}', ';' or a word; its length in *len, 0 at the end. */
static const char *
peek(struct mon *m, size_t *len)
{
	while (*m->p == ' ' || *m->p == '\t' || *m->p == '\n')
		m->p++;
	if (*m->p == '\0') {
		*len = 0;
		return m->p;
	}
	if (strchr("{};,", *m->p) != NULL) {
		*len = 1;
		return m->p;
	}
	*len = strcspn(m->p, " \t\n{};,");
	return m->p;
}

static int
is(struct mon *m, const char *w)
{
	size_t		 len;
	const char	*t = peek(m, &len);

	return len == strlen(w) && strncmp(t, w, len) == 0;
}

static char *
take(struct mon *m)
{
	size_t		 len;
	const char	*t = peek(m, &len);
	char		*s;

	if (len == 0 || (s = malloc(len + 1)) == NULL)
		return NULL;
	memcpy(s, t, len);
	s[len] = '\0';
	m->p += len;
	return s;
}

static int
fail(struct mon *m, const char *what)
{
	char	near[24];
	size_t	n;

	if (m->err == NULL) {
		n = strcspn(m->p, "\n");
		snprintf(near, sizeof(near), "%.*s", (int)(n > 20 ? 20 : n), m->p);
		if ((m->err = malloc(strlen(what) + sizeof(near) + 32)) != NULL)
			sprintf(m->err, "%s near '%s'", what, near);
	}
	return -1;
}

static int
expect(struct mon *m, const char *w)
{
	char	msg[32];

	if (!is(m, w)) {
		snprintf(msg, sizeof(msg), "expected '%s'", w);
		return fail(m, msg);
	}
	m->p++;
	return 0;
}

static int
type_index(struct mon *m, const char *t, size_t len)
{
	int	i;

	for (i = 0; i < m->ntypes; i++)
		if (strlen(m->types[i]) == len && strncmp(m->types[i], t, len) == 0)
			return i;
	return -1;
}

/* The end of collective pc: an optional 'over' and its group, and ';'. */
static int
over(struct mon *m, int pc)
{
	if (is(m, "over")) {
		m->p += 4;
		if (is(m, ";") || is(m, "{") || is(m, "}") ||
		    (m->ins[pc].group = take(m)) == NULL)
			return fail(m, "expected a group");
	}
	return expect(m, ";");
}

/* A request's name, or a probed message's (probed 1), a word that is a
 * name: its index in m->names, added when new; -1 when it is no name or
 * names the other kind. */
static int
name_ref(struct mon *m, int probed)
{
	char		*tok, **nn;
	unsigned char	*np;
	int		 i;

	if ((tok = take(m)) == NULL || !(tok[0] == '_' ||
	    (tok[0] >= 'a' && tok[0] <= 'z') || (tok[0] >= 'A' && tok[0] <= 'Z')) ||
	    tok[strspn(tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_")] != '\0') {
		free(tok);
		return fail(m, probed ? "expected a probed message's name" :
		    "expected a request's name");
	}
	for (i = 0; i < m->nnames; i++)
		if (strcmp(m->names[i], tok) == 0) {
			free(tok);
			if (m->probed[i] != probed)
				return fail(m, "a name of a request and of a "
				    "probed message");
			return i;
		}
	nn = realloc(m->names, sizeof(*nn) * (size_t)(m->nnames + 1));
	if (nn != NULL)
		m->names = nn;
	np = realloc(m->probed, (size_t)(m->nnames + 1));
	if (np != NULL)
		m->probed = np;
	if (nn == NULL || np == NULL) {
		free(tok);
		return fail(m, "out of memory");
	}
	m->names[m->nnames] = tok;
	m->probed[m->nnames] = (unsigned char)probed;
	return m->nnames++;
}

/* An optional 'as' name after the post (or the probe: probed 1) at pc. */
static int
as_name(struct mon *m, int pc, int probed)
{
	int	k;

	if (!is(m, "as"))
		return 0;
	m->p += 2;
	if ((k = name_ref(m, probed)) < 0)
		return -1;
	m->ins[pc].req = k;
	return 0;
}

static int	p2p_statement(struct mon *, int, int);

/* An action statement after its word: its operands and ';'. */
static int
action(struct mon *m, int w, int loc)
{
	char	*tok = NULL, *br, *end;
	long	 k, lo, hi;
	int	 t, pc, first;

	if (w >= W_SENDRECV)
		return p2p_statement(m, w, loc);
	if (w == W_RECV_ANY || w == W_IRECV_ANY) {
		if (!is(m, ";") && !is(m, "as") && (tok = take(m)) == NULL)
			return fail(m, "expected a port type");
		if ((pc = emit(m, I_ACT)) < 0) {
			free(tok);
			return fail(m, "out of memory");
		}
		m->ins[pc].word = w;
		m->ins[pc].type = tok;
		m->ins[pc].loc = loc;
		if (w == W_IRECV_ANY && as_name(m, pc, 0) != 0)
			return -1;
		return expect(m, ";");
	}
	if (stmt_word_rooted(w)) {
		if ((pc = emit(m, I_ACT)) < 0 || (tok = take(m)) == NULL)
			return fail(m, "expected a root process");
		m->ins[pc].word = w;
		m->ins[pc].root = tok;
		m->ins[pc].loc = loc;
		return over(m, pc);
	}
	if (w >= W_WAITALL) {
		if ((pc = emit(m, I_ACT)) < 0)
			return fail(m, "out of memory");
		m->ins[pc].word = w;
		m->ins[pc].loc = loc;
		return w == W_WAITALL ? expect(m, ";") : over(m, pc);
	}
	/* 'recv m': a name where recv's port would be. */
	if (w == W_RECV) {
		size_t		 len;
		const char	*word = peek(m, &len);

		if (len > 0 && memchr(word, '[', len) == NULL &&
		    strchr("{};,", *word) == NULL)
			return p2p_statement(m, W_RECV_PROBED, loc);
	}
	/* T[k] or T[*]. */
	if ((tok = take(m)) == NULL || (br = strchr(tok, '[')) == NULL ||
	    tok[strlen(tok) - 1] != ']') {
		free(tok);
		return fail(m, "expected a port T[k]");
	}
	if ((t = type_index(m, tok, (size_t)(br - tok))) < 0) {
		free(tok);
		return fail(m, "unknown port type");
	}
	if (strcmp(br, "[*]") == 0) {
		lo = 1;
		hi = m->nports[t];
	} else {
		k = strtol(br + 1, &end, 10);
		if (end == br + 1 || strcmp(end, "]") != 0 || k < 1) {
			free(tok);
			return fail(m, "bad port index");
		}
		lo = hi = k;
	}
	free(tok);
	first = m->nins;
	for (k = lo; k <= hi; k++) {
		if ((pc = emit(m, I_ACT)) < 0)
			return fail(m, "out of memory");
		m->ins[pc].word = w;
		m->ins[pc].type = (char *)m->types[t];	/* borrowed: see ens_mon_free */
		m->ins[pc].port = (int)k;
		m->ins[pc].loc = loc;
	}
	if (is(m, "as") && (w < W_ISEND || w > W_IBSEND) && w != W_IRECV)
		return fail(m, "a request's name after no post");
	if (is(m, "as") && m->nins != first + 1)
		return fail(m, "a request's name for no port or several");
	if (as_name(m, m->nins - 1, 0) != 0)
		return -1;
	return expect(m, ";");
}

static int statements(struct mon *);

/* Free what an instruction holds. */
static void
ins_free(struct ins *in)
{
	if (in->word == W_RECV_ANY || in->word == W_IRECV_ANY ||
	    in->word == W_PROBE_ANY || in->word == W_IPROBE_ANY)
		free(in->type);
	free(in->root);
	free(in->group);
	free(in->on);
	free(in->onpc);
}

/* Whether instructions from 'from' on hold an action. */
static int
has_action(const struct mon *m, int from)
{
	int	i;

	for (i = from; i < m->nins; i++)
		if (m->ins[i].kind == I_ACT)
			return 1;
	return 0;
}

/* '{' statements '}' */
static int
block(struct mon *m)
{
	if (expect(m, "{") != 0 || statements(m) != 0)
		return -1;
	return expect(m, "}");
}

/* 'choice' { 'or' block }, after its word; each block but the last may be
 * skipped by a split to the next. */
static int
choice(struct mon *m)
{
	int	*ends = NULL, *ne, nends = 0, aends = 0, split, i, rc = -1;

	for (;;) {
		if ((split = emit(m, I_SPLIT)) < 0) {
			fail(m, "out of memory");
			goto out;
		}
		m->ins[split].a = m->nins;
		if (block(m) != 0)
			goto out;
		if (nends == aends) {
			aends = aends ? 2 * aends : 8;
			if ((ne = realloc(ends, sizeof(*ends) * (size_t)aends)) == NULL) {
				fail(m, "out of memory");
				goto out;
			}
			ends = ne;
		}
		if ((ends[nends++] = emit(m, I_JMP)) < 0) {
			fail(m, "out of memory");
			goto out;
		}
		m->ins[split].b = m->nins;
		if (!is(m, "or"))
			break;
		m->p += 2;
	}
	/* The last branch is not skipped: its split goes one way. */
	m->ins[split].b = m->ins[split].a;
	for (i = 0; i < nends; i++)
		m->ins[ends[i]].a = m->nins;
	rc = 0;
out:
	free(ends);
	return rc;
}

/* A port T[k] of one index: into *type (borrowed) and *port. */
static int
one_port(struct mon *m, char **type, int *port)
{
	char	*tok, *br, *end;
	long	 k;
	int	 t;

	if ((tok = take(m)) == NULL || (br = strchr(tok, '[')) == NULL ||
	    tok[strlen(tok) - 1] != ']') {
		free(tok);
		return fail(m, "expected a port T[k]");
	}
	if ((t = type_index(m, tok, (size_t)(br - tok))) < 0) {
		free(tok);
		return fail(m, "unknown port type");
	}
	k = strtol(br + 1, &end, 10);
	if (end == br + 1 || strcmp(end, "]") != 0 || k < 1 || k > m->nports[t]) {
		free(tok);
		return fail(m, "bad port index");
	}
	free(tok);
	*type = (char *)m->types[t];	/* borrowed: see ens_mon_free */
	*port = (int)k;
	return 0;
}

/* A word that must come. */
static int
keyword(struct mon *m, const char *w)
{
	char	msg[32];

	if (!is(m, w)) {
		snprintf(msg, sizeof(msg), "expected '%s'", w);
		return fail(m, msg);
	}
	m->p += strlen(w);
	return 0;
}

/* block 'else' block, after the action at pc (test, iprobe): the first
 * block follows it, its b is the else block. */
static int
two_ways(struct mon *m, int pc)
{
	int	jmp;

	if (block(m) != 0 || (jmp = emit(m, I_JMP)) < 0)
		return -1;
	m->ins[pc].b = m->nins;
	if (keyword(m, "else") != 0 || block(m) != 0)
		return -1;
	m->ins[jmp].a = m->nins;
	return 0;
}

/* '{' { 'on' name block } '}' after waitany or waitsome at pc: each block
 * where its 'on' says; after a waitany's, to the end; after a
 * waitsome's, back to its I_SOME, which is just after the action. */
static int
branches(struct mon *m, int pc, int some)
{
	int	*jmps = NULL, *nj, njmps = 0, k, disp = -1, i, *a, *b;

	if (some) {
		if ((disp = emit(m, I_SOME)) < 0)
			return fail(m, "out of memory");
		m->ins[pc].a = m->ins[disp].a = m->nslots++;
	}
	if (expect(m, "{") != 0)
		return -1;
	while (is(m, "on")) {
		m->p += 2;
		if ((k = name_ref(m, 0)) < 0)
			goto bad;
		a = realloc(m->ins[pc].on, sizeof(int) * (size_t)(m->ins[pc].non + 1));
		if (a != NULL)
			m->ins[pc].on = a;
		b = realloc(m->ins[pc].onpc, sizeof(int) * (size_t)(m->ins[pc].non + 1));
		if (b != NULL)
			m->ins[pc].onpc = b;
		nj = realloc(jmps, sizeof(int) * (size_t)(njmps + 1));
		if (nj != NULL)
			jmps = nj;
		if (a == NULL || b == NULL || nj == NULL) {
			fail(m, "out of memory");
			goto bad;
		}
		m->ins[pc].on[m->ins[pc].non] = k;
		m->ins[pc].onpc[m->ins[pc].non++] = m->nins;
		if (block(m) != 0 || (jmps[njmps++] = emit(m, I_JMP)) < 0)
			goto bad;
		if (some && m->ins[pc].non > 62) {
			fail(m, "more than 62 branches");
			goto bad;
		}
	}
	if (m->ins[pc].non == 0) {
		fail(m, "expected 'on'");
		goto bad;
	}
	if (expect(m, "}") != 0)
		goto bad;
	for (i = 0; i < njmps; i++)
		m->ins[jmps[i]].a = some ? disp : m->nins;
	if (some)
		m->ins[disp].b = m->nins;
	free(jmps);
	return 0;
bad:
	free(jmps);
	return -1;
}

/* sendrecv, wait, test, waitany, waitsome, probe and iprobe, after their
 * word. */
static int
p2p_statement(struct mon *m, int w, int loc)
{
	char	*tok = NULL;
	int	 pc, k;

	if ((pc = emit(m, I_ACT)) < 0)
		return fail(m, "out of memory");
	m->ins[pc].word = w;
	m->ins[pc].loc = loc;
	switch (w) {
	case W_SENDRECV:
	case W_SENDRECV_REPLACE:
		if (one_port(m, &m->ins[pc].type, &m->ins[pc].port) != 0 ||
		    expect(m, ",") != 0 ||
		    one_port(m, &m->ins[pc].rtype, &m->ins[pc].rport) != 0)
			return -1;
		return expect(m, ";");
	case W_WAIT:
	case W_TEST:
	case W_RECV_PROBED:
		if ((k = name_ref(m, w == W_RECV_PROBED)) < 0)
			return -1;
		m->ins[pc].req = k;
		return w == W_TEST ? two_ways(m, pc) : expect(m, ";");
	case W_PROBE:
	case W_IPROBE:
		if (one_port(m, &m->ins[pc].type, &m->ins[pc].port) != 0 ||
		    as_name(m, pc, 1) != 0)
			return -1;
		return w == W_PROBE ? expect(m, ";") : two_ways(m, pc);
	case W_PROBE_ANY:
	case W_IPROBE_ANY:
		if (!is(m, w == W_PROBE_ANY ? ";" : "{") && !is(m, "as")) {
			if ((tok = take(m)) == NULL || type_index(m, tok,
			    strlen(tok)) < 0) {
				free(tok);
				return fail(m, "unknown port type");
			}
			m->ins[pc].type = tok;
		}
		if (as_name(m, pc, 1) != 0)
			return -1;
		return w == W_PROBE_ANY ? expect(m, ";") : two_ways(m, pc);
	default:	/* waitany, waitsome */
		return branches(m, pc, w == W_WAITSOME);
	}
}

static int
statement(struct mon *m)
{
	int	 loc = m->nextloc++, w, enter, test, jmp, n, first, slots;
	char	*tok, *end;
	long	 count = -1;

	if (is(m, stmt_words[W_LOOP])) {
		m->p += strlen(stmt_words[W_LOOP]);
		if (!is(m, "{")) {
			if ((tok = take(m)) == NULL)
				return fail(m, "expected a count");
			count = strtol(tok, &end, 10);
			n = *end != '\0' || count < 0;
			free(tok);
			if (n)
				return fail(m, "bad loop count");
		}
		first = m->nins;
		slots = m->nslots;
		if ((enter = emit(m, I_ENTER)) < 0 || (test = emit(m, I_TEST)) < 0)
			return fail(m, "out of memory");
		m->ins[enter].a = m->ins[test].a = m->nslots++;
		m->ins[enter].count = m->ins[test].count = count;
		if (block(m) != 0 || (jmp = emit(m, I_JMP)) < 0)
			return -1;
		m->ins[jmp].a = test;
		m->ins[test].b = m->nins;
		/* A counted loop that makes no call (a count of 0, or a body
		 * that 'if' and 'for' left without one) is left out, as the
		 * verifier leaves it out: followed, each of its iterations
		 * would be a position of its own, and 'loop 5000 { }' more
		 * than MON_MAX_CONFIGS. */
		if (count == 0 || (count > 0 && !has_action(m, first))) {
			while (m->nins > first)
				ins_free(&m->ins[--m->nins]);
			m->nslots = slots;
		}
		return 0;
	}
	if (is(m, stmt_words[W_CHOICE])) {
		m->p += strlen(stmt_words[W_CHOICE]);
		return choice(m);
	}
	/* The calls' words, each before its prefixes ("recv any" before
	 * "recv"); 'recv m' is found as W_RECV, by its operand. */
	for (w = W_RECV_PROBED - 1; w >= 0; w--) {
		const char	*sp = strchr(stmt_words[w], ' ');

		if (sp == NULL) {
			if (is(m, stmt_words[w]))
				break;
			continue;
		}
		/* "recv any", "bcast from": two tokens. */
		{
			const char	*save = m->p;
			size_t		 l1 = (size_t)(sp - stmt_words[w]), len;
			const char	*t = peek(m, &len);

			if (len == l1 && strncmp(t, stmt_words[w], l1) == 0) {
				m->p += len;
				if (is(m, sp + 1))
					break;
			}
			m->p = save;
		}
	}
	if (w < 0)
		return fail(m, "unknown statement");
	/* m->p is at the word, or at the second of a two-word one. */
	m->p += strchr(stmt_words[w], ' ') != NULL ? strlen(strchr(stmt_words[w], ' ') + 1) :
	    strlen(stmt_words[w]);
	return action(m, w, loc);
}

static int
statements(struct mon *m)
{
	size_t	len;

	for (;;) {
		peek(m, &len);
		if (len == 0 || *m->p == '}')
			return 0;
		if (statement(m) != 0)
			return -1;
	}
}

static int	 matches(const struct ins *, const struct mon_event *);
static void	 sync_fast(struct mon *);
static int	 settle(struct mon *, const long *, int, char **);
static char	*refusal(const struct mon *, const struct mon_event *);

int
ens_mon_expects(struct mon *m, const struct mon_event *e, char **msg)
{
	int	i;

	*msg = NULL;
	if (m->failed) {
		*msg = strdup("the behaviour was already left");
		return -1;
	}
	for (i = 0; i < m->rd.n; i++) {
		const struct ins *in = &m->ins[m->rd.v[(size_t)i * CW(m)]];

		if (in->kind == I_ACT && matches(in, e)) {
			if (m->f.where != NULL)	/* where it waits (the step's
						 * after it may say another) */
				*m->f.where = in->loc;
			return 0;
		}
	}
	m->failed = 1;
	sync_fast(m);
	*msg = refusal(m, e);
	return -1;
}

void
ens_mon_posted(struct mon *m, long req)
{
	int	i, k;

	for (i = 0; i < m->rd.n; i++)
		for (k = 0; k < m->nnames; k++)
			if (!m->probed[k] &&
			    RQ(m, m->rd.v + (size_t)i * CW(m), k) == MON_POSTING)
				RQ(m, m->rd.v + (size_t)i * CW(m), k) = req;
}

void
ens_mon_free(struct mon *m)
{
	int	i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nins; i++)
		ins_free(&m->ins[i]);
	for (i = 0; i < m->ntypes; i++)
		free((char *)m->types[i]);
	free((void *)m->types);
	free(m->nports);
	for (i = 0; i < m->nlocs; i++)
		free(m->locs[i]);
	free(m->locs);
	for (i = 0; i < m->nnames; i++)
		free(m->names[i]);
	free(m->names);
	free(m->probed);
	free(m->ins);
	free(m->acts);
	free(m->rd.v);
	free(m->spare.v);
	free(m->seen.v);
	free(m->stack.v);
	free(m->next.v);
	free(m->cur);
	free(m->err);
	free(m);
}


/* Room in s for one more configuration: 0, or -1 when it holds
 * MON_MAX_CONFIGS already or memory ran out. */
static int
room(const struct mon *m, struct cfgs *s)
{
	long	*nv;
	int	 cap;

	if (s->n < s->cap)
		return 0;
	if (s->cap >= MON_MAX_CONFIGS)
		return -1;
	cap = s->cap > 0 ? 2 * s->cap : 16;
	if (cap > MON_MAX_CONFIGS)
		cap = MON_MAX_CONFIGS;
	if ((nv = realloc(s->v, sizeof(long) * (size_t)CW(m) * (size_t)cap)) == NULL)
		return -1;
	s->v = nv;
	s->cap = cap;
	return 0;
}

/* Add configuration c to set s; 1 added, 0 there, -1 full. */
static int
add(const struct mon *m, struct cfgs *s, const long *c)
{
	int	i, w = CW(m);

	for (i = 0; i < s->n; i++)
		if (memcmp(s->v + (size_t)i * w, c, sizeof(long) * (size_t)w) == 0)
			return 0;
	if (room(m, s) != 0)
		return -1;
	memcpy(s->v + (size_t)s->n++ * w, c, sizeof(long) * (size_t)w);
	return 1;
}

/* A waitsome's next branch in configuration c, at its I_SOME 'in': of
 * those whose requests it completed and are left, the one posted first
 * (its request's number among the posts is done with; the request
 * itself was at the call); the end when none is left. */
static void
some_next(const struct mon *m, const struct ins *in, long *c)
{
	const struct ins *act = in - 1;
	long		 mask = c[1 + in->a];
	int		 i, best = -1;

	for (i = 0; i < act->non; i++)
		if ((mask >> i & 1) && (best < 0 ||
		    RQSEQ(m, c, act->on[i]) < RQSEQ(m, c, act->on[best])))
			best = i;
	if (best < 0) {
		c[0] = in->b;
		return;
	}
	c[1 + in->a] = mask & ~(1L << best);
	RQ(m, c, act->on[best]) = RQSEQ(m, c, act->on[best]) = 0;
	c[0] = act->onpc[best];
}

/* Follow configuration c (in place) from a jump, a loop's entry or test,
 * or a waitsome's dispatch to where it leads, one instruction. */
static inline void
step_one(const struct mon *m, const struct ins *in, long *c)
{
	if (in->kind == I_JMP)
		c[0] = in->a;
	else if (in->kind == I_ENTER) {
		c[1 + in->a] = in->count;
		c[0]++;
	} else if (in->kind == I_TEST) {
		if (in->count < 0)
			c[0]++;
		else if (c[1 + in->a] > 0) {
			c[1 + in->a]--;
			c[0]++;
		} else {
			c[1 + in->a] = 0;
			c[0] = in->b;
		}
	} else		/* I_SOME */
		some_next(m, in, c);
}

/* The fast way of closure for one configuration c that goes one way:
 * follow it in place to the action or end it reaches, as closure would.
 * 0, or -1 when it meets a split or goes round longer than the program
 * (a loop of nothing; closure tells): c is then part way, still one of
 * the configurations closure reaches the same actions from. */
static inline int
advance(const struct mon *m, long *c)
{
	int	n;

	for (n = 0; n <= m->nins; n++) {
		const struct ins *in = &m->ins[c[0]];

		if (in->kind == I_ACT || in->kind == I_END)
			return 0;
		if (in->kind == I_SPLIT)
			return -1;
		step_one(m, in, c);
	}
	return -1;
}

/* From the nfrom configurations in 'from' (not m->spare's), follow
 * jumps, splits and loops to the actions and ends they reach: the new
 * m->rd.  0, or -1 when too many (m->rd as it was).  The sets are the
 * monitor's, kept from step to step: a step allocates only while they
 * grow. */
static int
closure(struct mon *m, const long *from, int nfrom)
{
	struct cfgs	 t;
	int		 w = CW(m), i, r;
	long		*c = m->cur;

	m->seen.n = m->stack.n = m->spare.n = 0;
	for (i = 0; i < nfrom; i++) {
		if (room(m, &m->stack) != 0)
			return -1;
		memcpy(m->stack.v + (size_t)m->stack.n++ * w, from + (size_t)i * w,
		    sizeof(long) * (size_t)w);
	}
	while (m->stack.n > 0) {
		memcpy(c, m->stack.v + (size_t)--m->stack.n * w,
		    sizeof(long) * (size_t)w);
		if ((r = add(m, &m->seen, c)) < 0)
			return -1;
		if (r == 0)
			continue;
		for (;;) {
			struct ins	*in = &m->ins[c[0]];

			if (in->kind == I_ACT || in->kind == I_END) {
				if (add(m, &m->spare, c) < 0)
					return -1;
				break;
			}
			if (in->kind == I_SPLIT) {	/* this way; push the other */
				if (room(m, &m->stack) != 0)
					return -1;
				memcpy(m->stack.v + (size_t)m->stack.n * w, c,
				    sizeof(long) * (size_t)w);
				m->stack.v[(size_t)m->stack.n++ * w] = in->b;
				c[0] = in->a;
			} else
				step_one(m, in, c);
			/* A loop of nothing comes back here: stop at a repeat. */
			if ((r = add(m, &m->seen, c)) < 0)
				return -1;
			if (r == 0)
				break;
		}
	}
	t = m->rd;
	m->rd = m->spare;
	m->spare = t;
	return 0;
}

/* The call of each action word whose match is its name alone (its port,
 * root and group aside), for the fast step; -1: none (and loop and
 * choice, no actions). */
static const int word_op[W_COUNT] = {
	MON_SEND, MON_SSEND, MON_BSEND, MON_ISEND, MON_ISSEND, MON_IBSEND,
	MON_RECV, MON_IRECV, -1, -1, -1, MON_BARRIER, MON_ALLREDUCE,
	MON_ALLGATHER, MON_ALLTOALL, MON_ALLGATHERV, MON_ALLTOALLV,
	MON_REDUCE_SCATTER, MON_BCAST, MON_SCATTER, MON_REDUCE, MON_GATHER,
	MON_SCATTERV, MON_GATHERV, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1
};

/* The precomputed automaton of the fast step: for each action with
 * nothing to follow but its place (no request or message it names, one
 * outcome), the call it takes, its port type's index, and where it
 * leads, past the jumps after it, so that a step there is a comparison
 * and a store (and a loop's count when it leads to a loop's test). */
static int
compile_fast(struct mon *m)
{
	struct ins	*in, *to;
	struct mon_act	*a;
	int		 pc, k, n;

	if ((m->acts = calloc((size_t)m->nins, sizeof(*m->acts))) == NULL)
		return -1;
	m->f.acts = m->acts;
	for (pc = 0; pc < m->nins; pc++) {
		in = &m->ins[pc];
		a = &m->acts[pc];
		in->fop = a->op = -1;
		in->tidx = -1;
		a->slot = -1;
		if (in->kind != I_ACT)
			continue;
		for (k = 0; k < m->ntypes; k++)
			if (in->type == m->types[k])
				in->tidx = k;
		if (in->req >= 0 || (in->word <= W_IRECV && in->tidx < 0))
			continue;
		in->fop = word_op[in->word];
		in->next = pc + 1;
		for (n = 0; n < m->nins && m->ins[in->next].kind == I_JMP; n++)
			in->next = m->ins[in->next].a;
		/* The inline step's: where the step leads when that is an
		 * action or the end, or a loop's test whose body begins
		 * with an action (a counted loop's: while it goes round). */
		a->tidx = in->tidx;
		a->port = in->port;
		a->loc = in->loc;
		a->root = in->root;
		a->group = in->group;
		a->next = in->next;
		to = &m->ins[in->next];
		if (to->kind == I_TEST && m->ins[in->next + 1].kind == I_ACT) {
			a->next = in->next + 1;
			a->slot = to->count < 0 ? -1 : to->a;
		} else if (to->kind != I_ACT && to->kind != I_END)
			continue;
		a->op = in->fop;
		a->post = ens_mon_is_post((enum mon_op)in->fop);
	}
	return 0;
}

struct mon *
ens_mon_new(const char *behaviour, int nlocs, const char *const *locs, int ntypes,
    const char *const *types, const int *nports, char **cause)
{
	struct mon	*m;
	char		**tv;
	long		*start;
	size_t		 n;
	int		 i, end;

	*cause = NULL;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return NULL;
	/* Keep the types: actions point at them. */
	if ((tv = calloc((size_t)ntypes + 1, sizeof(*tv))) == NULL)
		goto oom;
	m->types = (const char *const *)tv;
	for (i = 0; i < ntypes; i++) {
		if ((tv[i] = strdup(types[i])) == NULL)
			goto oom;
		m->ntypes++;
	}
	if ((m->nports = calloc((size_t)ntypes + 1, sizeof(*m->nports))) == NULL)
		goto oom;
	if (ntypes > 0)
		memcpy(m->nports, nports, sizeof(*m->nports) * (size_t)ntypes);
	if (nlocs > 0 && (m->locs = calloc((size_t)nlocs, sizeof(*m->locs))) == NULL)
		goto oom;
	for (i = 0; i < nlocs; i++) {
		if ((m->locs[i] = strdup(locs[i] != NULL ? locs[i] : "-")) == NULL)
			goto oom;
		m->nlocs++;
	}
	m->p = behaviour != NULL ? behaviour : "";
	if (statements(m) != 0 || (peek(m, &n), n != 0 && fail(m, "unexpected '}'")) ||
	    (end = emit(m, I_END)) < 0) {
		*cause = m->err != NULL ? m->err : strdup("out of memory");
		m->err = NULL;
		ens_mon_free(m);
		return NULL;
	}
	(void)end;
	if (compile_fast(m) != 0)
		goto oom;
	if ((start = calloc((size_t)CW(m), sizeof(long))) == NULL ||
	    (m->cur = calloc((size_t)CW(m), sizeof(long))) == NULL) {
		free(start);
		goto oom;
	}
	i = closure(m, start, 1);
	free(start);
	sync_fast(m);
	if (i != 0) {
		*cause = strdup("the behaviour has too many ways to go at its start");
		ens_mon_free(m);
		return NULL;
	}
	return m;
oom:
	*cause = strdup("out of memory");
	ens_mon_free(m);
	return NULL;
}

/* Whether the names a statement and a call give (a port type, a group),
 * either NULL for none, are the same. */
static int
same_type(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* Whether a collective's group is the one the call names (both none, or
 * the same name). */
static int
same_group(const struct ins *in, const struct mon_event *e)
{
	return same_type(in->group, e->group);
}

static int
matches(const struct ins *in, const struct mon_event *e)
{
	int	w = in->word;

	if (ens_mon_is_coll(e->op) && !same_group(in, e))
		return 0;

	switch (e->op) {
	case MON_SEND:	if (w != W_SEND) return 0; break;
	case MON_SSEND:	if (w != W_SEND && w != W_SSEND) return 0; break;
	case MON_BSEND:	if (w != W_SEND && w != W_BSEND) return 0; break;
	case MON_ISEND:	if (w != W_ISEND) return 0; break;
	case MON_ISSEND: if (w != W_ISEND && w != W_ISSEND) return 0; break;
	case MON_IBSEND: if (w != W_ISEND && w != W_IBSEND) return 0; break;
	case MON_RECV:
		if (w == W_RECV_PROBED)		/* its port: follow's */
			return 1;
		if (w != W_RECV)
			return 0;
		break;
	case MON_IRECV:	if (w != W_IRECV) return 0; break;
	case MON_RECV_ANY:
	case MON_IRECV_ANY:
		if (w != (e->op == MON_RECV_ANY ? W_RECV_ANY : W_IRECV_ANY))
			return 0;
		return same_type(in->type, e->type);
	case MON_WAITALL:	return w == W_WAITALL;
	case MON_BARRIER:	return w == W_BARRIER;
	case MON_ALLREDUCE:	return w == W_ALLREDUCE;
	case MON_ALLGATHER:	return w == W_ALLGATHER;
	case MON_ALLTOALL:	return w == W_ALLTOALL;
	case MON_ALLGATHERV:	return w == W_ALLGATHERV;
	case MON_ALLTOALLV:	return w == W_ALLTOALLV;
	case MON_REDUCE_SCATTER: return w == W_REDUCESCATTER;
	case MON_BCAST:
	case MON_SCATTER:
	case MON_REDUCE:
	case MON_GATHER:
	case MON_SCATTERV:
	case MON_GATHERV:
		if (w != (e->op == MON_BCAST ? W_BCAST : e->op == MON_SCATTER ?
		    W_SCATTER : e->op == MON_REDUCE ? W_REDUCE : e->op ==
		    MON_GATHER ? W_GATHER : e->op == MON_SCATTERV ? W_SCATTERV :
		    W_GATHERV))
			return 0;
		return e->root != NULL && strcmp(in->root, e->root) == 0;
	case MON_SENDRECV:
	case MON_SENDRECV_REPLACE:
		if (w != (e->op == MON_SENDRECV ? W_SENDRECV : W_SENDRECV_REPLACE))
			return 0;
		if (e->rtype == NULL || strcmp(in->rtype, e->rtype) != 0 ||
		    in->rport != e->rport)
			return 0;
		break;
	case MON_WAIT:		return w == W_WAIT;
	case MON_TEST:		return w == W_TEST;
	case MON_WAITANY:	return w == W_WAITANY;
	case MON_WAITSOME:	return w == W_WAITSOME;
	case MON_PROBE:		if (w != W_PROBE) return 0; break;
	case MON_IPROBE:	if (w != W_IPROBE) return 0; break;
	case MON_PROBE_ANY:
	case MON_IPROBE_ANY:
		if (w != (e->op == MON_PROBE_ANY ? W_PROBE_ANY : W_IPROBE_ANY))
			return 0;
		return same_type(in->type, e->type);
	case MON_FINALIZE:
		return 0;
	}
	return e->type != NULL && strcmp(in->type, e->type) == 0 && in->port == e->port;
}

/* The port a probe (or an iprobe that found) e found: 1 and its type's
 * index and its index in *t and *port; 0 when e does not say (a trace of
 * before it did); -1 when it is none of the ports asked. */
static int
found_port(const struct mon *m, const struct mon_event *e, int *t, int *port)
{
	const char	*type = e->type;

	*port = e->port;
	if (e->op == MON_PROBE_ANY || e->op == MON_IPROBE_ANY) {
		if ((type = e->rtype) == NULL)
			return 0;
		*port = e->rport;
		if (e->type != NULL && strcmp(e->type, type) != 0)
			return -1;
	}
	for (*t = 0; type != NULL && *t < m->ntypes; (*t)++)
		if (strcmp(m->types[*t], type) == 0)
			break;
	if (type == NULL || *t == m->ntypes || *port < 1 ||
	    *port > m->nports[*t])
		return -1;
	return 1;
}

/* Configuration d, at the action 'in' that matches e, after it: where
 * the requests and the outcome lead.  0 when d's requests do not fit
 * (a wait for another request than the one its name holds), nor its
 * probed messages ('recv m' on another port than m's). */
static int
follow(const struct mon *m, const struct ins *in, const struct mon_event *e,
    long *d)
{
	long	mask = 0;
	int	i, k, port;

	switch (in->word) {
	case W_WAITALL:
		for (i = 0; i < m->nnames; i++)
			if (!m->probed[i])
				RQ(m, d, i) = RQSEQ(m, d, i) = 0;
		break;
	case W_WAIT:
	case W_TEST:
		/* A request complete already on this way is a null one (0)
		 * in the call, whose wait goes on at once and whose test
		 * finds it complete, as MPI's on MPI_REQUEST_NULL. */
		if (RQ(m, d, in->req) == 0) {
			if (e->req != 0 || (in->word == W_TEST && !e->flag))
				return 0;
			break;
		}
		if (e->req == 0 || RQ(m, d, in->req) != e->req)
			return 0;
		if (in->word == W_TEST && !e->flag) {
			d[0] = in->b;
			return 1;
		}
		RQ(m, d, in->req) = RQSEQ(m, d, in->req) = 0;
		break;
	case W_PROBE:
	case W_PROBE_ANY:
	case W_IPROBE:
	case W_IPROBE_ANY:
		/* An iprobe that found nothing names no message. */
		if ((in->word == W_IPROBE || in->word == W_IPROBE_ANY) &&
		    !e->flag) {
			if (in->req >= 0)
				PRTYPE(m, d, in->req) = PRPORT(m, d, in->req) = 0;
			d[0] = in->b;
			return 1;
		}
		/* The port found: one asked; a name's needs it. */
		if ((i = found_port(m, e, &k, &port)) < 0 ||
		    (i == 0 && in->req >= 0))
			return 0;
		if (in->req >= 0) {
			PRTYPE(m, d, in->req) = k + 1;
			PRPORT(m, d, in->req) = port;
		}
		break;
	case W_RECV_PROBED:
		/* Exactly the message found: a receive on its port. */
		k = (int)PRTYPE(m, d, in->req);
		if (k == 0 || e->type == NULL ||
		    strcmp(m->types[k - 1], e->type) != 0 ||
		    PRPORT(m, d, in->req) != e->port)
			return 0;
		PRTYPE(m, d, in->req) = PRPORT(m, d, in->req) = 0;
		break;
	case W_WAITANY:
		for (i = 0; i < in->non; i++)
			if (e->req != 0 && RQ(m, d, in->on[i]) == e->req) {
				RQ(m, d, in->on[i]) = RQSEQ(m, d, in->on[i]) = 0;
				d[0] = in->onpc[i];
				return 1;
			}
		return 0;
	case W_WAITSOME:
		for (k = 0; k < e->nreqs; k++) {
			for (i = 0; i < in->non; i++)
				if (!(mask >> i & 1) && e->reqs[k] != 0 &&
				    RQ(m, d, in->on[i]) == e->reqs[k])
					break;
			if (i == in->non)
				return 0;
			mask |= 1L << i;
		}
		if (mask == 0)
			return 0;
		d[1 + in->a] = mask;
		/* All are complete now, before any block runs: a 'wait' of
		 * one in an earlier block waits on a null request.  Their
		 * numbers among the posts stay, to order the blocks. */
		for (i = 0; i < in->non; i++)
			if (mask >> i & 1)
				RQ(m, d, in->on[i]) = 0;
		break;
	default:
		if (in->req >= 0 && ens_mon_is_post(e->op)) {
			RQ(m, d, in->req) = e->req != 0 ? e->req : MON_POSTING;
			RQSEQ(m, d, in->req) = m->f.nposts + 1;
		}
		break;
	}
	d[0]++;
	return 1;
}

/* Append s to the growing string *b (length *n); -1 out of memory. */
static int
cat(char **b, size_t *n, const char *s)
{
	size_t	l = strlen(s);
	char	*nb;

	if ((nb = realloc(*b, *n + l + 1)) == NULL)
		return -1;
	memcpy(nb + *n, s, l + 1);
	*b = nb;
	*n += l;
	return 0;
}

/* "'recv Client[2]' (f:1:2)" for an action, "'recv m' (the message
 * probed on In[3]) (f:1:2)" for a 'recv m' in configuration c: a new
 * string, NULL when memory ran out.  The location is a file name of any
 * length. */
static char *
describe(const struct mon *m, const struct ins *in, const long *c)
{
	const char	*loc = in->loc >= 0 && in->loc < m->nlocs &&
			    strcmp(m->locs[in->loc], "-") != 0 ? m->locs[in->loc] : NULL;
	char		 what[512], found[300], *s;
	size_t		 len, k;
	int		 i, n;

	found[0] = '\0';
	if (in->word == W_RECV_PROBED) {
		snprintf(what, sizeof(what), "recv %s", m->names[in->req]);
		if ((i = (int)PRTYPE(m, c, in->req)) > 0)
			snprintf(found, sizeof(found), " (the message probed on "
			    "%s[%ld])", m->types[i - 1], PRPORT(m, c, in->req));
		else
			snprintf(found, sizeof(found), " (no message probed)");
	} else if (in->word == W_SENDRECV || in->word == W_SENDRECV_REPLACE)
		snprintf(what, sizeof(what), "%s %s[%d], %s[%d]", stmt_words[in->word],
		    in->type, in->port, in->rtype, in->rport);
	else if (in->word == W_WAIT || in->word == W_TEST)
		snprintf(what, sizeof(what), "%s %s", stmt_words[in->word],
		    m->names[in->req]);
	else if (in->word == W_WAITANY || in->word == W_WAITSOME)
		for (n = snprintf(what, sizeof(what), "%s on", stmt_words[in->word]),
		    i = 0; i < in->non && n > 0 && (size_t)n < sizeof(what); i++)
			n += snprintf(what + n, sizeof(what) - (size_t)n, "%s %s",
			    i > 0 ? "," : "", m->names[in->on[i]]);
	else if (in->word == W_PROBE || in->word == W_IPROBE)
		snprintf(what, sizeof(what), "%s %s[%d]", stmt_words[in->word],
		    in->type, in->port);
	else if (in->word == W_PROBE_ANY || in->word == W_IPROBE_ANY)
		snprintf(what, sizeof(what), "%s%s%s", stmt_words[in->word],
		    in->type != NULL ? " " : "", in->type != NULL ? in->type : "");
	else if (stmt_word_rooted(in->word))
		snprintf(what, sizeof(what), "%s %s", stmt_words[in->word], in->root);
	else if (in->word >= W_WAITALL)
		snprintf(what, sizeof(what), "%s", stmt_words[in->word]);
	else if (in->word == W_RECV_ANY || in->word == W_IRECV_ANY)
		snprintf(what, sizeof(what), "%s%s%s", stmt_words[in->word],
		    in->type != NULL ? " " : "", in->type != NULL ? in->type : "");
	else
		snprintf(what, sizeof(what), "%s %s[%d]", stmt_words[in->word], in->type,
		    in->port);
	if (in->group != NULL && (k = strlen(what)) < sizeof(what))
		snprintf(what + k, sizeof(what) - k, " over %s", in->group);
	if (in->req >= 0 && in->word != W_WAIT && in->word != W_TEST &&
	    in->word != W_RECV_PROBED) {
		n = (int)strlen(what);
		snprintf(what + n, sizeof(what) - (size_t)n, " as %s",
		    m->names[in->req]);
	}
	len = strlen(what) + strlen(found) + (loc != NULL ? strlen(loc) + 5 :
	    0) + 3;
	if ((s = malloc(len)) == NULL)
		return NULL;
	if (loc != NULL)
		snprintf(s, len, "'%s'%s (%s)", what, found, loc);
	else
		snprintf(s, len, "'%s'%s", what, found);
	return s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The name a configuration gives request req, or NULL. */
static const char *
req_name(const struct mon *m, long req)
{
	int	i, k;

	for (i = 0; req != 0 && i < m->rd.n; i++)
		for (k = 0; k < m->nnames; k++)
			if (!m->probed[k] &&
			    RQ(m, m->rd.v + (size_t)i * CW(m), k) == req)
				return m->names[k];
	return NULL;
}

/* A call of the p2p_statement kinds as messages say it, into call. */
static void
p2p_call(const struct mon *m, const struct mon_event *e, char *call, size_t len)
{
	const char	*nm;
	size_t		 n;
	int		 k;

	switch (e->op) {
	case MON_SENDRECV:
	case MON_SENDRECV_REPLACE:
		snprintf(call, len, "%s %s[%d], %s[%d]", calls[e->op],
		    e->type ? e->type : "?", e->port, e->rtype ? e->rtype : "?",
		    e->rport);
		break;
	case MON_PROBE:
	case MON_IPROBE:
		snprintf(call, len, "%s %s[%d]", calls[e->op], e->type ? e->type :
		    "?", e->port);
		break;
	case MON_PROBE_ANY:
	case MON_IPROBE_ANY:
		snprintf(call, len, "%s%s%s", calls[e->op], e->type ? " " : "",
		    e->type ? e->type : "");
		break;
	case MON_WAITSOME:
		snprintf(call, len, "%s", calls[e->op]);
		for (k = 0; k < e->nreqs; k++)
			if ((nm = req_name(m, e->reqs[k])) != NULL &&
			    (n = strlen(call)) < len)
				snprintf(call + n, len - n, "%s %s", k > 0 ? "," : "",
				    nm);
		break;
	default:	/* wait, test, waitany: the request's name, if it has one */
		nm = req_name(m, e->req);
		snprintf(call, len, "%s%s%s", calls[e->op], nm ? " " : "",
		    nm ? nm : "");
		break;
	}
}

/* The message for a call the behaviour does not allow here. */
static char *
refusal(const struct mon *m, const struct mon_event *e)
{
	char	 call[512], *one, **list;
	char	*b = NULL;
	size_t	 n = 0;
	int	 i, k, nl = 0;

	if (e->op >= MON_SENDRECV && e->op < MON_FINALIZE)
		p2p_call(m, e, call, sizeof(call));
	else if (e->op == MON_FINALIZE || e->op == MON_WAITALL || e->op == MON_BARRIER ||
	    e->op == MON_ALLREDUCE || e->op == MON_ALLGATHER || e->op == MON_ALLTOALL ||
	    e->op == MON_ALLGATHERV || e->op == MON_ALLTOALLV ||
	    e->op == MON_REDUCE_SCATTER)
		snprintf(call, sizeof(call), "%s", calls[e->op]);
	else if (e->op == MON_BCAST || e->op == MON_SCATTER || e->op == MON_SCATTERV)
		snprintf(call, sizeof(call), "%s from %s", calls[e->op],
		    e->root ? e->root : "?");
	else if (e->op == MON_REDUCE || e->op == MON_GATHER || e->op == MON_GATHERV)
		snprintf(call, sizeof(call), "%s to %s", calls[e->op], e->root ? e->root : "?");
	else if (e->op == MON_RECV_ANY || e->op == MON_IRECV_ANY)
		snprintf(call, sizeof(call), "%s%s%s", calls[e->op], e->type ? " " : "",
		    e->type ? e->type : "");
	else
		snprintf(call, sizeof(call), "%s %s[%d]", calls[e->op],
		    e->type ? e->type : "?", e->port);
	if (ens_mon_is_coll(e->op) && e->group != NULL && (k = (int)strlen(call)) <
	    (int)sizeof(call))
		snprintf(call + k, sizeof(call) - (size_t)k, " over %s", e->group);
	if ((list = calloc((size_t)m->rd.n + 1, sizeof(*list))) == NULL)
		return NULL;
	for (i = 0; i < m->rd.n; i++) {
		const long	 *c = m->rd.v + (size_t)i * CW(m);
		const struct ins *in = &m->ins[c[0]];

		if (in->kind != I_ACT)
			continue;
		if ((one = describe(m, in, c)) == NULL)
			goto out;
		for (k = 0; k < nl && strcmp(list[k], one) != 0; k++)
			;
		if (k == nl)
			list[nl++] = one;
		else
			free(one);
	}
	qsort(list, (size_t)nl, sizeof(*list), cmp_str);
	if (cat(&b, &n, "'") || cat(&b, &n, call) || cat(&b, &n, "' but behaviour "))
		goto out;
	if (nl == 0 && cat(&b, &n, "has ended"))
		goto out;
	for (i = 0; i < nl; i++)
		if (cat(&b, &n, i == 0 ? "expects " : " or ") || cat(&b, &n, list[i]))
			goto out;
	for (i = 0; i < nl; i++)
		free(list[i]);
	free(list);
	return b;
out:
	for (i = 0; i < nl; i++)
		free(list[i]);
	free(list);
	free(b);
	return NULL;
}

/* Whether action 'in', whose call is e's (in->fop), takes e: its port
 * (by its type's index when e gives it), its root and its group. */
static inline int
fast_match(const struct mon *m, const struct ins *in,
    const struct mon_event *e)
{
	(void)m;
	if (in->word <= W_IRECV)
		return in->port == e->port && (e->ptype > 0 ?
		    e->ptype == in->tidx + 1 : e->type != NULL &&
		    strcmp(in->type, e->type) == 0);
	if (in->group != e->group && (in->group == NULL || e->group == NULL ||
	    strcmp(in->group, e->group) != 0))
		return 0;
	return in->root == NULL || (e->root != NULL &&
	    strcmp(in->root, e->root) == 0);
}

/* The statement of the action 'in' a step took, for ens_mon_where. */
static inline void
took(struct mon *m, const struct ins *in)
{
	if (m->f.where != NULL)
		*m->f.where = in->loc;
}

/* The inline step's view after a step: the one configuration, if one. */
static void
sync_fast(struct mon *m)
{
	m->f.c = !m->failed && m->rd.n == 1 ? m->rd.v : NULL;
}

static inline int step(struct mon *, const struct mon_event *, char **);

int
ens_mon_step(struct mon *m, const struct mon_event *e, char **msg)
{
	int	r = step(m, e, msg);

	sync_fast(m);
	return r;
}

static inline __attribute__((always_inline)) int
step(struct mon *m, const struct mon_event *e, char **msg)
{
	int		 w = CW(m), i, took_one = 0;
	long		 fast[MON_FAST_CW], *c;
	const struct ins *in;

	*msg = NULL;
	if (m->failed) {
		*msg = strdup("the behaviour was already left");
		return -1;
	}
	/* The precomputed automaton: one configuration, at an action that
	 * takes the call as it is (compile_fast).  Its step is a store of
	 * where it leads, and a loop's count when that is a loop's test. */
	if (m->rd.n == 1) {
		c = m->rd.v;
		in = &m->ins[c[0]];
		if (in->fop == (int)e->op && fast_match(m, in, e)) {
			if (ens_mon_is_post(e->op))
				m->f.nposts++;
			took(m, in);
			c[0] = in->next;
			if (m->ins[c[0]].kind == I_ACT)
				return 0;
			if (advance(m, c) == 0)
				return 0;
			return settle(m, c, 1, msg);
		}
	}
	/* One configuration that an action leaves one way (no choice
	 * before the next action): the step is a match, its outcome, and
	 * jumps and counted loops up to the next action, in place. */
	if (m->rd.n == 1 && w <= MON_FAST_CW && e->op != MON_FINALIZE &&
	    (in = &m->ins[m->rd.v[0]])->kind == I_ACT && matches(in, e)) {
		memcpy(fast, m->rd.v, sizeof(long) * (size_t)w);
		if (follow(m, in, e, fast)) {
			if (ens_mon_is_post(e->op))
				m->f.nposts++;
			took(m, in);
			if (advance(m, fast) == 0) {
				memcpy(m->rd.v, fast, sizeof(long) * (size_t)w);
				return 0;
			}
			return settle(m, fast, 1, msg);
		}
	}
	m->next.n = 0;
	for (i = 0; i < m->rd.n; i++) {
		c = m->rd.v + (size_t)i * w;
		in = &m->ins[c[0]];
		if (e->op == MON_FINALIZE ? in->kind == I_END :
		    in->kind == I_ACT && matches(in, e)) {
			if (room(m, &m->next) != 0) {
				m->failed = 1;
				return -1;
			}
			memcpy(m->next.v + (size_t)m->next.n * w, c,
			    sizeof(long) * (size_t)w);
			if (in->kind != I_ACT || follow(m, in, e,
			    m->next.v + (size_t)m->next.n * w)) {
				m->next.n++;
				if (!took_one && in->kind == I_ACT)
					took(m, in);
				took_one = 1;
			}
		}
	}
	if (m->next.n > 0 && ens_mon_is_post(e->op))
		m->f.nposts++;
	if (m->next.n == 0) {
		m->failed = 1;
		*msg = refusal(m, e);
		return -1;
	}
	return settle(m, m->next.v, m->next.n, msg);
}

/* The step's end: the n configurations after the action, followed to
 * the next actions (closure).  0, or -1 and *msg when too many. */
static int
settle(struct mon *m, const long *next, int n, char **msg)
{
	if (closure(m, next, n) != 0) {
		m->failed = 1;
		*msg = strdup("the behaviour has more than 4096 ways to go here");
		return -1;
	}
	return 0;
}

void
ens_mon_where(struct mon *m, int *where)
{
	m->f.where = where;
}

struct mon_fast *
ens_mon_fast_state(struct mon *m)
{
	return &m->f;
}
