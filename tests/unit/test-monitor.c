/* test-monitor.c -- the protocol monitor (runtime/monitor.c) on behaviours
 * as pcg_instantiate prints them: what it accepts, what it refuses, and
 * the exact messages.  TAP output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"

static int	n, failed;

/* The port types of the last monitor made, and whether the events give
 * a type by its index too (ens.c does; a trace's events do not): every
 * case runs both ways. */
static const char	*types_made[2];
static int		 by_index;
/* Whether each step tries the inline step first (monitor.h), as ens.c
 * does, and ens_mon_step when that is not it; the steps it took. */
static int		 inline_way;
static long		 inline_taken;

/* e's type's index + 1 among the monitor's types, when by_index. */
static void
index_type(struct mon_event *e)
{
	int	k;

	e->ptype = 0;
	for (k = 0; by_index && e->type != NULL && k < 2; k++)
		if (types_made[k] != NULL && strcmp(types_made[k], e->type) == 0)
			e->ptype = k + 1;
}

/* A step as ens.c takes it when inline_way: the inline step, else
 * ens_mon_step; else ens_mon_step alone. */
static int
take(struct mon *m, const struct mon_event *e, char **msg)
{
	int	k, tidx = -1;

	*msg = NULL;
	if (inline_way) {
		for (k = 0; e->type != NULL && k < 2; k++)
			if (types_made[k] != NULL && strcmp(types_made[k], e->type) == 0)
				tidx = k;
		if (ens_mon_fast(ens_mon_fast_state(m), e->op, tidx, e->port,
		    e->root, e->group) == 0) {
			inline_taken++;
			return 0;
		}
	}
	return ens_mon_step(m, e, msg);
}

static void
ok(int cond, const char *desc)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, desc);
	if (!cond)
		failed = 1;
}

/* The next number of a fixed pseudo-random sequence (the C standard's
 * example rand), the same on every machine. */
static unsigned
lcg(unsigned seed)
{
	return seed * 1103515245 + 12345;
}

/* A monitor for beh with the nlocs locations locs, and up to two port
 * types with their counts. */
static struct mon *
newv(const char *beh, int nlocs, const char *const *locs, const char *t1, int n1,
    const char *t2, int n2)
{
	const char	*types[2] = { t1, t2 };
	int		 np[2] = { n1, n2 };
	char		*cause = NULL;
	struct mon	*m;

	types_made[0] = t1;
	types_made[1] = t2;
	m = ens_mon_new(beh, nlocs, locs, t2 != NULL ? 2 : t1 != NULL ? 1 : 0, types, np,
	    &cause);
	if (m == NULL) {
		printf("# ens_mon_new: %s\n", cause != NULL ? cause : "(null)");
		free(cause);
	}
	return m;
}

/* newv with the locations written space-separated, for brevity here (the
 * monitor itself never splits them: a file name may hold spaces). */
static struct mon *
new2(const char *beh, const char *locs, const char *t1, int n1, const char *t2, int n2)
{
	char		*copy = strdup(locs), *w, *save = NULL;
	const char	*v[64];
	int		 nv = 0;
	struct mon	*m;

	for (w = strtok_r(copy, " ", &save); w != NULL && nv < 64;
	    w = strtok_r(NULL, " ", &save))
		v[nv++] = w;
	m = newv(beh, nv, v, t1, n1, t2, n2);
	free(copy);
	return m;
}

/* Step with a collective op over group (NULL: the application): 0/-1;
 * the message, if any, compared with want. */
static int
stepg(struct mon *m, enum mon_op op, const char *root, const char *group,
    const char *want)
{
	struct mon_event	 e;
	char			*msg = NULL;
	int			 r;

	memset(&e, 0, sizeof(e));
	e.op = op;
	e.root = root;
	e.group = group;
	r = take(m, &e, &msg);

	if (want != NULL && (msg == NULL || strcmp(msg, want) != 0)) {
		printf("# got:  %s\n# want: %s\n", msg != NULL ? msg : "(none)", want);
		r = 99;
	}
	free(msg);
	return r;
}

/* Step with op on T[k]: 0/-1; the message, if any, compared with want. */
static int
step(struct mon *m, enum mon_op op, const char *type, int port, const char *root,
    const char *want)
{
	struct mon_event	 e;
	char			*msg = NULL;
	int			 r;

	memset(&e, 0, sizeof(e));
	e.op = op;
	e.type = type;
	e.port = port;
	e.root = root;
	index_type(&e);
	r = take(m, &e, &msg);

	if (want != NULL && (msg == NULL || strcmp(msg, want) != 0)) {
		printf("# got:  %s\n# want: %s\n", msg != NULL ? msg : "(none)", want);
		r = 99;
	}
	free(msg);
	return r;
}

/* Step with an event e (its op and operands set by the caller): as step. */
static int
stepe(struct mon *m, const struct mon_event *e, const char *want)
{
	struct mon_event	 ev = *e;
	char			*msg = NULL;
	int			 r;

	index_type(&ev);
	r = take(m, &ev, &msg);

	if (want != NULL && (msg == NULL || strcmp(msg, want) != 0)) {
		printf("# got:  %s\n# want: %s\n", msg != NULL ? msg : "(none)", want);
		r = 99;
	}
	if (want == NULL && msg != NULL)
		printf("# refused: %s\n", msg);
	free(msg);
	return r;
}

/* Step with a call on request req (a post, wait, test or waitany), its
 * outcome flag. */
static int
stepq(struct mon *m, enum mon_op op, const char *type, int port, long req,
    int flag, const char *want)
{
	struct mon_event	e;

	memset(&e, 0, sizeof(e));
	e.op = op;
	e.type = type;
	e.port = port;
	e.req = req;
	e.flag = flag;
	return stepe(m, &e, want);
}

/* The statements of issue 26: sendrecv, named requests with wait, test,
 * waitany and waitsome, probe and iprobe. */
static void
p2p(void)
{
	struct mon_event e;
	struct mon	*m;
	char		*msg = NULL, *cause = NULL;
	long		 two[2];
	int		 good;

	/* sendrecv: one call of both ports; the replace form is its own. */
	m = new2("sendrecv Right[1], Left[1]; sendrecv replace Right[1], Left[1];",
	    "s:1:1 s:1:28", "Left", 1, "Right", 1);
	memset(&e, 0, sizeof(e));
	e.op = MON_SENDRECV;
	e.type = "Right";
	e.port = 1;
	e.rtype = "Left";
	e.rport = 1;
	ok(m != NULL && stepe(m, &e, NULL) == 0 && stepe(m, &e,
	    "'ens_sendrecv Right[1], Left[1]' but behaviour expects 'sendrecv "
	    "replace Right[1], Left[1]' (s:1:28)") == -1,
	    "sendrecv: one call; ens_sendrecv where the replace form is expected");
	ens_mon_free(m);
	m = new2("sendrecv Right[1], Left[1];", "s:1:1", "Left", 1, "Right", 1);
	e.type = "Left";
	e.rtype = "Right";
	ok(m != NULL && stepe(m, &e, "'ens_sendrecv Left[1], Right[1]' but "
	    "behaviour expects 'sendrecv Right[1], Left[1]' (s:1:1)") == -1,
	    "sendrecv: the ports the other way round are refused");
	ens_mon_free(m);
	m = new2("sendrecv replace Right[1], Left[1];", "s:1:1", "Left", 1,
	    "Right", 1);
	e.op = MON_SENDRECV_REPLACE;
	e.type = "Right";
	e.rtype = "Left";
	ok(m != NULL && stepe(m, &e, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "sendrecv replace: ens_sendrecv_replace, then the end");
	ens_mon_free(m);

	/* Named requests, live: the post says its request after the call
	 * (ens_mon_posted), and each wait is held to its name's. */
	m = new2("isend A[1] as r; irecv B[1] as s; wait r; wait s;",
	    "w:1:1 w:1:2 w:1:3 w:1:4", "A", 1, "B", 1);
	good = m != NULL && stepq(m, MON_ISEND, "A", 1, 0, 0, NULL) == 0;
	if (good)
		ens_mon_posted(m, 101);
	good = good && stepq(m, MON_IRECV, "B", 1, 0, 0, NULL) == 0;
	if (good)
		ens_mon_posted(m, 202);
	ok(good && stepq(m, MON_WAIT, NULL, 0, 202, 0,
	    "'ens_wait s' but behaviour expects 'wait r' (w:1:3)") == -1,
	    "wait: s's request where r's is expected, named");
	ens_mon_free(m);
	m = new2("isend A[1] as r; irecv B[1] as s; wait r; wait s;",
	    "w:1:1 w:1:2 w:1:3 w:1:4", "A", 1, "B", 1);
	good = m != NULL && stepq(m, MON_ISEND, "A", 1, 0, 0, NULL) == 0;
	if (good)
		ens_mon_posted(m, 101);
	good = good && stepq(m, MON_IRECV, "B", 1, 0, 0, NULL) == 0;
	if (good)
		ens_mon_posted(m, 202);
	ok(good && stepq(m, MON_WAIT, NULL, 0, 101, 0, NULL) == 0 &&
	    stepq(m, MON_WAIT, NULL, 0, 202, 0, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "wait r, wait s: each on its own request, then the end");
	ens_mon_free(m);

	/* A request never posted, and one waitall completed. */
	m = new2("isend A[1] as r; waitall; wait r;", "a:1:1 a:1:2 a:1:3", "A",
	    1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 5, 0, NULL) == 0 &&
	    stepq(m, MON_WAITALL, NULL, 0, 0, 0, NULL) == 0 &&
	    stepq(m, MON_WAIT, NULL, 0, 5, 0,
	    "'ens_wait' but behaviour expects 'wait r' (a:1:3)") == -1,
	    "wait: a request waitall completed is no longer r's");
	ens_mon_free(m);
	m = new2("isend A[1]; isend A[1] as r; wait r;", "a:1:1 a:1:2 a:1:3",
	    "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 5, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "A", 1, 6, 0, NULL) == 0 &&
	    stepq(m, MON_WAIT, NULL, 0, 5, 0,
	    "'ens_wait' but behaviour expects 'wait r' (a:1:3)") == -1,
	    "wait: the request of an unnamed isend is not r");
	ens_mon_free(m);

	/* test: the call's flag picks the branch. */
	m = new2("isend A[1] as r; loop 2 { test r { send B[1]; } else { recv B[1]; } }",
	    "t:1:1 t:1:2 t:1:3 t:1:4 t:1:5", "A", 1, "B", 1);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 9, 0, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 9, 0, NULL) == 0 &&
	    step(m, MON_SEND, "B", 1, NULL,
	    "'ens_send B[1]' but behaviour expects 'recv B[1]' (t:1:5)") == -1,
	    "test: false takes the else block");
	ens_mon_free(m);
	m = new2("isend A[1] as r; loop 2 { test r { send B[1]; } else { recv B[1]; } }",
	    "t:1:1 t:1:2 t:1:3 t:1:4 t:1:5", "A", 1, "B", 1);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 9, 0, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 9, 0, NULL) == 0 &&
	    step(m, MON_RECV, "B", 1, NULL, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 9, 1, NULL) == 0 &&
	    step(m, MON_SEND, "B", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "test: false, then true takes the first block; then the end");
	ens_mon_free(m);
	m = new2("isend A[1] as r; test r { } else { } test r { } else { }",
	    "t:1:1 t:1:2 t:1:3", "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 9, 0, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 9, 1, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 9, 0,
	    "'ens_test' but behaviour expects 'test r' (t:1:3)") == -1,
	    "test: a request a true test completed is r's no more");
	ens_mon_free(m);

	/* A wait or test of a request complete already (MPI_REQUEST_NULL in
	 * the call: number 0) goes on at once, the test into its first
	 * block, as the verifier's program does (test-behave found the
	 * monitor refusing them). */
	m = new2("isend A[1] as r; waitall; wait r; test r { send A[1]; } else { }",
	    "n:1:1 n:1:2 n:1:3 n:1:4 n:1:5", "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 5, 0, NULL) == 0 &&
	    stepq(m, MON_WAITALL, NULL, 0, 0, 0, NULL) == 0 &&
	    stepq(m, MON_WAIT, NULL, 0, 0, 0, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 0, 1, NULL) == 0 &&
	    step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "wait r, test r of an r waitall completed: on a null request, at once");
	ens_mon_free(m);
	m = new2("isend A[1] as r; test r { } else { } test r { send A[1]; } else { }",
	    "n:1:1 n:1:2 n:1:3 n:1:4", "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 5, 0, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 5, 1, NULL) == 0 &&
	    stepq(m, MON_TEST, NULL, 0, 0, 0,
	    "'ens_test' but behaviour expects 'test r' (n:1:3)") == -1,
	    "test of a null request: a false outcome is refused");
	ens_mon_free(m);
	m = new2("isend A[1] as r; wait r;", "n:1:1 n:1:2", "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 5, 0, NULL) == 0 &&
	    stepq(m, MON_WAIT, NULL, 0, 0, 0,
	    "'ens_wait' but behaviour expects 'wait r' (n:1:2)") == -1,
	    "wait: a null request where r is pending is refused");
	ens_mon_free(m);

	/* waitany: the branch of the request it completed. */
	m = new2("isend A[1] as r; irecv B[1] as s; waitany { on r { send A[1]; } "
	    "on s { recv B[1]; } } wait r;",
	    "y:1:1 y:1:2 y:1:3 y:1:4 y:1:5 y:1:6", "A", 1, "B", 1);
	memset(&e, 0, sizeof(e));
	e.op = MON_WAITANY;
	good = m != NULL && stepq(m, MON_ISEND, "A", 1, 0, 0, NULL) == 0;
	if (good)
		ens_mon_posted(m, 11);
	good = good && stepq(m, MON_IRECV, "B", 1, 22, 0, NULL) == 0 &&
	    ens_mon_expects(m, &e, &msg) == 0;
	ok(good && stepq(m, MON_WAITANY, NULL, 0, 22, 0, NULL) == 0 &&
	    step(m, MON_RECV, "B", 1, NULL, NULL) == 0 &&
	    stepq(m, MON_WAIT, NULL, 0, 11, 0, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "waitany: s completed, its branch, then wait r");
	ens_mon_free(m);
	m = new2("isend A[1] as r; send A[1]; waitany { on r { } }",
	    "y:1:1 y:1:2 y:1:3", "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 3, 0, NULL) == 0 &&
	    ens_mon_expects(m, &e, &msg) == -1 && msg != NULL && strcmp(msg,
	    "'ens_waitany' but behaviour expects 'send A[1]' (y:1:2)") == 0,
	    "waitany: refused before it waits, where a send is expected");
	free(msg);
	msg = NULL;
	ens_mon_free(m);
	m = new2("isend A[1] as r; isend A[1] as s; send B[1]; waitany { on r { } on s { } }",
	    "y:1:1 y:1:2 y:1:3 y:1:4", "A", 1, "B", 1);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 3, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "A", 1, 4, 0, NULL) == 0 &&
	    stepq(m, MON_WAITANY, NULL, 0, 4, 0, "'ens_waitany s' but behaviour "
	    "expects 'send B[1]' (y:1:3)") == -1,
	    "waitany: the request completed is named in the refusal");
	ens_mon_free(m);
	m = new2("isend A[1] as r; isend A[1] as s; waitany { on r { } }",
	    "y:1:1 y:1:2 y:1:3", "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 3, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "A", 1, 4, 0, NULL) == 0 &&
	    stepq(m, MON_WAITANY, NULL, 0, 4, 0, "'ens_waitany s' but behaviour "
	    "expects 'waitany on r' (y:1:3)") == -1,
	    "waitany: a request none of its branches names is refused");
	ens_mon_free(m);

	/* waitsome: every branch of what it completed, in the order the
	 * requests were posted, not the order of the branches. */
	m = new2("isend A[1] as r; isend B[1] as s; waitsome { on s { send B[1]; } "
	    "on r { send A[1]; } }",
	    "z:1:1 z:1:2 z:1:3 z:1:4 z:1:5", "A", 1, "B", 1);
	memset(&e, 0, sizeof(e));
	e.op = MON_WAITSOME;
	two[0] = 8;
	two[1] = 7;
	e.reqs = two;
	e.nreqs = 2;
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 7, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "B", 1, 8, 0, NULL) == 0 &&
	    stepe(m, &e, NULL) == 0 && step(m, MON_SEND, "B", 1, NULL,
	    "'ens_send B[1]' but behaviour expects 'send A[1]' (z:1:5)") == -1,
	    "waitsome: both completed, r's branch first (posted first)");
	ens_mon_free(m);
	m = new2("isend A[1] as r; isend B[1] as s; waitsome { on s { send B[1]; } "
	    "on r { send A[1]; } }",
	    "z:1:1 z:1:2 z:1:3 z:1:4 z:1:5", "A", 1, "B", 1);
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 7, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "B", 1, 8, 0, NULL) == 0 &&
	    stepe(m, &e, NULL) == 0 && step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "B", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "waitsome: both branches, then the end");
	ens_mon_free(m);
	m = new2("isend A[1] as r; isend B[1] as s; waitsome { on r { send A[1]; } "
	    "on s { send B[1]; } } wait s;",
	    "z:1:1 z:1:2 z:1:3 z:1:4 z:1:5 z:1:6", "A", 1, "B", 1);
	e.nreqs = 1;
	two[0] = 7;
	ok(m != NULL && stepq(m, MON_ISEND, "A", 1, 7, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "B", 1, 8, 0, NULL) == 0 &&
	    stepe(m, &e, NULL) == 0 && step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
	    stepq(m, MON_WAIT, NULL, 0, 8, 0, NULL) == 0,
	    "waitsome: one completed, its branch only; the other still pending");
	ens_mon_free(m);
	/* Both complete at the call: in the first block, 'wait s' waits on
	 * a null request (test-behave found the monitor holding s's number
	 * until s's own block). */
	m = new2("isend A[1] as r; isend B[1] as s; waitsome { on r { wait s; } "
	    "on s { } }", "z:1:1 z:1:2 z:1:3 z:1:4", "A", 1, "B", 1);
	e.nreqs = 2;
	two[0] = 8;
	two[1] = 7;
	good = m != NULL && stepq(m, MON_ISEND, "A", 1, 7, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "B", 1, 8, 0, NULL) == 0 && stepe(m, &e, NULL) == 0;
	ok(good && stepq(m, MON_WAIT, NULL, 0, 0, 0, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "waitsome: both completed, a wait of s in r's block is on a null request");
	ens_mon_free(m);
	m = new2("isend A[1] as r; isend B[1] as s; waitsome { on r { wait s; } "
	    "on s { } }", "z:1:1 z:1:2 z:1:3 z:1:4", "A", 1, "B", 1);
	good = m != NULL && stepq(m, MON_ISEND, "A", 1, 7, 0, NULL) == 0 &&
	    stepq(m, MON_ISEND, "B", 1, 8, 0, NULL) == 0 && stepe(m, &e, NULL) == 0;
	ok(good && stepq(m, MON_WAIT, NULL, 0, 8, 0,
	    "'ens_wait' but behaviour expects 'wait s' (z:1:4)") == -1,
	    "waitsome: both completed, s's old request is not s's any more");
	ens_mon_free(m);

	/* probe and iprobe. */
	m = new2("probe A[1]; recv A[1]; probe any; recv any; probe any B; "
	    "iprobe A[1] { recv A[1]; } else { send B[1]; } "
	    "iprobe any B { recv any B; } else { }",
	    "p:1:1 p:1:2 p:1:3 p:1:4 p:1:5 p:1:6 p:1:7 p:1:8 p:1:9 p:1:10",
	    "A", 1, "B", 1);
	ok(m != NULL && stepq(m, MON_PROBE, "A", 1, 0, 0, NULL) == 0 &&
	    step(m, MON_RECV, "A", 1, NULL, NULL) == 0 &&
	    stepq(m, MON_PROBE_ANY, NULL, 0, 0, 0, NULL) == 0 &&
	    step(m, MON_RECV_ANY, NULL, 0, NULL, NULL) == 0 &&
	    stepq(m, MON_PROBE_ANY, "B", 0, 0, 0, NULL) == 0 &&
	    stepq(m, MON_IPROBE, "A", 1, 0, 0, NULL) == 0 &&
	    step(m, MON_SEND, "B", 1, NULL, NULL) == 0 &&
	    stepq(m, MON_IPROBE_ANY, "B", 0, 0, 1, NULL) == 0 &&
	    step(m, MON_RECV_ANY, "B", 0, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "probe, probe any, iprobe (nothing: else), iprobe any (found)");
	ens_mon_free(m);
	m = new2("probe A[1];", "p:2:1", "A", 1, "B", 1);
	ok(m != NULL && stepq(m, MON_PROBE, "B", 1, 0, 0,
	    "'ens_probe B[1]' but behaviour expects 'probe A[1]' (p:2:1)") == -1,
	    "probe: another port is refused");
	ens_mon_free(m);
	m = new2("iprobe any { } else { }", "p:3:1", "A", 1, NULL, 0);
	ok(m != NULL && stepq(m, MON_IPROBE_ANY, "A", 0, 0, 1,
	    "'ens_iprobe_any A' but behaviour expects 'iprobe any' (p:3:1)") == -1,
	    "iprobe any: a type where any port is expected is refused");
	ens_mon_free(m);

	/* The text's errors. */
	ok(ens_mon_new("isend A[*] as r;", 0, NULL, 1, (const char *[]){ "A" },
	    (const int[]){ 2 }, &cause) == NULL && cause != NULL &&
	    strncmp(cause, "a request's name for no port or several", 39) == 0,
	    "'as' after a post on several ports is an error");
	free(cause);
	ok(ens_mon_new("waitany { }", 0, NULL, 1, (const char *[]){ "A" },
	    (const int[]){ 2 }, &cause) == NULL && cause != NULL &&
	    strncmp(cause, "expected 'on'", 13) == 0,
	    "a waitany of no branch is an error");
	free(cause);
	ok(ens_mon_new("test r { }", 0, NULL, 1, (const char *[]){ "A" },
	    (const int[]){ 2 }, &cause) == NULL && cause != NULL &&
	    strncmp(cause, "expected 'else'", 15) == 0,
	    "a test without its else is an error");
	free(cause);
}

/* Step with a probe of any port of type (NULL: of all) that found a
 * message on ftype[fport] (ftype NULL: the event does not say), or with
 * an iprobe of any that found one (iprobe 1, flag 1) or none (flag 0). */
static int
stepf(struct mon *m, int iprobe, const char *type, const char *ftype,
    int fport, int flag, const char *want)
{
	struct mon_event	e = { .op = iprobe ? MON_IPROBE_ANY : MON_PROBE_ANY,
				    .type = type, .rtype = ftype, .rport = fport,
				    .flag = flag };

	return stepe(m, &e, want);
}

/* 'probe ... as m' and 'recv m' (issue 34): the receive of exactly the
 * message found, on the port it was found on. */
static void
probed(void)
{
	struct mon	*m;
	char		*cause = NULL;
	int		 good, i;
	static const int	 found[] = { 3, 1, 2, 3 };
	static const struct {
		int		 probed;
		enum mon_op	 op;
		int		 port;
		const char	*want, *what;
	} refused[] = {
		{ 1, MON_RECV_ANY, 0, "'ens_recv_any In' but behaviour expects "
		  "'recv m' (the message probed on In[3]) (f:1:20)",
		  "recv m: ens_recv_any after the probe is refused, naming the "
		  "port" },
		{ 1, MON_RECV, 2, "'ens_recv In[2]' but behaviour expects 'recv m' "
		  "(the message probed on In[3]) (f:1:20)",
		  "recv m: ens_recv on another port than the one found is "
		  "refused" },
		{ 0, MON_RECV, 1, "'ens_recv In[1]' but behaviour expects 'probe "
		  "any In as m' (f:1:1)",
		  "probe any In as m: a receive before it is refused" },
	};

	/* The farm's collector: each 'recv m' takes the port its probe
	 * found, whichever it was. */
	m = new2("loop 4 { probe any In as m; recv m; }", "f:1:1 f:1:10 f:1:29",
	    "In", 3, NULL, 0);
	for (good = m != NULL, i = 0; good && i < 4; i++)
		good = stepf(m, 0, "In", "In", found[i], 1, NULL) == 0 &&
		    step(m, MON_RECV, "In", found[i], NULL, NULL) == 0;
	ok(good && step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "probe any In as m; recv m: ens_recv on the port found, 4 times");
	ens_mon_free(m);

	/* Receives refused, after the probe found In[3] (or before it). */
	for (i = 0; i < (int)(sizeof(refused) / sizeof(refused[0])); i++) {
		m = new2("probe any In as m; recv m;", "f:1:1 f:1:20", "In", 3,
		    NULL, 0);
		ok(m != NULL && (!refused[i].probed ||
		    stepf(m, 0, "In", "In", 3, 1, NULL) == 0) &&
		    step(m, refused[i].op, "In", refused[i].port, NULL,
		    refused[i].want) == -1, refused[i].what);
		ens_mon_free(m);
	}
	m = new2("probe any In as m; recv m;", "f:1:1 f:1:20", "In", 3, NULL, 0);
	ok(m != NULL && stepf(m, 0, "In", NULL, 0, 1,
	    "'ens_probe_any In' but behaviour expects 'probe any In as m' "
	    "(f:1:1)") == -1,
	    "probe any In as m: a probe that does not say the port it found "
	    "is refused");
	ens_mon_free(m);

	m = new2("probe any In as m; recv m;", "f:1:1 f:1:20", "In", 3, "Ctl", 1);
	ok(m != NULL && stepf(m, 0, "In", "Ctl", 1, 1,
	    "'ens_probe_any In' but behaviour expects 'probe any In as m' "
	    "(f:1:1)") == -1,
	    "probe any In: a port found of another type is refused");
	ens_mon_free(m);
	m = new2("probe any In as m; recv m;", "f:1:1 f:1:20", "In", 3, "Ctl", 1);
	ok(m != NULL && stepf(m, 0, "In", "In", 4, 1, NULL) == -1,
	    "probe any In: a port found past the type's last is refused");
	ens_mon_free(m);

	/* A probe of one port names it; a probe of any port of every type
	 * names the type too. */
	m = new2("probe In[2] as m; recv m; probe any as n; recv n;",
	    "g:1:1 g:1:2 g:1:3 g:1:4", "In", 2, "Ctl", 1);
	ok(m != NULL && step(m, MON_PROBE, "In", 2, NULL, NULL) == 0 &&
	    step(m, MON_RECV, "In", 2, NULL, NULL) == 0 &&
	    stepf(m, 0, NULL, "Ctl", 1, 1, NULL) == 0 &&
	    step(m, MON_RECV, "In", 1, NULL,
	    "'ens_recv In[1]' but behaviour expects 'recv n' (the message "
	    "probed on Ctl[1]) (g:1:4)") == -1,
	    "probe In[2] as m names In[2]; probe any as n names Ctl[1]");
	ens_mon_free(m);
	m = new2("probe any as n; recv n;", "g:1:3 g:1:4", "In", 2, "Ctl", 1);
	ok(m != NULL && stepf(m, 0, NULL, "Ctl", 1, 1, NULL) == 0 &&
	    step(m, MON_RECV, "Ctl", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "probe any as n; recv n: ens_recv Ctl[1]");
	ens_mon_free(m);

	/* An iprobe names what it found in its first block; one that found
	 * nothing names nothing. */
	m = new2("loop 2 { iprobe any Ctl as m { recv m; } else { send In[1]; } }",
	    "h:1:1 h:1:10 h:1:38 h:1:56", "In", 1, "Ctl", 2);
	ok(m != NULL && stepf(m, 1, "Ctl", NULL, 0, 0, NULL) == 0 &&
	    step(m, MON_SEND, "In", 1, NULL, NULL) == 0 &&
	    stepf(m, 1, "Ctl", "Ctl", 2, 1, NULL) == 0 &&
	    step(m, MON_RECV, "Ctl", 2, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "iprobe any Ctl as m: nothing, then found on Ctl[2] and received");
	ens_mon_free(m);
	m = new2("probe Ctl[1] as m; iprobe Ctl[2] as m { } else { } recv m;",
	    "h:2:1 h:2:20 h:2:50", "In", 1, "Ctl", 2);
	ok(m != NULL && step(m, MON_PROBE, "Ctl", 1, NULL, NULL) == 0 &&
	    stepq(m, MON_IPROBE, "Ctl", 2, 0, 0, NULL) == 0 &&
	    step(m, MON_RECV, "Ctl", 1, NULL,
	    "'ens_recv Ctl[1]' but behaviour expects 'recv m' (no message "
	    "probed) (h:2:50)") == -1,
	    "an iprobe that found nothing leaves m naming no message");
	ens_mon_free(m);

	/* Ways that bind m apart: each keeps its own port. */
	m = new2("choice { probe In[1] as m; } or { probe any Ctl as m; } "
	    "recv m;", "k:1:1 k:1:10 k:1:30 k:1:60", "In", 1, "Ctl", 2);
	ok(m != NULL && stepf(m, 0, "Ctl", "Ctl", 2, 1, NULL) == 0 &&
	    step(m, MON_RECV, "In", 1, NULL,
	    "'ens_recv In[1]' but behaviour expects 'recv m' (the message "
	    "probed on Ctl[2]) (k:1:60)") == -1,
	    "a choice of probes: the way taken names the port");
	ens_mon_free(m);

	/* The text's errors. */
	ok(ens_mon_new("probe any A as m; wait m;", 0, NULL, 1,
	    (const char *[]){ "A" }, (const int[]){ 2 }, &cause) == NULL &&
	    cause != NULL && strncmp(cause, "a name of a request and of a "
	    "probed message", 42) == 0,
	    "a name of a probed message and of a request is an error");
	free(cause);
	ok(ens_mon_new("probe A[1] as;", 0, NULL, 1, (const char *[]){ "A" },
	    (const int[]){ 2 }, &cause) == NULL && cause != NULL &&
	    strncmp(cause, "expected a probed message's name", 32) == 0,
	    "'as' without a name after a probe is an error");
	free(cause);
}

/* ens_mon_where: each step stores the index of the statement it took,
 * on the fast way and the general one (a choice, a request). */
static void
where(void)
{
	struct mon	*m;
	int		 at = -2, seen[8], k = 0, good;

	m = new2("loop 2 { send P[1]; choice { recv P[1]; } or { ssend P[1]; } "
	    "isend P[1] as r; wait r; }", "w:1 w:2 w:3 w:4 w:5 w:6 w:7",
	    "P", 1, NULL, 0);
	good = m != NULL;
	if (good)
		ens_mon_where(m, &at);
#define AT(call) do { if (good) { good = (call) == 0; seen[k++] = at; } } while (0)
	AT(step(m, MON_SEND, "P", 1, NULL, NULL));
	AT(step(m, MON_SSEND, "P", 1, NULL, NULL));
	AT(stepq(m, MON_ISEND, "P", 1, 7, 0, NULL));
	AT(stepq(m, MON_WAIT, NULL, 0, 7, 0, NULL));
	AT(step(m, MON_SEND, "P", 1, NULL, NULL));
	AT(step(m, MON_RECV, "P", 1, NULL, NULL));
#undef AT
	ok(good && k == 6 && seen[0] == 1 && seen[1] == 4 && seen[2] == 5 &&
	    seen[3] == 6 && seen[4] == 1 && seen[5] == 3,
	    "ens_mon_where: the statement of each call taken, by its index");
	ens_mon_free(m);
}

/* Where the inline step (monitor.h) and ens_mon_step meet: each case
 * stepped as ens.c steps, inline_way, with the steps the inline one took
 * counted, so that a case that left it all to ens_mon_step fails. */
static void
meets(void)
{
	struct mon	*m;
	long		 before;
	int		 i, good;

	inline_way = 1;
	/* A counted loop: the inline step goes round, ens_mon_step takes
	 * the last iteration's end, and the loop is left at its count. */
	before = inline_taken;
	m = new2("loop 3 { send P[1]; recv P[1]; } send Q[1];", "f:1 f:2 f:3 f:4",
	    "P", 1, "Q", 1);
	for (good = m != NULL, i = 0; good && i < 3; i++)
		good = step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "P", 1, NULL, NULL) == 0;
	ok(good && step(m, MON_SEND, "P", 1, NULL,
	    "'ens_send P[1]' but behaviour expects 'send Q[1]' (f:4)") == -1,
	    "inline: a counted loop's last iteration, then a fourth send refused");
	ok(inline_taken - before == 5, "inline: 5 of the loop's 6 steps inline "
	    "(the last leaves the loop through ens_mon_step)");
	ens_mon_free(m);
	m = new2("loop 3 { send P[1]; recv P[1]; } send Q[1];", "f:1 f:2 f:3 f:4",
	    "P", 1, "Q", 1);
	for (good = m != NULL, i = 0; good && i < 3; i++)
		good = step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "P", 1, NULL, NULL) == 0;
	ok(good && step(m, MON_SEND, "Q", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "inline: after the loop, the statement after it, then the end");
	ens_mon_free(m);
	/* A loop of 1 and a loop of 0. */
	m = new2("loop 1 { send P[1]; } loop 0 { recv P[1]; } recv Q[1];",
	    "f:1 f:2 f:3 f:4 f:5", "P", 1, "Q", 1);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_RECV, "P", 1, NULL,
	    "'ens_recv P[1]' but behaviour expects 'recv Q[1]' (f:5)") == -1,
	    "inline: a loop of 1 goes once, a loop of 0 not at all");
	ens_mon_free(m);
	m = new2("loop 1 { send P[1]; } recv Q[1];", "f:1 f:2 f:3", "P", 1, "Q", 1);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 1, NULL,
	    "'ens_send P[1]' but behaviour expects 'recv Q[1]' (f:3)") == -1,
	    "inline: a loop of 1 does not go round twice");
	ens_mon_free(m);
	/* Nested loops: 2 x 3 sends, then a receive. */
	before = inline_taken;
	m = new2("loop 2 { loop 3 { send P[1]; } recv P[1]; } send Q[1];",
	    "f:1 f:2 f:3 f:4 f:5", "P", 1, "Q", 1);
	for (good = m != NULL, i = 0; good && i < 2; i++)
		good = step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
		    step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
		    step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "P", 1, NULL, NULL) == 0;
	ok(good && inline_taken - before == 4,
	    "inline: nested loops, the inner's first two sends inline each time");
	ok(good && step(m, MON_RECV, "P", 1, NULL,
	    "'ens_recv P[1]' but behaviour expects 'send Q[1]' (f:5)") == -1,
	    "inline: nested loops left at their counts");
	ens_mon_free(m);
	m = new2("loop 2 { loop 3 { send P[1]; } recv P[1]; } send Q[1];",
	    "f:1 f:2 f:3 f:4 f:5", "P", 1, "Q", 1);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_RECV, "P", 1, NULL,
	    "'ens_recv P[1]' but behaviour expects 'send P[1]' (f:3)") == -1,
	    "inline: an inner loop left early is refused, its statement named");
	ens_mon_free(m);
	/* A choice after a loop: several configurations, ens_mon_step's. */
	m = new2("loop 2 { send P[1]; } choice { recv P[1]; } or { recv Q[1]; } "
	    "send Q[1];", "f:1 f:2 f:3 f:4 f:5 f:6", "P", 1, "Q", 1);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 1, NULL, "'ens_send P[1]' but behaviour "
	    "expects 'recv P[1]' (f:4) or 'recv Q[1]' (f:5)") == -1,
	    "inline: a choice after a loop, both ways named");
	ens_mon_free(m);
	m = new2("loop 2 { send P[1]; } choice { recv P[1]; } or { recv Q[1]; } "
	    "send Q[1];", "f:1 f:2 f:3 f:4 f:5 f:6", "P", 1, "Q", 1);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_RECV, "Q", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "Q", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "inline: a choice after a loop, its second way");
	ens_mon_free(m);
	/* Collectives and groups: the group and the root compared. */
	before = inline_taken;
	m = new2("loop { allreduce over rows[1]; bcast from m[1]; allreduce; }",
	    "f:1 f:2 f:3 f:4", NULL, 0, NULL, 0);
	for (good = m != NULL, i = 0; good && i < 3; i++)
		good = stepg(m, MON_ALLREDUCE, NULL, "rows[1]", NULL) == 0 &&
		    stepg(m, MON_BCAST, "m[1]", NULL, NULL) == 0 &&
		    stepg(m, MON_ALLREDUCE, NULL, NULL, NULL) == 0;
	ok(good && inline_taken - before == 9,
	    "inline: a loop for ever of collectives over a group and the "
	    "application, all inline");
	ok(good && stepg(m, MON_ALLREDUCE, NULL, "rows[2]",
	    "'ens_allreduce over rows[2]' but behaviour expects 'allreduce "
	    "over rows[1]' (f:2)") == -1, "inline: another group refused");
	ens_mon_free(m);
	m = new2("loop 2 { bcast from m[1] over g; } barrier;", "f:1 f:2 f:3",
	    NULL, 0, NULL, 0);
	ok(m != NULL && stepg(m, MON_BCAST, "m[1]", "g", NULL) == 0 &&
	    stepg(m, MON_BCAST, "m[2]", "g", "'ens_bcast from m[2] over g' but "
	    "behaviour expects 'bcast from m[1] over g' (f:2)") == -1,
	    "inline: another root refused");
	ens_mon_free(m);
	m = new2("loop 2 { bcast from m[1] over g; } barrier;", "f:1 f:2 f:3",
	    NULL, 0, NULL, 0);
	ok(m != NULL && stepg(m, MON_BCAST, "m[1]", "g", NULL) == 0 &&
	    stepg(m, MON_BCAST, "m[1]", NULL, "'ens_bcast from m[1]' but "
	    "behaviour expects 'bcast from m[1] over g' (f:2)") == -1,
	    "inline: the application where the behaviour says a group");
	ens_mon_free(m);
	m = new2("loop 2 { bcast from m[1] over g; } barrier;", "f:1 f:2 f:3",
	    NULL, 0, NULL, 0);
	ok(m != NULL && stepg(m, MON_BCAST, "m[1]", "g", NULL) == 0 &&
	    stepg(m, MON_BCAST, "m[1]", "g", NULL) == 0 &&
	    stepg(m, MON_BARRIER, NULL, NULL, NULL) == 0 &&
	    stepg(m, MON_FINALIZE, NULL, NULL, NULL) == 0,
	    "inline: a rooted collective over a group twice, then a barrier");
	ens_mon_free(m);
	/* The wrong port, the wrong type, a send mode the statement does
	 * not take inline (ssend for 'send': ens_mon_step's). */
	m = new2("loop { send P[1]; }", "f:1 f:2", "P", 2, "Q", 1);
	ok(m != NULL && step(m, MON_SSEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 2, NULL, "'ens_send P[2]' but behaviour "
	    "expects 'send P[1]' (f:2)") == -1,
	    "inline: ssend for send through ens_mon_step; another port refused");
	ens_mon_free(m);
	m = new2("loop { send P[1]; }", "f:1 f:2", "P", 1, "Q", 1);
	ok(m != NULL && step(m, MON_SEND, "Q", 1, NULL, "'ens_send Q[1]' but "
	    "behaviour expects 'send P[1]' (f:2)") == -1,
	    "inline: another port type refused");
	ens_mon_free(m);
	inline_way = 0;
}

/* same_ways' calls. */
struct ev {
	enum mon_op	 op;
	const char	*type;
	int		 port;
	const char	*root, *group;
};
static const struct ev evs[] = { { MON_SEND, "A", 1, NULL, NULL },
    { MON_RECV, "A", 2, NULL, NULL }, { MON_SSEND, "B", 1, NULL, NULL },
    { MON_SEND, "B", 1, NULL, NULL }, { MON_ALLREDUCE, NULL, 0, NULL, NULL },
    { MON_ALLREDUCE, NULL, 0, NULL, "g" }, { MON_BCAST, NULL, 0, "m[1]", NULL },
    { MON_ISEND, "A", 1, NULL, NULL }, { MON_WAITALL, NULL, 0, NULL, NULL },
    { MON_WAIT, NULL, 0, NULL, NULL }, { MON_FINALIZE, NULL, 0, NULL, NULL } };
#define NEVS	((int)(sizeof(evs) / sizeof(*evs)))

/* Call x, the nth (from 1), on m, inline first or not: as take.  Each
 * isend posts request 100 + nth, each wait waits for the last posted
 * (*last, m's). */
static int
call(struct mon *m, const struct ev *x, int nth, int inl, long *last, char **msg)
{
	struct mon_event	 e;
	int			 r;

	memset(&e, 0, sizeof(e));
	e.op = x->op;
	e.type = x->type;
	e.port = x->port;
	e.root = x->root;
	e.group = x->group;
	e.req = e.op == MON_WAIT ? *last : 0;
	inline_way = inl;
	r = take(m, &e, msg);
	inline_way = 0;
	if (r == 0 && e.op == MON_ISEND)
		ens_mon_posted(m, *last = 100 + nth);
	return r;
}

/* Whether behaviour text takes the nh calls of hist and then x: 0 yes. */
static int
replay(const char *text, const struct ev *const *hist, int nh, const struct ev *x)
{
	struct mon	*m = newv(text, 0, NULL, "A", 2, "B", 1);
	char		*msg;
	long		 last = 0;
	int		 i, r = m == NULL ? -1 : 0;

	for (i = 0; r == 0 && i <= nh; i++) {
		r = call(m, i < nh ? hist[i] : x, i + 1, 0, &last, &msg);
		free(msg);
	}
	ens_mon_free(m);
	return r;
}

/* The monitor stepped as ens.c steps it (inline_way) against
 * ens_mon_step alone, on random behaviours of loops, choices,
 * collectives and requests and random calls: each step the same
 * verdict, message and statement (ens_mon_where). */
static void
same_ways(void)
{
	static const char *const stmts[] = { "send A[1];", "recv A[2];",
	    "ssend B[1];", "allreduce;", "allreduce over g;",
	    "bcast from m[1];", "isend A[1];", "waitall;",
	    "isend A[1] as r; wait r;" };
	const struct ev	*hist[24];
	const char	*locs[40];
	char		 text[2048], lbuf[40][8], *ma, *mb;
	unsigned	 seed = 2026;
	long		 before = inline_taken, steps = 0, la, lb;
	int		 i, j, k, t, nh, depth, ra, rb, wa, wb, good = 1, open;
	struct mon	*a, *b;

	for (i = 0; i < 40; i++) {
		snprintf(lbuf[i], sizeof(lbuf[i]), "s:%d", i + 1);
		locs[i] = lbuf[i];
	}
	for (i = 0; i < 300 && good; i++) {
		/* A behaviour: statements, loops of 0 to 3 or for ever,
		 * choices of two, nested up to 3 deep. */
		text[0] = '\0';
		for (open = 0, k = 0; k < 3 + (int)(seed % 10); k++) {
			seed = lcg(seed);
			j = (int)((seed >> 16) % 12);
			if (j < 9 || open == 3 || strlen(text) > 1800)
				strcat(text, stmts[(seed >> 8) % 9]);
			else if (j < 11) {
				strcat(text, j == 9 ? "loop " : "loop 2 ");
				if (j == 9)
					strcat(text, (seed >> 4) % 2 ? "3 " : (seed >> 5)
					    % 3 ? "1 " : (seed >> 6) % 2 ? "0 " : "");
				strcat(text, "{ ");
				open++;
				continue;
			} else {
				strcat(text, "choice { send A[1]; } or { ");
				open++;
				continue;
			}
			strcat(text, " ");
			if (open > 0 && (seed >> 12) % 3 == 0) {
				strcat(text, "} ");
				open--;
			}
		}
		while (open-- > 0)
			strcat(text, "} ");
		a = newv(text, 40, locs, "A", 2, "B", 1);
		b = newv(text, 40, locs, "A", 2, "B", 1);
		if (a == NULL || b == NULL) {
			printf("# not parsed: %s\n", text);
			good = 0;
			ens_mon_free(a);
			ens_mon_free(b);
			break;
		}
		wa = wb = -2;
		ens_mon_where(a, &wa);
		ens_mon_where(b, &wb);
		/* Calls the behaviour takes, found by trying each on a copy
		 * (a fresh monitor given the calls so far), from a random
		 * one on; and at the end, or when none is taken, one at
		 * random. */
		for (la = lb = 0, nh = 0, depth = 0; depth < 24 && good; depth++) {
			seed = lcg(seed);
			j = (int)((seed >> 16) % NEVS);
			for (t = 0; depth < 23 && t < NEVS; t++) {
				if (replay(text, hist, nh, &evs[(j + t) % NEVS]) == 0)
					break;
			}
			if (depth < 23 && t < NEVS)
				j = (j + t) % NEVS;
			hist[nh++] = &evs[j];
			ra = call(a, &evs[j], nh, 0, &la, &ma);
			rb = call(b, &evs[j], nh, 1, &lb, &mb);
			steps++;
			if (ra != rb || wa != wb || (ma == NULL) != (mb == NULL) ||
			    (ma != NULL && strcmp(ma, mb) != 0)) {
				printf("# %s\n# step %d: %d '%s' (at %d) against %d "
				    "'%s' (at %d)\n", text, depth, ra, ma ? ma : "",
				    wa, rb, mb ? mb : "", wb);
				good = 0;
			}
			free(ma);
			free(mb);
			if (ra != 0)
				break;
		}
		ens_mon_free(a);
		ens_mon_free(b);
	}
	inline_way = 0;
	printf("# %ld steps, %ld inline\n", steps, inline_taken - before);
	ok(good && inline_taken - before > 300,
	    "random behaviours: the inline step and ens_mon_step, the same "
	    "verdicts, messages and statements");
}

/* Every case, with the events' types by name or (by_index) by index
 * too. */
static void
cases(void)
{
	struct mon	*m;
	char		*cause = NULL;
	int		 i, good;

	/* The relay of dmax: [*] expands to every port, in order. */
	m = new2("recv Client[*]; send Prop[*]; recv Prop[*]; send Client[*];",
	    "d.pcg:1:1 d.pcg:1:2 d.pcg:1:3 d.pcg:1:4", "Client", 2, "Prop", 1);
	good = m != NULL && step(m, MON_RECV, "Client", 1, NULL, NULL) == 0 &&
	    step(m, MON_RECV, "Client", 2, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "Prop", 1, NULL, NULL) == 0 &&
	    step(m, MON_RECV, "Prop", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "Client", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "Client", 2, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0;
	ok(good, "relay: [*] over 2 Client ports and 1 Prop port, then finalize");
	ens_mon_free(m);

	m = new2("recv Client[*]; send Prop[*]; recv Prop[*]; send Client[*];",
	    "dmax.pcg:36:16 dmax.pcg:36:32 dmax.pcg:36:47 dmax.pcg:36:63",
	    "Client", 2, "Prop", 2);
	ok(m != NULL && step(m, MON_RECV, "Client", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "Prop", 1, NULL,
	    "'ens_send Prop[1]' but behaviour expects 'recv Client[2]' (dmax.pcg:36:16)") == -1,
	    "relay: a send too early names the receive expected, with its location");
	ok(m != NULL && step(m, MON_RECV, "Client", 2, NULL,
	    "the behaviour was already left") == -1, "a monitor that refused stays refused");
	ens_mon_free(m);

	/* The ring: loop 3. */
	m = new2("loop 3 { send Right[1]; recv Left[1]; }", "r:1:1 r:1:10 r:1:25",
	    "Left", 1, "Right", 1);
	for (good = m != NULL, i = 0; good && i < 3; i++)
		good = step(m, MON_SEND, "Right", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "Left", 1, NULL, NULL) == 0;
	ok(good, "ring: three rounds");
	ok(good && step(m, MON_SEND, "Right", 1, NULL,
	    "'ens_send Right[1]' but behaviour has ended") == -1,
	    "ring: a fourth send: the behaviour has ended");
	ens_mon_free(m);
	m = new2("loop 3 { send Right[1]; recv Left[1]; }", "r:1:1 r:1:10 r:1:25",
	    "Left", 1, "Right", 1);
	ok(m != NULL && step(m, MON_SEND, "Right", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL,
	    "'ens_finalize' but behaviour expects 'recv Left[1]' (r:1:25)") == -1,
	    "ring: finalize too early");
	ens_mon_free(m);

	/* Locations are whole strings: a file name with spaces, quotes and
	 * a colon is named as it is, each statement its own ('loop' has one
	 * too, the second). */
	{
		static const char *const locs[] = { "my dir/a b.pcg:3:5", "l p.pcg:1:1",
		    "it's \"x\"/c: d.pcg:7:9", "-" };
		static const char beh[] = "send A[1]; loop 2 { recv B[1]; } send A[1];";

		m = newv(beh, 4, locs, "A", 1, "B", 1);
		ok(m != NULL && step(m, MON_RECV, "B", 1, NULL,
		    "'ens_recv B[1]' but behaviour expects 'send A[1]' (my dir/a b.pcg:3:5)") == -1,
		    "a location with spaces: named whole");
		ens_mon_free(m);
		m = newv(beh, 4, locs, "A", 1, "B", 1);
		ok(m != NULL && step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
		    step(m, MON_SEND, "A", 1, NULL,
		    "'ens_send A[1]' but behaviour expects 'recv B[1]' (it's \"x\"/c: d.pcg:7:9)") == -1,
		    "a location with a quote, a colon and a space: the third statement's");
		ens_mon_free(m);
		m = newv(beh, 4, locs, "A", 1, "B", 1);
		ok(m != NULL && step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "B", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "B", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "B", 1, NULL,
		    "'ens_recv B[1]' but behaviour expects 'send A[1]'") == -1,
		    "a statement whose location is '-': none named");
		ens_mon_free(m);
	}

	/* Modes: send takes every send; ssend only ssend. */
	m = new2("send P[1]; send P[1]; send P[1]; ssend P[1];", "", "P", 1, NULL, 0);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SSEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_BSEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 1, NULL,
	    "'ens_send P[1]' but behaviour expects 'ssend P[1]'") == -1,
	    "send accepts ens_send, ens_ssend, ens_bsend; ssend only ens_ssend");
	ens_mon_free(m);

	/* Choice: either branch; the refusal lists both, sorted. */
	m = new2("choice { send A[1]; } or { recv B[1]; } send A[1];",
	    "c:1:1 c:1:10 c:1:30 c:1:42", "A", 1, "B", 1);
	ok(m != NULL && step(m, MON_RECV, "B", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0, "choice: the second branch");
	ens_mon_free(m);
	m = new2("choice { send A[1]; } or { recv B[1]; } send A[1];",
	    "c:1:1 c:1:10 c:1:30 c:1:42", "A", 1, "B", 1);
	ok(m != NULL && step(m, MON_RECV, "A", 1, NULL,
	    "'ens_recv A[1]' but behaviour expects 'recv B[1]' (c:1:30) or 'send A[1]' (c:1:10)") == -1,
	    "choice: the refusal lists both branches");
	ens_mon_free(m);

	/* Nested counted loops: 2 x 3 sends, no more, no less. */
	m = new2("loop 2 { loop 3 { send A[1]; } recv A[1]; }", "", "A", 1, NULL, 0);
	for (good = m != NULL, i = 0; good && i < 2; i++)
		good = step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
		    step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
		    step(m, MON_SEND, "A", 1, NULL, NULL) == 0 &&
		    step(m, MON_RECV, "A", 1, NULL, NULL) == 0;
	ok(good && step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0, "nested loops 2 x 3");
	ens_mon_free(m);

	/* A loop forever never ends; an empty one neither, without hanging. */
	m = new2("loop { recv A[1]; }", "", "A", 1, NULL, 0);
	ok(m != NULL && step(m, MON_RECV, "A", 1, NULL, NULL) == 0 &&
	    step(m, MON_RECV, "A", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL,
	    "'ens_finalize' but behaviour expects 'recv A[1]'") == -1,
	    "loop forever: finalize refused");
	ens_mon_free(m);
	m = new2("loop { }", "", NULL, 0, NULL, 0);
	ok(m != NULL && step(m, MON_FINALIZE, NULL, 0, NULL,
	    "'ens_finalize' but behaviour has ended") == -1,
	    "an empty loop forever: nothing matches, and no hang");
	ens_mon_free(m);
	m = new2("loop 0 { send A[1]; } recv A[1];", "", "A", 1, NULL, 0);
	ok(m != NULL && step(m, MON_RECV, "A", 1, NULL, NULL) == 0, "loop 0 is skipped");
	ens_mon_free(m);

	/* recv any T against recv any; rooted collectives by root. */
	m = new2("recv any W; recv any; bcast from master; reduce to w[2]; barrier; "
	    "allreduce; waitall;", "", "W", 2, NULL, 0);
	ok(m != NULL && step(m, MON_RECV_ANY, "W", 0, NULL, NULL) == 0 &&
	    step(m, MON_RECV_ANY, "W", 0, NULL,
	    "'ens_recv_any W' but behaviour expects 'recv any'") == -1,
	    "recv any W is not recv any");
	ens_mon_free(m);
	m = new2("recv any W; recv any; bcast from master; reduce to w[2]; barrier; "
	    "allreduce; waitall;", "", "W", 2, NULL, 0);
	ok(m != NULL && step(m, MON_RECV_ANY, "W", 0, NULL, NULL) == 0 &&
	    step(m, MON_RECV_ANY, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_BCAST, NULL, 0, "master", NULL) == 0 &&
	    step(m, MON_REDUCE, NULL, 0, "w[1]",
	    "'ens_reduce to w[1]' but behaviour expects 'reduce to w[2]'") == -1,
	    "a rooted collective with another root is refused");
	ens_mon_free(m);

	/* Non-blocking modes as the blocking ones: isend takes every
	 * non-blocking send; issend and ibsend only their own. */
	m = new2("isend P[1]; isend P[1]; isend P[1]; issend P[1]; ibsend P[1];"
	    " issend P[1];", "i:1:1 i:1:2 i:1:3 i:1:4 i:1:5 i:1:6", "P", 1, NULL, 0);
	ok(m != NULL && step(m, MON_ISEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_ISSEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_IBSEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_ISSEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_IBSEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_ISEND, "P", 1, NULL,
	    "'ens_isend P[1]' but behaviour expects 'issend P[1]' (i:1:6)") == -1,
	    "isend accepts ens_isend, ens_issend, ens_ibsend; issend and ibsend"
	    " only their own");
	ens_mon_free(m);
	m = new2("ibsend P[1];", "i:2:1", "P", 1, NULL, 0);
	ok(m != NULL && step(m, MON_ISSEND, "P", 1, NULL,
	    "'ens_issend P[1]' but behaviour expects 'ibsend P[1]' (i:2:1)") == -1,
	    "ibsend refuses ens_issend");
	ens_mon_free(m);
	m = new2("isend P[2];", "i:3:1", "P", 2, NULL, 0);
	ok(m != NULL && step(m, MON_IBSEND, "P", 1, NULL,
	    "'ens_ibsend P[1]' but behaviour expects 'isend P[2]' (i:3:1)") == -1,
	    "ens_ibsend on another port than the isend's is refused");
	ens_mon_free(m);

	/* irecv any T and irecv any: ens_irecv_any by type, not the
	 * blocking ens_recv_any. */
	m = new2("irecv any W; irecv any; waitall;", "a:1:1 a:1:14 a:1:25", "W", 2,
	    NULL, 0);
	ok(m != NULL && step(m, MON_IRECV_ANY, "W", 0, NULL, NULL) == 0 &&
	    step(m, MON_IRECV_ANY, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_WAITALL, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "irecv any W, irecv any, waitall");
	ens_mon_free(m);
	m = new2("irecv any W; irecv any; waitall;", "a:1:1 a:1:14 a:1:25", "W", 2,
	    NULL, 0);
	ok(m != NULL && step(m, MON_RECV_ANY, "W", 0, NULL,
	    "'ens_recv_any W' but behaviour expects 'irecv any W' (a:1:1)") == -1,
	    "irecv any W refuses the blocking ens_recv_any W");
	ens_mon_free(m);
	m = new2("irecv any W; irecv any; waitall;", "a:1:1 a:1:14 a:1:25", "W", 2,
	    NULL, 0);
	ok(m != NULL && step(m, MON_IRECV_ANY, "W", 0, NULL, NULL) == 0 &&
	    step(m, MON_IRECV_ANY, "W", 0, NULL,
	    "'ens_irecv_any W' but behaviour expects 'irecv any' (a:1:14)") == -1,
	    "irecv any refuses ens_irecv_any W");
	ens_mon_free(m);
	m = new2("recv any;", "a:2:1", "W", 2, NULL, 0);
	ok(m != NULL && step(m, MON_IRECV_ANY, NULL, 0, NULL,
	    "'ens_irecv_any' but behaviour expects 'recv any' (a:2:1)") == -1,
	    "recv any refuses ens_irecv_any");
	ens_mon_free(m);

	/* scatter by root, alltoall. */
	m = new2("scatter from hub; alltoall; gather to hub; allgather;",
	    "s:1:1 s:1:19 s:1:29 s:1:44", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_SCATTER, NULL, 0, "hub", NULL) == 0 &&
	    step(m, MON_ALLTOALL, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_GATHER, NULL, 0, "hub", NULL) == 0 &&
	    step(m, MON_ALLGATHER, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "scatter from hub, alltoall, gather to hub, allgather");
	ens_mon_free(m);
	m = new2("scatter from hub; alltoall;", "s:1:1 s:1:19", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_SCATTER, NULL, 0, "w[1]",
	    "'ens_scatter from w[1]' but behaviour expects 'scatter from hub' (s:1:1)")
	    == -1, "scatter from another root is refused");
	ens_mon_free(m);
	m = new2("scatter from hub; alltoall;", "s:1:1 s:1:19", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_BCAST, NULL, 0, "hub",
	    "'ens_bcast from hub' but behaviour expects 'scatter from hub' (s:1:1)")
	    == -1, "scatter is not bcast");
	ens_mon_free(m);
	m = new2("scatter from hub; alltoall;", "s:1:1 s:1:19", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_SCATTER, NULL, 0, "hub", NULL) == 0 &&
	    step(m, MON_ALLGATHER, NULL, 0, NULL,
	    "'ens_allgather' but behaviour expects 'alltoall' (s:1:19)") == -1,
	    "alltoall is not allgather");
	ens_mon_free(m);
	m = new2("allgather;", "s:2:1", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_ALLTOALL, NULL, 0, NULL,
	    "'ens_alltoall' but behaviour expects 'allgather' (s:2:1)") == -1,
	    "allgather is not alltoall");
	ens_mon_free(m);

	/* The v-forms: each its own call, never its plain form. */
	m = new2("allgatherv; scatterv from hub; alltoallv; reducescatter; "
	    "gatherv to w[1];", "v:1:1 v:1:13 v:1:32 v:1:43 v:1:58", "W", 1, NULL,
	    0);
	ok(m != NULL && step(m, MON_ALLGATHERV, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_SCATTERV, NULL, 0, "hub", NULL) == 0 &&
	    step(m, MON_ALLTOALLV, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_REDUCE_SCATTER, NULL, 0, NULL, NULL) == 0 &&
	    step(m, MON_GATHERV, NULL, 0, "w[1]", NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "allgatherv, scatterv from hub, alltoallv, reducescatter, gatherv to w[1]");
	ens_mon_free(m);
	m = new2("gatherv to hub;", "v:2:1", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_GATHER, NULL, 0, "hub",
	    "'ens_gather to hub' but behaviour expects 'gatherv to hub' (v:2:1)")
	    == -1, "gatherv is not gather");
	ens_mon_free(m);
	m = new2("scatter from hub;", "v:3:1", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_SCATTERV, NULL, 0, "hub",
	    "'ens_scatterv from hub' but behaviour expects 'scatter from hub' (v:3:1)")
	    == -1, "scatter is not scatterv");
	ens_mon_free(m);
	m = new2("allreduce;", "v:4:1", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_REDUCE_SCATTER, NULL, 0, NULL,
	    "'ens_reduce_scatter' but behaviour expects 'allreduce' (v:4:1)") == -1,
	    "allreduce is not reducescatter");
	ens_mon_free(m);
	m = new2("alltoallv;", "v:5:1", "W", 1, NULL, 0);
	ok(m != NULL && step(m, MON_ALLGATHERV, NULL, 0, NULL,
	    "'ens_allgatherv' but behaviour expects 'alltoallv' (v:5:1)") == -1,
	    "alltoallv is not allgatherv");
	ens_mon_free(m);

	/* Collectives over groups: each matches only over its own group. */
	m = new2("allreduce over rows[2]; bcast from cell[1] over cols[1];"
	    " barrier; gatherv to w[1] over w; reducescatter over all;",
	    "g:1:1 g:1:2 g:1:3 g:1:4 g:1:5", "W", 1, NULL, 0);
	ok(m != NULL && stepg(m, MON_ALLREDUCE, NULL, "rows[2]", NULL) == 0 &&
	    stepg(m, MON_BCAST, "cell[1]", "cols[1]", NULL) == 0 &&
	    stepg(m, MON_BARRIER, NULL, NULL, NULL) == 0 &&
	    stepg(m, MON_GATHERV, "w[1]", "w", NULL) == 0 &&
	    stepg(m, MON_REDUCE_SCATTER, NULL, "all", NULL) == 0 &&
	    stepg(m, MON_FINALIZE, NULL, NULL, NULL) == 0,
	    "collectives over groups, and one over the application, in order");
	ens_mon_free(m);
	m = new2("allreduce over rows[2];", "g:2:1", "W", 1, NULL, 0);
	ok(m != NULL && stepg(m, MON_ALLREDUCE, NULL, "rows[1]",
	    "'ens_allreduce over rows[1]' but behaviour expects 'allreduce over"
	    " rows[2]' (g:2:1)") == -1, "over another group: both named");
	ens_mon_free(m);
	m = new2("allreduce over rows[2];", "g:3:1", "W", 1, NULL, 0);
	ok(m != NULL && stepg(m, MON_ALLREDUCE, NULL, NULL,
	    "'ens_allreduce' but behaviour expects 'allreduce over rows[2]'"
	    " (g:3:1)") == -1, "over none where the statement has a group");
	ens_mon_free(m);
	m = new2("bcast from cell[1];", "g:4:1", "W", 1, NULL, 0);
	ok(m != NULL && stepg(m, MON_BCAST, "cell[1]", "cols[1]",
	    "'ens_bcast from cell[1] over cols[1]' but behaviour expects 'bcast"
	    " from cell[1]' (g:4:1)") == -1,
	    "over a group where the statement has none");
	ens_mon_free(m);
	cause = NULL;
	m = ens_mon_new("barrier over;", 0, NULL, 0, NULL, NULL, &cause);
	ok(m == NULL && cause != NULL && strstr(cause, "expected a group") != NULL,
	    "'over' without a group is a parse error");
	free(cause);
	cause = NULL;
	m = ens_mon_new("waitall over rows[1];", 0, NULL, 0, NULL, NULL, &cause);
	ok(m == NULL && cause != NULL, "waitall takes no group");
	free(cause);

	/* Zero ports: T[*] is nothing; an empty behaviour only ends. */
	m = new2("send A[*]; recv B[1];", "", "A", 0, "B", 1);
	ok(m != NULL && step(m, MON_RECV, "B", 1, NULL, NULL) == 0, "T[*] over 0 ports");
	ens_mon_free(m);
	m = new2("", "", NULL, 0, NULL, 0);
	ok(m != NULL && step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "an empty behaviour: finalize");
	ens_mon_free(m);

	/* A counted loop without a call is left out, as the verifier leaves
	 * it out ('if' and 'for' may empty a body): it used to be followed
	 * iteration by iteration, each a position of its own, and 'loop 5000
	 * { }' had more than MON_MAX_CONFIGS, so the monitor refused the
	 * behaviour at the start. */
	m = new2("loop 5000 { } send P[1];", "f:1:1 f:1:2", "P", 1, NULL, 0);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
	    "loop 5000 { }: left out");
	ens_mon_free(m);
	m = new2("loop 3 { loop 2000 { loop 0 { send P[1]; } } recv P[1]; } send P[*];",
	    "", "P", 2, NULL, 0);
	for (good = m != NULL, i = 0; good && i < 3; i++)
		good = step(m, MON_RECV, "P", 1, NULL, NULL) == 0;
	good = good && step(m, MON_SEND, "P", 1, NULL, NULL) == 0 &&
	    step(m, MON_SEND, "P", 2, NULL, NULL) == 0 &&
	    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0;
	ok(good, "a loop of loops without a call, inside a loop: left out");
	ens_mon_free(m);
	/* What is left out keeps the locations of what follows. */
	m = new2("loop 0 { send P[1]; } loop 9000 { choice { } or { } } recv P[1];",
	    "f:1:1 f:1:2 f:1:3 f:1:4 f:1:5", "P", 1, NULL, 0);
	ok(m != NULL && step(m, MON_SEND, "P", 1, NULL, "'ens_send P[1]' but "
	    "behaviour expects 'recv P[1]' (f:1:5)") == -1,
	    "loops left out: the next statement's location");
	ens_mon_free(m);
	/* A loop for ever without a call is kept: it never ends. */
	m = new2("loop { }", "", NULL, 0, NULL, 0);
	ok(m != NULL && step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == -1,
	    "loop { }: never ends");
	ens_mon_free(m);

	/* A choice of any number of branches (there were at most 64). */
	{
		char	text[100 * 20] = "choice { send P[1]; }";

		for (i = 1; i < 99; i++)
			strcat(text, " or { send P[1]; }");
		strcat(text, " or { recv P[1]; }");
		m = new2(text, "", "P", 1, NULL, 0);
		ok(m != NULL && step(m, MON_RECV, "P", 1, NULL, NULL) == 0 &&
		    step(m, MON_FINALIZE, NULL, 0, NULL, NULL) == 0,
		    "a choice of 100 branches");
		ens_mon_free(m);
	}

	/* Garbage does not parse. */
	m = ens_mon_new("send Nope[1];", 0, NULL, 0, NULL, NULL, &cause);
	ok(m == NULL && cause != NULL && strstr(cause, "unknown port type") != NULL,
	    "an unknown port type is a parse error");
	free(cause);
	cause = NULL;
	m = ens_mon_new("loop 3 { send", 0, NULL, 0, NULL, NULL, &cause);
	ok(m == NULL && cause != NULL, "a cut behaviour is a parse error");
	free(cause);

	/* Too many ways at once: 13 choices in a row double the positions
	 * each time only when they do not merge; they merge here, so this
	 * stays small, and a forever loop of choices also stays bounded. */
	m = new2("loop { choice { send A[1]; } or { send A[1]; } or { recv A[1]; } }",
	    "", "A", 1, NULL, 0);
	for (good = m != NULL, i = 0; good && i < 1000; i++)
		good = step(m, i % 3 ? MON_SEND : MON_RECV, "A", 1, NULL, NULL) == 0;
	ok(good, "choices that merge stay bounded over 1000 steps");
	ens_mon_free(m);

	/* Garbage and near-misses, from a fixed seed: ens_mon_new parses or says
	 * why, never crashes; what parses takes random steps (under the
	 * sanitizers in CI). */
	{
		static const char *const toks[] = { "send", "ssend", "recv", "any",
		    "irecv", "waitall;", "barrier;", "loop", "3", "0", "choice",
		    "or", "{", "}", ";", "A[1]", "A[*]", "B[2]", "A[0]", "A[x]",
		    "bcast", "from", "reduce", "to", "m[1]", "allreduce;", "A",
		    "issend", "ibsend", "scatter", "alltoall;", "sendrecv", ",",
		    "replace", "as", "r", "wait", "test", "else", "waitany",
		    "waitsome", "on", "probe", "iprobe", "isend" };
		static const enum mon_op ops[] = { MON_SEND, MON_RECV, MON_RECV_ANY,
		    MON_WAITALL, MON_BARRIER, MON_BCAST, MON_FINALIZE, MON_ISSEND,
		    MON_IRECV_ANY, MON_SCATTER, MON_ALLTOALL, MON_SENDRECV,
		    MON_WAIT, MON_TEST, MON_WAITANY, MON_WAITSOME, MON_PROBE,
		    MON_IPROBE_ANY, MON_ISEND };
		const char	*types[2] = { "A", "B" }, *locs[2] = { "f:1:1", "-" };
		int		 np[2] = { 2, 2 }, parsed = 0, k, j;
		unsigned	 seed = 12345;
		char		 text[512], *msg;

		for (good = 1, i = 0; i < 20000; i++) {
			text[0] = '\0';
			for (k = 0; k < 1 + (int)(seed % 24); k++) {
				seed = lcg(seed);
				strcat(text, toks[(seed >> 16) % (sizeof(toks) / sizeof(*toks))]);
				strcat(text, " ");
			}
			seed = lcg(seed);
			cause = NULL;
			if ((m = ens_mon_new(text, 2, locs, 2, types, np, &cause)) == NULL) {
				good &= cause != NULL;
				free(cause);
				continue;
			}
			parsed++;
			for (j = 0; j < 8; j++) {
				struct mon_event e;
				long	 some[1] = { 1 + (long)((seed >> 12) % 2) };

				memset(&e, 0, sizeof(e));
				e.op = ops[(seed >> 8) % (sizeof(ops) / sizeof(*ops))];
				e.type = "A";
				e.port = 1 + (int)((seed >> 4) % 2);
				e.root = "m[1]";
				/* Requests 1 and 2, both outcomes. */
				e.rtype = "A";
				e.rport = 1;
				e.req = some[0];
				e.reqs = some;
				e.nreqs = 1;
				e.flag = (int)(seed >> 20) & 1;
				seed = lcg(seed);
				msg = NULL;
				if (ens_mon_step(m, &e, &msg) != 0)
					good &= msg != NULL;
				free(msg);
			}
			ens_mon_free(m);
		}
		printf("# %d of 20000 random behaviours parsed\n", parsed);
		ok(good && parsed > 0, "random behaviours: parsed or refused with a cause");
	}

	p2p();
	probed();
}

int
main(void)
{
	cases();
	by_index = 1;
	printf("# again, each event's port type by its index\n");
	cases();
	where();
	printf("# again, each step inline first, as ens.c takes it\n");
	inline_way = 1;
	cases();
	where();
	inline_way = 0;
	meets();
	same_ways();
	printf("1..%d\n", n);
	return failed;
}
