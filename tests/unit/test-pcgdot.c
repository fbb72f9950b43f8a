/* test-pcgdot.c -- the annotated PCG's values (common/pcgdot.h) through
 * cgraph's writer and reader.  With no argument, a TAP test: strings that
 * DOT treats specially (quotes, backslashes, a backslash before a newline,
 * every byte 1..255, values long enough for agwrite to break their line)
 * written with agwrite, read back with agread and decoded must come back
 * byte for byte; malformed values and numbers must be refused.  With a
 * DOT file (or '-'), as 'ensemble graph --pcg' writes it: read it with
 * agread and write each node's name, exec, args, env, wdir and host
 * decoded, each item followed by a NUL byte, for tests/args.test. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>

#include "pcgdot.h"
#include "xmalloc.h"

static int	tap_n, failed;

static void
check(int good, const char *what, int i)
{
	tap_n++;
	if (!good)
		failed = 1;
	printf("%sok %d - %s", good ? "" : "not ", tap_n, what);
	if (i >= 0)
		printf(" (%d)", i);
	printf("\n");
}

/* An attribute of obj, "" when it has none. */
static const char *
get(void *obj, const char *name)
{
	char	*v = agget(obj, (char *)name);

	return v != NULL ? v : "";
}

/* Write G as DOT and read it back; the copy, or NULL. */
static Agraph_t *
round_trip(Agraph_t *G)
{
	Agraph_t	*R;
	char		*dot = NULL;
	size_t		 len = 0;
	FILE		*f;

	if ((f = open_memstream(&dot, &len)) == NULL || agwrite(G, f) != 0 ||
	    fclose(f) != 0)
		return NULL;
	if ((f = fmemopen(dot, len, "r")) == NULL) {
		free(dot);
		return NULL;
	}
	R = agread(f, NULL);
	fclose(f);
	free(dot);
	return R;
}

/* The strings: each of them as a text value, and all as a list value. */
static void
test_round_trip(void)
{
	static const char *const fixed[] = {
		"", "plain", "dq\"q", "\"", "bs\\x", "\\", "\\\"", "a\\\"b\\\\\"",
		"\\\n", "x\\\ny", "nl\nx", "tab\tx", "\r\n", "$(ls) * ${y}", "'q'",
		"%41%", "%", " lead", "trail ", "two  spaces", "\xc3\xa9t\xc3\xa9",
		"<html>", "\\N", "graph", "-1", "1.5",
	};
	enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]), N = NFIXED + 3 };
	char		*v[N], **back;
	struct buf	 b;
	Agraph_t	*G, *R;
	Agnode_t	*n;
	Agsym_t		*a_list, *a_text[N];
	char		 name[32], *t;
	int		 i, k, nback;

	for (i = 0; i < NFIXED; i++)
		v[i] = xstrdup(fixed[i]);
	/* Every byte but NUL. */
	v[NFIXED] = xmalloc(256);
	for (i = 1; i < 256; i++)
		v[NFIXED][i - 1] = (char)i;
	v[NFIXED][255] = '\0';
	/* Long values, which agwrite breaks with backslash-newlines: words
	 * and backslashes, and a run with nowhere to break. */
	v[NFIXED + 1] = xmalloc(1201);
	for (i = 0; i < 1200; i++)
		v[NFIXED + 1][i] = "ab \\\"\n-"[i % 7];
	v[NFIXED + 1][1200] = '\0';
	v[NFIXED + 2] = xmalloc(1201);
	memset(v[NFIXED + 2], 'x', 1200);
	v[NFIXED + 2][1200] = '\0';

	buf_init(&b);
	G = agopen((char *)"t", Agundirected, NULL);
	n = agnode(G, (char *)"p[1]", 1);
	a_list = agattr(G, AGNODE, (char *)"list", (char *)"");
	pcgdot_put_list(&b, v, N);
	agxset(n, a_list, b.s);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "text%d", i);
		a_text[i] = agattr(G, AGNODE, name, (char *)"");
		buf_reset(&b);
		pcgdot_put_text(&b, v[i]);
		agxset(n, a_text[i], b.s);
		check(strchr(b.s, '"') == NULL && strchr(b.s, '\\') == NULL &&
		    strchr(b.s, '\n') == NULL, "encoded text has no quote, backslash or newline", i);
	}
	R = round_trip(G);
	check(R != NULL, "agread reads what agwrite wrote", -1);
	n = R != NULL ? agnode(R, (char *)"p[1]", 0) : NULL;
	check(n != NULL, "the node is back", -1);
	if (n != NULL) {
		for (i = 0; i < N; i++) {
			snprintf(name, sizeof(name), "text%d", i);
			t = pcgdot_text(get(n, name));
			check(t != NULL && strcmp(t, v[i]) == 0, "text comes back byte for byte", i);
			free(t);
		}
		nback = pcgdot_list(get(n, "list"), &back);
		check(nback == N, "the list has every element", -1);
		for (k = 0; k < nback && k < N; k++)
			check(strcmp(back[k], v[k]) == 0, "list element comes back byte for byte", k);
		for (k = 0; k < nback; k++)
			free(back[k]);
		free(back);
	}
	if (R != NULL)
		agclose(R);
	agclose(G);
	buf_free(&b);
	for (i = 0; i < N; i++)
		free(v[i]);
}

/* Readable where nothing needs escaping; each reserved byte as %XX. */
static void
test_encoding(void)
{
	char *const	 v[] = { (char *)"a b", (char *)"", (char *)"x'y" };
	struct buf	 b;

	buf_init(&b);
	pcgdot_put_text(&b, "dq\"q bs\\x nl\nx %$(ls)* \xc3\xa9");
	check(strcmp(b.s, "dq%22q bs%5Cx nl%0Ax %25$(ls)* \xc3\xa9") == 0,
	    "text: reserved bytes as %XX, the rest as is", -1);
	buf_reset(&b);
	pcgdot_put_list(&b, v, 3);
	check(strcmp(b.s, "'a b' '' 'x%27y'") == 0, "list: quoted, space-separated", -1);
	buf_reset(&b);
	pcgdot_put_list(&b, v, 0);
	check(strcmp(b.s, "") == 0, "the empty list is empty", -1);
	buf_free(&b);
}

/* Malformed values are refused, not guessed at. */
static void
test_malformed(void)
{
	static const char *const texts[] = { "%", "%4", "%00", "%zz", "a%g0" };
	static const char *const lists[] = { "'a", "a", "'a''b'", "'a'x", "'%'", "' '%00'" };
	static const char *const ints[] = { "", "x", "1x", " 1", "+1", "\t1", "-",
	    "99999999999999999999", "11", "-11", "1 " };
	char		**v, *t;
	long long	  n;
	size_t		  i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		t = pcgdot_text(texts[i]);
		check(t == NULL, "malformed text refused", (int)i);
		free(t);
	}
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		check(pcgdot_list(lists[i], &v) == -1 && v == NULL, "malformed list refused", (int)i);
	check(pcgdot_list("  'a'  'b' ", &v) == 2 && strcmp(v[0], "a") == 0 &&
	    strcmp(v[1], "b") == 0 && v[2] == NULL, "a list may have more spaces", -1);
	free(v[0]);
	free(v[1]);
	free(v);
	check(pcgdot_list("", &v) == 0 && v != NULL && v[0] == NULL, "no value: the empty list", -1);
	free(v);
	t = pcgdot_text("%41%2f%2F");
	check(t != NULL && strcmp(t, "A//") == 0, "hex digits in either case", -1);
	free(t);
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		check(pcgdot_int(ints[i], -10, 10, &n) == -1, "bad or out-of-range int refused", (int)i);
	check(pcgdot_int("-10", -10, 10, &n) == 0 && n == -10, "int at its minimum", -1);
	check(pcgdot_int("10", -10, 10, &n) == 0 && n == 10, "int at its maximum", -1);
	check(pcgdot_int("2147483647", 0, INT_MAX, &n) == 0 && n == INT_MAX, "INT_MAX", -1);
	check(pcgdot_int("2147483648", 0, INT_MAX, &n) == -1, "INT_MAX + 1 refused", -1);
}

/* Write a value decoded from a text attribute, and a NUL. */
static int
dump_text(const char *key, const char *value)
{
	char	*t = pcgdot_text(value);

	if (t == NULL)
		return -1;
	fwrite(key, 1, strlen(key) + 1, stdout);
	fwrite(t, 1, strlen(t) + 1, stdout);
	free(t);
	return 0;
}

/* Write each element of a list attribute after key, each with a NUL. */
static int
dump_list(const char *key, const char *value)
{
	char	**v;
	int	  n, i;

	if ((n = pcgdot_list(value, &v)) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		fwrite(key, 1, strlen(key) + 1, stdout);
		fwrite(v[i], 1, strlen(v[i]) + 1, stdout);
		free(v[i]);
	}
	free(v);
	return 0;
}

/* Read the DOT file at path and dump each node's strings. */
static int
dump(const char *path)
{
	Agraph_t	*G;
	Agnode_t	*v;
	FILE		*f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	int		 bad = 0;

	if (f == NULL || (G = agread(f, NULL)) == NULL) {
		fprintf(stderr, "test-pcgdot: cannot read '%s'\n", path);
		return 2;
	}
	if (f != stdin)
		fclose(f);
	for (v = agfstnode(G); v != NULL; v = agnxtnode(G, v)) {
		fwrite("node", 1, 5, stdout);
		fwrite(agnameof(v), 1, strlen(agnameof(v)) + 1, stdout);
		bad |= dump_text("exec", get(v, PCGDOT_EXEC));
		bad |= dump_list("arg", get(v, PCGDOT_ARGS));
		bad |= dump_list("env", get(v, PCGDOT_ENV));
		bad |= dump_text("wdir", get(v, PCGDOT_WDIR));
		bad |= dump_text("host", get(v, PCGDOT_HOST));
	}
	agclose(G);
	if (bad)
		fprintf(stderr, "test-pcgdot: a malformed value in '%s'\n", path);
	return bad ? 1 : 0;
}

int
main(int argc, char **argv)
{
	if (argc == 2)
		return dump(argv[1]);
	test_encoding();
	test_round_trip();
	test_malformed();
	printf("1..%d\n", tap_n);
	return failed;
}
