/* test-wire.c -- runtime/wire.c on its own: a port table written and read
 * back field for field, every truncation of it refused, its bundle split
 * back into its tables, appfile tokens of every byte that Open MPI's
 * appfile cannot hold decoded back to the string, the marker lines read
 * back by word, and a relayed piece of every byte escaped and unescaped;
 * the groups of a table (runs of any step) read back, and groups that
 * do not hold together (a rank outside, a member past the processes,
 * runs that are not the size, ids out of order) refused.
 * Prints TAP. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

static int	n;

static void
check(int good, const char *what)
{
	printf("%sok %d - %s\n", good ? "" : "not ", ++n, what);
}

/* Whether two tables hold the same. */
static int
same(const struct wire_table *a, const struct wire_table *b)
{
	int	i, k;

	if (a->rank != b->rank || a->nprocs != b->nprocs || a->flags != b->flags ||
	    strcmp(a->name, b->name) != 0 || strcmp(a->component, b->component) != 0 ||
	    a->indexed != b->indexed || a->index != b->index ||
	    a->ntypes != b->ntypes || a->nparams != b->nparams ||
	    a->nargs != b->nargs || a->nruns != b->nruns || a->nlocs != b->nlocs ||
	    strcmp(a->behaviour, b->behaviour) != 0 ||
	    strcmp(a->origin, b->origin) != 0 || strcmp(a->tracedir, b->tracedir) != 0)
		return 0;
	for (i = 0; i < a->ntypes; i++) {
		if (strcmp(a->types[i].name, b->types[i].name) != 0 ||
		    a->types[i].n != b->types[i].n)
			return 0;
		for (k = 0; k < a->types[i].n; k++)
			if (memcmp(&a->types[i].ports[k], &b->types[i].ports[k],
			    sizeof(struct wire_port)) != 0)
				return 0;
	}
	for (i = 0; i < a->nparams; i++)
		if (strcmp(a->pnames[i], b->pnames[i]) != 0 ||
		    strcmp(a->pvalues[i], b->pvalues[i]) != 0)
			return 0;
	for (i = 0; i < a->nargs; i++)
		if (strcmp(a->args[i], b->args[i]) != 0)
			return 0;
	for (i = 0; i < a->nruns; i++)
		if (strcmp(a->runs[i].comp, b->runs[i].comp) != 0 ||
		    a->runs[i].indexed != b->runs[i].indexed ||
		    a->runs[i].rank != b->runs[i].rank ||
		    a->runs[i].index != b->runs[i].index ||
		    a->runs[i].count != b->runs[i].count)
			return 0;
	for (i = 0; i < a->nlocs; i++)
		if (strcmp(a->locs[i], b->locs[i]) != 0)
			return 0;
	if (a->ngroups != b->ngroups || a->ngnames != b->ngnames)
		return 0;
	for (i = 0; i < a->ngroups; i++) {
		const struct wire_group	*x = &a->groups[i], *y = &b->groups[i];

		if (x->id != y->id || strcmp(x->name, y->name) != 0 ||
		    x->indexed != y->indexed || x->index != y->index ||
		    x->rank != y->rank || x->size != y->size || x->nruns != y->nruns)
			return 0;
		for (k = 0; k < x->nruns; k++)
			if (memcmp(&x->runs[k], &y->runs[k], sizeof(x->runs[k])) != 0)
				return 0;
	}
	for (i = 0; i < a->ngnames; i++)
		if (strcmp(a->gnames[i], b->gnames[i]) != 0)
			return 0;
	return 1;
}

/* Whether t, written, is refused when read back. */
static int
refused(const struct wire_table *t)
{
	struct wire_buf		b = { NULL, 0, 0 };
	struct wire_table	back;
	int			bad;

	if (wire_table_put(&b, t) != 0)
		return 0;
	bad = wire_table_get(&back, b.p, b.len) != 0;
	wire_table_clear(&back);
	free(b.p);
	return bad;
}

/* The deadlock watch's slots (wire.h, THE WATCH): a "blocked" marker's
 * text reads back as the slot written, malformed texts are refused, a
 * slot being written (or left so) gives no reading, and the readings that
 * say a process is blocked. */
static void
slots(void)
{
	struct wire_slot	 s, back, odd;
	struct wire_buf		 b = { NULL, 0, 0 };
	static const char	*bad[] = {
		"", "1", "4 10 1 0 1 -1 -1 0 -1", "4 10 1 0 1 -1 -1 0 -1 1 0 1",
		"4 10 1 0 1 -1 -1 0 -1 1 0 1 3 5", "4 10 1 0 1 -1 -1 0 -1 13 0 0",
		"-4 10 1 0 1 -1 -1 0 -1 0 0 0", "4  10 1 0 1 -1 -1 0 -1 0 0 0",
		"4 10 1 0 1 -1 -1 0 -1 0 0 0 ", "4 10 1 0 1 -1 -1 0 -1 0 0 0x",
		"4 99999999999 1 0 1 -1 -1 0 -1 0 0 0",
		"4 10 1 0 1 -1 -1 4294967296 -1 0 0 0",
		"4 +10 1 0 1 -1 -1 0 -1 0 0 0", "4 010 1 0 1 -1 -1 0 -1 0 0 0",
		"4 -0 1 0 1 -1 -1 0 -1 0 0 0", "4 \t10 1 0 1 -1 -1 0 -1 0 0 0",
	};
	int			 i, good;

	memset(&s, 0, sizeof(s));
	s.gen = 4294967294U;
	s.call = WC_MPI_ALLREDUCE;
	s.wait = WIRE_WAIT_ALL;
	s.type = 2;
	s.port = 7;
	s.loc = 12;
	s.comm = WIRE_COMM_GROUP + 5;
	s.ncoll = 4294967295U;
	s.root = -1;
	s.npeers = WIRE_WATCH_PEERS;
	s.sends = 0xfff;
	s.recvs = 0x801;
	for (i = 0; i < WIRE_WATCH_PEERS; i++)
		s.peers[i] = 1000 * i;
	check(wire_slot_put(&b, &s) == 0 && wire_put_bytes(&b, "", 1) == 0 &&
	    wire_slot_get(b.p, &back) == 0 &&
	    memcmp(&s, &back, sizeof(s)) == 0,
	    "a slot's text reads back as the slot, every peer and field");
	for (good = 1, i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++)
		if (wire_slot_get(bad[i], &back) == 0) {
			printf("# slot text '%s' read\n", bad[i]);
			good = 0;
		}
	check(good, "slot texts short, long, past the peers, out of range,"
	    " spaced wrong or not as written (+, a leading 0, -0) are refused");
	check(wire_slot_read(&s, &back) == 0 && back.gen == s.gen &&
	    back.call == s.call && back.peers[11] == 11000,
	    "a slot at rest reads as it is");
	odd = s;
	odd.gen = 5;
	check(wire_slot_read(&odd, &back) == -1,
	    "a slot being written (its gen odd) gives no reading");
	back = s;
	check(wire_slot_blocked(&s, 1000, &back, 1000 + WIRE_WATCH_CPU) &&
	    !wire_slot_blocked(&s, 1000, &back, 999 + WIRE_WATCH_CPU) &&
	    !wire_slot_blocked(&s, 0, &back, 5 * WIRE_WATCH_CPU),
	    "blocked: the same call, having run WIRE_WATCH_CPU between the"
	    " readings, the run time known");
	back.gen += 2;
	check(!wire_slot_blocked(&s, 1000, &back, 1000 + 9 * WIRE_WATCH_CPU),
	    "not blocked: another call since");
	back = s;
	back.call = WC_NONE;
	check(!wire_slot_blocked(&s, 1000, &back, 1000 + 9 * WIRE_WATCH_CPU),
	    "not blocked: out of the call");
	check(strcmp(wire_call_name(WC_SEND), "ens_send") == 0 &&
	    strcmp(wire_call_name(WC_MPI_REDUCE_SCATTER), "MPI_Reduce_scatter") == 0 &&
	    strcmp(wire_call_name(WC_COUNT), "-") == 0 &&
	    strcmp(wire_call_name(-1), "-") == 0 &&
	    wire_call_coll(WC_MPI_ALLREDUCE) == wire_call_coll(WC_ALLREDUCE_OVER) &&
	    wire_call_coll(WC_SEND) == WC_NONE && wire_call_sends(WC_MPI_RSEND) &&
	    !wire_call_sends(WC_RECV),
	    "the calls' names, which collective each is, which sends");
	free(b.p);
}

int
main(void)
{
	struct wire_port	 pc[2] = { { 3, 7, 7 }, { -1, 0, 0 } }, pp[1] = { { 1, 9, 10 } };
	struct wire_type	 types[2] = { { (char *)"Client", 2, pc },
				     { (char *)"Prop", 1, pp } };
	char			*pn[] = { (char *)"N", (char *)"input" };
	char			*pv[] = { (char *)"4", (char *)"a b\n'c'" };
	char			*args[] = { (char *)"", (char *)"x y", (char *)"%41" };
	struct wire_run		 runs[2] = { { (char *)"relay", 1, 0, 1, 3 },
				     { (char *)"master", 0, 3, 0, 1 } };
	char			*locs[] = { (char *)"a b.pcg:3:4", (char *)"-" };
	/* rows[2]: ranks 1 and 3 (one run of step 2); workers: 2, 1 (a run
	 * of step -1) then 3. */
	struct wire_grun	 rrows[1] = { { 1, 2, 2 } },
				 rwork[2] = { { 2, 2, -1 }, { 3, 1, 1 } };
	struct wire_group	 groups[2] = {
		{ 1, (char *)"rows", 1, 2, 0, 2, 1, rrows },
		{ 3, (char *)"workers", 0, 0, 1, 3, 2, rwork } };
	char			*gnames[] = { (char *)"rows", (char *)"workers" };
	struct wire_table	 t = {
		.rank = 1, .nprocs = 4, .flags = WIRE_CHECK_PROTOCOL | WIRE_TRACE,
		.name = (char *)"relay[2]", .component = (char *)"relay",
		.indexed = 1, .index = 2, .ntypes = 2, .types = types,
		.nparams = 2, .pnames = pn, .pvalues = pv,
		.nargs = 3, .args = args, .nruns = 2, .runs = runs,
		.behaviour = (char *)"recv Client[*]; send Prop[1];",
		.nlocs = 2, .locs = locs,
		.ngroups = 2, .groups = groups, .ngnames = 2, .gnames = gnames,
		.origin = (char *)"1764115200.000000001", .tracedir = (char *)"/t/x.parts"
	};
	struct wire_table	 back;
	struct wire_buf		 b = { NULL, 0, 0 }, tabs[3], bun = { NULL, 0, 0 };
	char			 s[4], *tok = NULL, *dec, all[256];
	int			 offs[3], lens[3], good, i, c;
	size_t			 cut;
	const char		*arg;
	char			 esc[3 * 256];
	static const struct {
		const char	*text;
		enum wire_mark	 kind;
		const char	*arg;
	} marks[] = {
		{ WIRE_WORD_INIT, WIRE_MARK_INIT, "" },
		{ WIRE_WORD_HELLO " node1", WIRE_MARK_HELLO, "node1" },
		{ WIRE_WORD_FAIL " relay[2]: ens_send: no", WIRE_MARK_FAIL,
		    "relay[2]: ens_send: no" },
		{ WIRE_WORD_SIGNAL " 11", WIRE_MARK_SIGNAL, "11" },
		{ WIRE_WORD_EXIT, WIRE_MARK_EXIT, "" },
		{ WIRE_WORD_FINALIZE, WIRE_MARK_FINALIZE, "" },
		{ WIRE_WORD_STATE " ens_recv Client 1 @7", WIRE_MARK_STATE,
		    "ens_recv Client 1 @7" },
		{ WIRE_WORD_STATE " " WIRE_WORD_FINALIZE, WIRE_MARK_STATE,
		    WIRE_WORD_FINALIZE },
		{ WIRE_WORD_START " node1", WIRE_MARK_START, "node1" },
		{ WIRE_WORD_END " node1 " WIRE_WORD_EXIT " 0", WIRE_MARK_END,
		    "node1 exit 0" },
		{ WIRE_WORD_END " node1 " WIRE_WORD_SIGNAL " 9", WIRE_MARK_END,
		    "node1 signal 9" },
		{ WIRE_WORD_CANNOT " node1 cannot execute 'x'", WIRE_MARK_CANNOT,
		    "node1 cannot execute 'x'" },
		{ WIRE_WORD_FAIL " ", WIRE_MARK_FAIL, "" },
		{ WIRE_WORD_BLOCKED " 4 10 1 0 1 -1 -1 0 -1 1 0 1 3",
		    WIRE_MARK_BLOCKED, "4 10 1 0 1 -1 -1 0 -1 1 0 1 3" },
		{ WIRE_WORD_UNBLOCKED " 4", WIRE_MARK_UNBLOCKED, "4" },
		{ WIRE_WORD_WORLD " 1", WIRE_MARK_WORLD, "1" },
	};

	if (wire_table_put(&b, &t) != 0)
		return 1;
	check(wire_table_get(&back, b.p, b.len) == 0 && same(&t, &back),
	    "a table read back is the table written");
	wire_table_clear(&back);
	for (good = 1, cut = 0; cut < b.len; cut++) {
		if (wire_table_get(&back, b.p, cut) == 0)
			good = 0;
		wire_table_clear(&back);
	}
	check(good, "every truncation of a table is refused");
	b.p[0] ^= 1;
	check(wire_table_get(&back, b.p, b.len) != 0, "a table without the magic is refused");
	wire_table_clear(&back);
	b.p[0] ^= 1;
	/* A count far past the bytes there. */
	memcpy(b.p + 4 * 4 + 4 + 8 + 4 + 5 + 4 + 4, "\xff\xff\xff\x7f", 4);
	check(wire_table_get(&back, b.p, b.len) != 0, "a count past the end is refused");
	wire_table_clear(&back);

	/* Groups that do not hold together. */
	groups[0].rank = 2;
	good = refused(&t);
	groups[0].rank = 0;
	rrows[0].step = 3;		/* 1, 4: past the 4 processes */
	good &= refused(&t);
	rrows[0].step = 2;
	rwork[1].count = 2;		/* 4 members for 3 */
	good &= refused(&t);
	rwork[1].count = 1;
	groups[1].id = 1;		/* ids not rising */
	good &= refused(&t);
	groups[1].id = 3;
	groups[1].indexed = 2;
	good &= refused(&t);
	groups[1].indexed = 0;
	check(good && !refused(&t), "groups that do not hold together are refused");

	/* A bundle of three tables, the second empty. */
	memset(tabs, 0, sizeof(tabs));
	wire_put_str(&tabs[0], "first");
	wire_put_str(&tabs[2], "third one");
	if (wire_bundle_put(&bun, tabs, 3) != 0)
		return 1;
	check(wire_bundle_rest(bun.p) == (int64_t)(bun.len - WIRE_BUNDLE_HEAD),
	    "a bundle's head gives the length of its rest");
	check(wire_bundle_split(bun.p, bun.len, 3, offs, lens) == 0 &&
	    lens[0] == (int)tabs[0].len && lens[1] == 0 && lens[2] == (int)tabs[2].len &&
	    memcmp(bun.p + offs[2], tabs[2].p, tabs[2].len) == 0,
	    "a bundle splits into its tables");
	check(wire_bundle_split(bun.p, bun.len, 2, offs, lens) != 0,
	    "a bundle is refused for another count of processes");
	check(wire_bundle_split(bun.p, bun.len - 1, 3, offs, lens) != 0,
	    "a bundle cut short is refused");

	/* Tokens: every byte alone, after a '/', and all of them at once. */
	for (good = 1, c = 1; c < 256; c++) {
		s[0] = '/';
		s[1] = (char)c;
		s[2] = (char)c;
		s[3] = '\0';
		b.len = 0;
		wire_token_put(&b, s);
		wire_put_bytes(&b, "", 1);
		for (i = 0; b.p[i] != '\0'; i++)
			if ((unsigned char)b.p[i] <= ' ' || (unsigned char)b.p[i] >= 0x7f ||
			    b.p[i] == '#' || (b.p[i] == '/' && b.p[i + 1] == '/'))
				good = 0;
		dec = wire_token_get(b.p);
		if (dec == NULL || strcmp(dec, s) != 0)
			good = 0;
		free(dec);
	}
	check(good, "a token of any bytes holds no space, '#' or \"//\" and decodes back");
	for (i = 0; i < 255; i++)
		all[i] = (char)(i + 1);
	all[255] = '\0';
	b.len = 0;
	wire_token_put(&b, all);
	wire_put_bytes(&b, "", 1);
	dec = wire_token_get(b.p);
	check(dec != NULL && strcmp(dec, all) == 0, "every byte in one token");
	free(dec);
	b.len = 0;
	wire_token_put(&b, "");
	wire_put_bytes(&b, "", 1);
	check(strcmp(b.p, "%00") == 0 && (tok = wire_token_get(b.p)) != NULL &&
	    *tok == '\0', "the empty string is %00");
	free(tok);
	check(wire_token_get("a%0") == NULL && wire_token_get("%zz") == NULL &&
	    wire_token_get("a%00") == NULL, "malformed tokens are refused");
	dec = wire_token_get("plain-path/x.y_z");
	check(dec != NULL && strcmp(dec, "plain-path/x.y_z") == 0,
	    "plain bytes decode as they are");
	free(dec);

	/* Marker lines, as their writers join them, read back by word. */
	for (good = 1, i = 0; i < (int)(sizeof(marks) / sizeof(marks[0])); i++)
		if (wire_mark_parse(marks[i].text, &arg) != marks[i].kind ||
		    strcmp(arg, marks[i].arg) != 0) {
			printf("# marker '%s'\n", marks[i].text);
			good = 0;
		}
	check(good, "each marker line reads back as its word and argument");
	check(wire_mark_parse(WIRE_WORD_HELLO, &arg) == WIRE_MARK_UNKNOWN &&
	    wire_mark_parse(WIRE_WORD_EXIT " 3", &arg) == WIRE_MARK_UNKNOWN &&
	    wire_mark_parse("finalized", &arg) == WIRE_MARK_UNKNOWN &&
	    wire_mark_parse("", &arg) == WIRE_MARK_UNKNOWN &&
	    wire_mark_parse("hellos x", &arg) == WIRE_MARK_UNKNOWN,
	    "a marker without its argument, with one it takes none, or of"
	    " another word is unknown");

	/* An end marker's argument, as the trampoline writes it, read back;
	 * anything else after the host is not an end. */
	{
		char	e[300];
		size_t	hl;
		int	num;

		wire_end_put(e, sizeof(e), "node-7", 3, 0);
		check(strcmp(e, "node-7 " WIRE_WORD_EXIT " 3") == 0 &&
		    wire_end_parse(e, &hl, &num) == WIRE_MARK_EXIT && hl == 6 &&
		    num == 3, "an end by exit status writes and reads back");
		wire_end_put(e, sizeof(e), "vm", 0, 11);
		check(strcmp(e, "vm " WIRE_WORD_SIGNAL " 11") == 0 &&
		    wire_end_parse(e, &hl, &num) == WIRE_MARK_SIGNAL && hl == 2 &&
		    num == 11, "an end by a signal writes and reads back");
		check(wire_end_parse("vm", &hl, &num) == WIRE_MARK_UNKNOWN &&
		    hl == 2 && wire_end_parse("vm exit", &hl, &num) ==
		    WIRE_MARK_UNKNOWN && wire_end_parse("vm exit 3x", &hl, &num) ==
		    WIRE_MARK_UNKNOWN && wire_end_parse("vm exit -1", &hl, &num) ==
		    WIRE_MARK_UNKNOWN && wire_end_parse("vm exit 256", &hl, &num) ==
		    WIRE_MARK_UNKNOWN && wire_end_parse("vm signals 3", &hl, &num) ==
		    WIRE_MARK_UNKNOWN && wire_end_parse("", &hl, &num) ==
		    WIRE_MARK_UNKNOWN && hl == 0,
		    "a host alone, or anything but exit or signal and a number"
		    " after it, is no end");
	}

	/* A relayed piece: every byte escaped and unescaped back. */
	for (i = 0; i < 256; i++)
		all[i] = (char)i;
	cut = wire_escape(esc, all, 256);
	for (good = 1, i = 0; i < (int)cut; i++)
		if (esc[i] == '[' || esc[i] == '\n' || esc[i] == '\0')
			good = 0;
	check(good && cut == 256 + 2 * 4 && wire_unescape(esc, cut) == 256 &&
	    memcmp(esc, all, 256) == 0,
	    "a piece of every byte escapes without '[', newline or NUL and back");
	memcpy(esc, "%5b%5B%4%", 9);
	check(wire_unescape(esc, 9) == 5 && memcmp(esc, "[[%4%", 5) == 0,
	    "unescaping takes either case and keeps a '%' without two digits");

	slots();

	free(b.p);
	free(bun.p);
	free(tabs[0].p);
	free(tabs[2].p);
	printf("1..%d\n", n);
	return 0;
}
