/* fuzz-wire.c -- libFuzzer target for what runtime/wire.h reads from
 * outside: the bundle of port tables that a process's ens_init reads and
 * splits (it comes through mpirun's standard input), each port table,
 * the appfile tokens ensemble-exec decodes, the marker lines 'ensemble
 * run' reads and the relayed pieces it unescapes; and the two messages of
 * a '--stdin all' connection's handshake (loader/auth.h), which 'ensemble
 * run' and a trampoline read off the network.  Run it with
 * FUZZER=tests/fuzz/fuzz-wire tests/fuzz/run.sh.
 *
 * Besides the sanitizers' reports, these abort (a "crash"): a table that
 * reads but, written again, is not the same bytes, or whose groups do not
 * hold together (a member outside the processes, runs that do not add up
 * to the group's size, the process's rank outside it, ids not rising); a token that decodes
 * but, encoded again, does not decode to the same; any string (the input
 * up to its first NUL) whose token does not decode back to itself or
 * holds a byte an appfile line cannot (a space, a control byte, '#', a
 * "//"); a bundle that splits into pieces outside it; a marker whose
 * argument is not the rest of its text after its word; a "blocked"
 * marker's slot that reads but, written again, is not the same text; a
 * piece that, escaped and unescaped, is not the same bytes; a first
 * message or an answer judged right that is not the one made for its
 * nonce and process, and one made so judged wrong. */
#include "config.h"

#include <arpa/inet.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-wire: %s\n", what);
	abort();
}

/* Whether the groups of a table read hold together (wire.h). */
static int
groups_hold(const struct wire_table *t)
{
	const struct wire_group	*g;
	int64_t			 r, members;
	int			 i, k, j;

	for (i = 0; i < t->ngroups; i++) {
		g = &t->groups[i];
		if (g->id < 0 || (i > 0 && g->id <= t->groups[i - 1].id) ||
		    g->rank < 0 || g->rank >= g->size)
			return 0;
		for (members = 0, k = 0; k < g->nruns; k++)
			for (j = 0; j < g->runs[k].count; j++, members++) {
				r = (int64_t)g->runs[k].first +
				    (int64_t)j * g->runs[k].step;
				if (r < 0 || r >= t->nprocs)
					return 0;
			}
		if (members != g->size)
			return 0;
	}
	return 1;
}

/* A table read from the input must write back to the same bytes. */
static void
table(const char *p, size_t n)
{
	struct wire_table	t;
	struct wire_buf		b = { NULL, 0, 0 };

	if (wire_table_get(&t, p, n) == 0) {
		if (!groups_hold(&t))
			fail("a table read has groups that do not hold together");
		if (wire_table_put(&b, &t) != 0)
			fail("out of memory");
		if (b.len != n || memcmp(b.p, p, n) != 0)
			fail("a table read, written again, is not the same");
	}
	wire_table_clear(&t);
	free(b.p);
}

/* Tokens: the input as a token, and as a string to encode. */
static void
tokens(const char *s)
{
	struct wire_buf	 b = { NULL, 0, 0 };
	char		*back, *again;
	size_t		 i;

	if ((back = wire_token_get(s)) != NULL) {
		if (wire_token_put(&b, back) != 0 || wire_put_bytes(&b, "", 1) != 0)
			fail("out of memory");
		if ((again = wire_token_get(b.p)) == NULL || strcmp(again, back) != 0)
			fail("a token decoded, encoded again, decodes to another");
		free(again);
		free(back);
	}
	b.len = 0;
	if (wire_token_put(&b, s) != 0 || wire_put_bytes(&b, "", 1) != 0)
		fail("out of memory");
	for (i = 0; b.p[i] != '\0'; i++)
		if ((unsigned char)b.p[i] <= ' ' || (unsigned char)b.p[i] >= 0x7f ||
		    b.p[i] == '#' || (b.p[i] == '/' && b.p[i + 1] == '/'))
			fail("a token holds a byte an appfile line cannot");
	if ((back = wire_token_get(b.p)) == NULL || strcmp(back, s) != 0)
		fail("a string encoded does not decode back to itself");
	free(back);
	free(b.p);
}

/* A bundle: its pieces lie inside it, each read as a table. */
static void
bundle(const char *p, size_t n)
{
	int	offs[8], lens[8], k, i;

	if (n < WIRE_BUNDLE_HEAD)
		return;
	if (wire_bundle_rest(p) < 0)
		return;
	for (k = 0; k <= 8; k++) {
		if (wire_bundle_split(p, n, k, offs, lens) != 0)
			continue;
		for (i = 0; i < k; i++) {
			if (offs[i] < WIRE_BUNDLE_HEAD || lens[i] < 0 ||
			    (size_t)offs[i] + (size_t)lens[i] > n)
				fail("a bundle's piece lies outside it");
			table(p + offs[i], (size_t)lens[i]);
		}
		break;
	}
}

/* A "blocked" marker's slot, as wire_slot_get reads it from any text:
 * written again, the same text. */
static void
slot(const char *s)
{
	struct wire_slot	 w;
	struct wire_buf		 b = { NULL, 0, 0 };

	if (wire_slot_get(s, &w) != 0)
		return;
	if (wire_slot_put(&b, &w) != 0 || wire_put_bytes(&b, "", 1) != 0)
		fail("out of memory");
	if (strcmp(b.p, s) != 0)
		fail("a slot's text read and written again is not the same");
	free(b.p);
}

/* A marker's text: a known word's argument is the rest after it. */
static void
marker(const char *s)
{
	const char	*arg;
	size_t		 hl;
	int		 n;
	enum wire_mark	 k;

	/* An end's argument: its host a prefix without a space, the number
	 * of an exit or a signal one an 8-bit status could hold. */
	k = wire_end_parse(s, &hl, &n);
	if (hl > strlen(s) || memchr(s, ' ', hl) != NULL ||
	    (k != WIRE_MARK_UNKNOWN && k != WIRE_MARK_EXIT &&
	    k != WIRE_MARK_SIGNAL) || n < 0 || n > 255 ||
	    (k == WIRE_MARK_UNKNOWN && n != 0))
		fail("an end's argument read wrong");
	if (wire_mark_parse(s, &arg) == WIRE_MARK_UNKNOWN)
		return;
	if (arg < s || arg > s + strlen(s) ||
	    (*arg != '\0' && (arg == s || arg[-1] != ' ')))
		fail("a marker's argument is not the rest of its text");
	slot(s);
}

/* A piece of output: escaped, it holds no '[', newline or NUL, and
 * unescapes to the same bytes. */
static void
piece(const char *p, size_t n)
{
	char	*e;
	size_t	 k, i;

	if ((e = malloc(3 * n + 1)) == NULL)
		return;
	k = wire_escape(e, p, n);
	for (i = 0; i < k; i++)
		if (e[i] == '[' || e[i] == '\n' || e[i] == '\0')
			fail("an escaped piece holds '[', a newline or a NUL");
	if (wire_unescape(e, k) != n || memcmp(e, p, n) != 0)
		fail("a piece escaped and unescaped is not the same");
	free(e);
}

/* The handshake's messages at the input's start (auth.h): judged right
 * only when they are the very bytes made for their nonce and process. */
static void
handshake(const char *p, size_t n)
{
	struct sockaddr_in	 c, s;
	const char		*key = "0123456789abcdef0123456789abcdef";
	char			 cn[AUTH_NONCE + 1], id[AUTH_ID + 1];
	char			 want[AUTH_PROOF + 1], a[AUTH_ANSWER_LEN];

	memset(&c, 0, sizeof(c));
	memset(&s, 0, sizeof(s));
	c.sin_family = s.sin_family = AF_INET;
	c.sin_addr.s_addr = htonl(0x0a000002);
	s.sin_addr.s_addr = htonl(0x0a000001);
	c.sin_port = htons(40000);
	s.sin_port = htons(5000);
	if (n >= AUTH_HELLO_LEN &&
	    auth_hello_check(p, key, &c, &s, cn, id) == 0) {
		auth_proof(want, AUTH_CLIENT, key, cn, id, &c, &s);
		if (memcmp(p, cn, AUTH_NONCE) != 0 ||
		    memcmp(p + AUTH_NONCE, id, AUTH_ID) != 0 ||
		    memcmp(p + AUTH_NONCE + AUTH_ID, want, AUTH_PROOF) != 0)
			fail("a first message judged right is not the one made");
	}
	if (n >= AUTH_NONCE + AUTH_ID && auth_is_hex(p, AUTH_NONCE + AUTH_ID)) {
		memcpy(cn, p, AUTH_NONCE);
		cn[AUTH_NONCE] = '\0';
		memcpy(id, p + AUTH_NONCE, AUTH_ID);
		id[AUTH_ID] = '\0';
		auth_answer(a, key, cn, id, &c, &s);
		if (!auth_answer_check(a, key, cn, id, &c, &s))
			fail("an answer made is judged wrong");
		if (n >= AUTH_NONCE + AUTH_ID + AUTH_ANSWER_LEN &&
		    auth_answer_check(p + AUTH_NONCE + AUTH_ID, key, cn, id, &c,
		    &s) && memcmp(p + AUTH_NONCE + AUTH_ID, a, AUTH_ANSWER_LEN))
			fail("an answer judged right is not the one made");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s;

	table((const char *)data, size);
	bundle((const char *)data, size);
	piece((const char *)data, size);
	handshake((const char *)data, size);
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	tokens(s);
	marker(s);
	free(s);
	return 0;
}
