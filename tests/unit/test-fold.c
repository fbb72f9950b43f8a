/* test-fold.c -- reports folded (pcg/fold.c), as a TAP test: lists of
 * processes as ranges in the script's order, and runs of lines alike as
 * one line, their peers by distance, a cycle said, what differs left
 * alone.  The model is made by hand: a master, stencil[1..8] and w[1..3]. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fold.h"
#include "xmalloc.h"

static int	tap_n, failed;

/* A TAP line comparing got with want, showing both when they differ. */
static void
check_str(const char *got, const char *want, const char *what)
{
	int	good = strcmp(got, want) == 0;

	tap_n++;
	if (!good)
		failed = 1;
	printf("%sok %d - %s\n", good ? "" : "not ", tap_n, what);
	if (!good)
		printf("#   got:\n%s\n#   want:\n%s\n", got, want);
}

static struct pcg_comp	comps[3];
static struct pcg_proc	procs[12];
static struct pcg	g;

/* master (0), stencil[1..8] (1 .. 8), w[1..3] (9 .. 11). */
static void
model(void)
{
	int	i;

	comps[0].name = "master";
	comps[0].indexed = 0;
	comps[1].name = "stencil";
	comps[1].indexed = 1;
	comps[2].name = "w";
	comps[2].indexed = 1;
	procs[0].comp = 0;
	for (i = 1; i <= 8; i++) {
		procs[i].comp = 1;
		procs[i].index = i;
	}
	for (i = 9; i < 12; i++) {
		procs[i].comp = 2;
		procs[i].index = i - 8;
	}
	g.comps = comps;
	g.ncomps = 3;
	g.procs = procs;
	g.nprocs = 12;
}

/* The list of n processes folded. */
static void
list(const int *p, int n, const char *want, const char *what)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "");
	fold_procs(&b, &g, p, n, " and ");
	check_str(b.s, want, what);
	buf_free(&b);
}

/* Lines of n items, each process items[k] waiting for peers[k] (-1: for
 * none), with note (NULL: none) after the peer, folded. */
static void
lines(const int *items, const int *peers, int n, const char *note,
    const char *want, const char *what)
{
	static const struct fold_style	st = { "", " ", ": each ", 0 };
	struct fold_item		it[16];
	const char			*notes[1] = { note };
	struct buf			b;
	int				k;

	memset(it, 0, sizeof(it));
	for (k = 0; k < n; k++) {
		it[k].proc = items[k];
		it[k].what = peers[k] >= 0 ? "waits in 'ssend Left[1]' for " :
		    "waits in 'barrier'";
		it[k].peers = &peers[k];
		it[k].npeers = peers[k] >= 0;
		it[k].notes = notes;
		it[k].conj = " and ";
	}
	buf_init(&b);
	buf_adds(&b, "");
	fold_lines(&b, &g, it, n, &st, 1);
	check_str(b.s, want, what);
	buf_free(&b);
}

/* The line cases: n items, process p[k] waiting for q[k] (-1: none), with
 * the note after each peer, and the lines they fold to. */
static const struct {
	int		 n;
	int		 p[10], q[10];
	const char	*note;
	const char	*want;
	const char	*what;
} cases[] = {
	{ 8, { 1, 2, 3, 4, 5, 6, 7, 8 },
	    { 8, 1, 2, 3, 4, 5, 6, 7 },
	    NULL,
	    "stencil[1..8]: each waits in 'ssend Left[1]' for the "
	    "previous one, a cycle of 8\n",
	    "each for the previous one, around: a cycle" },
	{ 8, { 1, 2, 3, 4, 5, 6, 7, 8 },
	    { 2, 3, 4, 5, 6, 7, 8, 1 },
	    NULL,
	    "stencil[1..8]: each waits in 'ssend Left[1]' for the next "
	    "one, a cycle of 8\n",
	    "each for the next one, around: a cycle" },
	{ 4, { 2, 3, 4, 5 },
	    { 1, 2, 3, 4 },
	    NULL,
	    "stencil[2..5]: each waits in 'ssend Left[1]' for the "
	    "previous one\n",
	    "each for the previous one, no way around" },
	{ 6, { 1, 2, 3, 4, 5, 6 },
	    { 3, 4, 5, 6, 7, 8 },
	    NULL,
	    "stencil[1..6]: each waits in 'ssend Left[1]' for the one 2 "
	    "after\n",
	    "each for the one 2 after" },
	{ 7, { 1, 2, 3, 4, 9, 10, 11 },
	    { 0, 0, 0, 0, 0, 0, 0 },
	    " (which never sends it)",
	    "stencil[1..4]: each waits in 'ssend Left[1]' for master "
	    "(which never sends it)\n"
	    "w[1..3]: each waits in 'ssend Left[1]' for master (which "
	    "never sends it)\n",
	    "the same peer, its note kept; a run per component" },
	{ 4, { 1, 2, 3, 4 },
	    { 0, 0, 5, 0 },
	    NULL,
	    "stencil[1] waits in 'ssend Left[1]' for master\n"
	    "stencil[2] waits in 'ssend Left[1]' for master\n"
	    "stencil[3] waits in 'ssend Left[1]' for stencil[5]\n"
	    "stencil[4] waits in 'ssend Left[1]' for master\n",
	    "runs broken by one that differs, shorter than 3: by name" },
	{ 5, { 1, 2, 3, 4, 5 },
	    { 4, 1, 2, 3, 4 },
	    NULL,
	    "stencil[1..4]: each waits in 'ssend Left[1]' for the "
	    "previous one, a cycle of 4\n"
	    "stencil[5] waits in 'ssend Left[1]' for stencil[4]\n",
	    "the first waits for the fourth: a cycle of four, the fifth "
	    "alone" },
	{ 5, { 1, 2, 3, 4, 5 },
	    { 7, 1, 2, 3, 4 },
	    NULL,
	    "stencil[1] waits in 'ssend Left[1]' for stencil[7]\n"
	    "stencil[2..5]: each waits in 'ssend Left[1]' for the "
	    "previous one\n",
	    "the first waits for one past the run: no cycle, the rest "
	    "folded" },
	{ 6, { 1, 2, 3, 4, 5, 6 },
	    { 4, 1, 2, 3, 5, 5 },
	    NULL,
	    "stencil[1..4]: each waits in 'ssend Left[1]' for the "
	    "previous one, a cycle of 4\n"
	    "stencil[5] waits in 'ssend Left[1]' for stencil[5]\n"
	    "stencil[6] waits in 'ssend Left[1]' for stencil[5]\n",
	    "a cycle that ends where the first's peer is" },
	{ 4, { 1, 2, 3, 0 },
	    { -1, -1, -1, -1 },
	    NULL,
	    "stencil[1..3]: each waits in 'barrier'\n"
	    "master waits in 'barrier'\n",
	    "no peers" },
	{ 2, { 1, 2 },
	    { 2, 1 },
	    NULL,
	    "stencil[1] waits in 'ssend Left[1]' for stencil[2]\n"
	    "stencil[2] waits in 'ssend Left[1]' for stencil[1]\n",
	    "two: by name" },
};

int
main(void)
{
	size_t	k;

	model();
	{
		int	p[] = { 8, 0, 7, 1, 2, 3, 5, 9, 10 };

		list(p, 9, "master, stencil[1..3], stencil[5], stencil[7], "
		    "stencil[8], w[1] and w[2]", "a list: runs of 3 as ranges, "
		    "shorter ones by name, in the script's order");
	}
	{
		int	p[] = { 4, 3, 2, 1, 8, 7, 6, 5 };

		list(p, 8, "stencil[1..8]", "a list: the cycle's order undone");
	}
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		lines(cases[k].p, cases[k].q, cases[k].n, cases[k].note,
		    cases[k].want, cases[k].what);
	printf("1..%d\n", tap_n);
	return failed;
}
