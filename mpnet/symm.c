/* symm.c -- symmetry read from the script.  A component's processes in
 * index order, cut into blocks of b consecutive processes (a farm's
 * workers one by one, pairs two by two), are interchangeable when every
 * permutation of the blocks maps the net onto itself: the k-th process of
 * one block onto the k-th of the other, each of its ports onto the same
 * port, and every other process onto itself with its ports to the blocks
 * permuted alike.  The transpositions of neighbouring blocks generate every
 * permutation, so checking each of those on the net (symm_new) is enough:
 * the script's index structure proposes the blocks, the check decides,
 * and nothing is searched.
 *
 * Why it keeps every verdict.  An automorphism maps the net's initial
 * state to itself, its transitions to transitions and what the judge sees
 * to the same judgement (the same kind of violation, of the processes
 * mapped), so it maps reachable states to reachable states of the same
 * judgement.  The search stores one state per orbit (symm_canon: the
 * blocks sorted by what they hold) and goes on from it; a path w from a
 * state s to a bad state u becomes, from the canonical form p(s), the
 * path p(w) to p(u), as bad, of the same length: explore.c's argument
 * for the stubborn sets and their proviso runs on the states stored, with
 * the path mapped at each step, and ends at a state as bad as u.  A
 * counterexample is rebuilt as a run of the real processes: from the
 * initial state, each step is the transition whose successor has the
 * next stored state as its canonical form (explore.c's rebuild).
 *
 * What moves with a block: its processes' pc, counters and requests,
 * the open collectives each has left, the counts of the channels it sends
 * on and of those it receives on from processes of no block (a pool of
 * its own once), and the order of the messages of the ordered groups of
 * those channels.  What stays: every other process's state, the pools of
 * the processes of no block (one count for all their channels: the
 * permutation keeps it), the collectives' log.  The check makes sure that
 * is all: no channel between two blocks, no collective rooted in a block
 * and no group's collective, and a process of no block whose ports to
 * the blocks are permuted uses them only through wildcards over all of
 * them (a 'recv any', a pending 'irecv any'; not a probe that names the
 * port it found, whose counter would have to be permuted too).
 *
 * Rings and tori up to rotation.  A component with no blocks whose
 * processes in index order are the nodes of a ring (A = 1) or of an
 * A x B torus row by row, channels between nodes allowed, is taken up
 * to the cyclic shifts of the index in each dimension when the shift by
 * one in each dimension maps the net onto itself (rot_ok: each node onto
 * its image with the same program, each port onto the same port, each
 * channel onto one alike whose other end is the image of this one's;
 * every process of no family fixed, its ports to the nodes permuted
 * alike and its program the same once they are; no collective rooted in
 * a node or over a group).  The two shifts generate the group of
 * rotations, so each rotation is an automorphism, and the argument above
 * holds word for word: one state an orbit, the path mapped at each step,
 * the stubborn sets and the proviso on the states stored, the
 * counterexample rebuilt.  No other permutation is taken.  What moves
 * with a node (node_fields): its process's pc, counters, requests and
 * collectives' offsets, the channels it receives on (their count, or
 * its pool's, and their ordered group) and those it sends on to
 * processes of no family; every channel between nodes thus moves with
 * its receiver.  The canonical form (canon_rot1) is the rotation whose
 * sequence of node keys, read column by column, is least: for each row
 * shift the least column shift by the least-rotation algorithm (O(B)
 * column comparisons), the least of those A: O(A * A * B) key
 * comparisons a state, a ring O(N), besides reading the N keys. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "semstate.h"
#include "symm.h"
#include "xmalloc.h"

/* The most processes a block has. */
#define BLOCK_MOST	8

/* The most blocks a step may change for symm_canon's incremental form. */
#define CHANGED_MOST	8

/* The most nodes a ring or torus is taken up to rotation with.  Its
 * canonical form costs O(N) key comparisons a successor (canon_rot1) and
 * the rebuild of a counterexample O(N) successors a step: past a few
 * dozen nodes that costs more than the orbits save (po-ringany's 1000
 * nodes: 7 CPU s without, 186 s with, most of it the rebuild), while the
 * rings that rotations shrink (double buffering with a choice of send
 * mode: 2,090,568 -> 358,481 states at 6) are out of reach anyway past
 * ten nodes.  A speed limit, not a soundness one: a larger ring is
 * searched without. */
#define ROT_MOST	16

/* A family of n interchangeable blocks of b processes each: block i is
 * procs[i * b .. (i + 1) * b); its nf fields are f[i * nf .. (i + 1) * nf),
 * the k-th of every block alike (same width, the one the permutation
 * maps to the other), kw words of key a block. */
struct symset {
	int		 n, b;
	int		*procs;
	int		 nf;
	struct fld	*f;
	int		 kw;
	uint64_t	*kc;		/* the base's keys (symm_canon), block j's
					 * at kc[j * kw], valid where kgen[j] is
					 * gen */
	uint32_t	*kgen, gen;
	/* Rotations (rot): the n processes, b 1, are a torus of A x B in
	 * index order, node (a, c) procs[a * B + c] (a ring: A 1), and the
	 * group is the cyclic shifts in each dimension, not every
	 * permutation. */
	int		 rot, A, B;
};

/* A block a word of the state holds a field of. */
struct wblk {
	int		 fam, blk;
};

struct symm {
	struct symset	*set;
	int		 nset;
	int		*fam, *bof, *pof;	/* per process: its family (-1:
					 * none), block, place in the block */
	uint64_t	*keys;		/* scratch: a family's keys */
	int		*ord, *tmp;	/* scratch: the blocks sorted */
	size_t		 keyalloc, ordalloc;
	char		*text;
	/* The incremental canonical form (symm_canon): the blocks with a
	 * field in word i, wb[wstart[i] .. wstart[i + 1]); the canonical
	 * state the last successors came from (base_ok: it holds one). */
	int		*wstart;
	struct wblk	*wb;
	uint32_t	 words, bytes;
	uint64_t	*base;
	int		 base_ok;
	uint64_t	*nk;		/* scratch: the changed blocks' new keys,
					 * kwmost words each */
	int		 kwmost;
};

/* The check of one transposition: per process its block (-1: none) and
 * its place there; sig[p] (room for its ports, NULL: the identity) the
 * ports of p, a process of no block, swapped alike. */
struct tcheck {
	const struct sem *m;
	int		*blk, *pos;
	int		**sig;
	int		*touched, ntouched;
};

/* Record that p's local port a goes to b and b to a; 0, or -1 when p's
 * ports are swapped otherwise already. */
static int
sig_pair(struct tcheck *c, int p, int a, int b)
{
	const struct sproc	*sp = &c->m->p[p];
	int			 k, nlp = sp->pr != NULL ? sp->pr->nlp : 0;

	if (a >= nlp || b >= nlp)
		return -1;
	if (c->sig[p] == NULL) {
		c->sig[p] = xmalloc(sizeof(int) * (size_t)(nlp > 0 ? nlp : 1));
		for (k = 0; k < nlp; k++)
			c->sig[p][k] = k;
		c->touched[c->ntouched++] = p;
	}
	if ((c->sig[p][a] != a && c->sig[p][a] != b) ||
	    (c->sig[p][b] != b && c->sig[p][b] != a))
		return -1;
	c->sig[p][a] = b;
	c->sig[p][b] = a;
	return 0;
}

/* Whether directed channels x and y (x's image) look alike to the
 * search: the same width, bound and use, synchronous sends on both or
 * neither, pooled alike, in ordered groups at the same place. */
static int
dc_alike(const struct sem *m, int x, int y)
{
	const struct mpnet	*n = m->net;

	if (m->dc[x].w != m->dc[y].w || n->dc[x].used != n->dc[y].used ||
	    n->dc[x].bound != n->dc[y].bound || m->rdv[x] != m->rdv[y] ||
	    (m->pool[x] >= 0) != (m->pool[y] >= 0))
		return 0;
	if (m->gof == NULL)
		return 1;
	if ((m->gof[x] >= 0) != (m->gof[y] >= 0))
		return 0;
	return m->gof[x] < 0 || (m->glabel[x] == m->glabel[y] &&
	    m->grp[m->gof[x]].n == m->grp[m->gof[y]].n);
}

/* The process the transposition of blocks ba and bb maps p to. */
static int
image(const struct tcheck *c, const int *procs, int b, int ba, int bb, int p)
{
	if (c->blk[p] == ba)
		return procs[bb * b + c->pos[p]];
	if (c->blk[p] == bb)
		return procs[ba * b + c->pos[p]];
	return p;
}

/* Whether directed channel x, of port lp of a process of block ba, goes
 * to channel y of the same port of its image (the k-th of bb) under the
 * transposition: its other end, in a block, the image of x's other end
 * at the same port; of no block, the same process, whose ports are then
 * swapped (sig).  'out': x, y are sent on, else received on. */
static int
dc_maps(struct tcheck *c, const int *procs, int b, int ba, int bb, int x,
    int y, int out)
{
	const struct dchan	*dx = &c->m->net->dc[x], *dy = &c->m->net->dc[y];
	int			 ox = out ? dx->to : dx->from;
	int			 oy = out ? dy->to : dy->from;
	int			 lx = out ? dx->to_lp : dx->from_lp;
	int			 ly = out ? dy->to_lp : dy->from_lp;

	if (!dc_alike(c->m, x, y))
		return 0;
	if (c->blk[ox] >= 0) {
		if (c->blk[ox] != ba && c->blk[ox] != bb)
			return 0;	/* (to a third block: never in a
					 * family, see symm_new) */
		return oy == image(c, procs, b, ba, bb, ox) && lx == ly;
	}
	if (oy != ox)
		return 0;
	/* A pool of a process of no block: the same one. */
	if (out && c->m->pool[x] >= 0 && c->m->pool[x] != c->m->pool[y])
		return 0;
	return lx == ly || sig_pair(c, ox, lx, ly) == 0;
}

/* Whether ports lo..hi of p, swapped as sig says, are the same set. */
static int
range_kept(const int *sig, int lo, int hi)
{
	int	lp;

	for (lp = lo; lp < hi; lp++)
		if (sig[lp] < lo || sig[lp] >= hi)
			return 0;
	return 1;
}

/* Whether p's program is the same once its ports are swapped as sig says:
 * every port it names alone is kept, every wildcard's range is mapped onto
 * itself, and no probe names a port it finds among those swapped. */
static int
prog_kept(const struct prog *pr, const int *sig)
{
	int	k;

	for (k = 0; k < pr->nins; k++) {
		const struct ins	*in = &pr->ins[k];

		switch (in->op) {
		case OP_SEND:
		case OP_RECV:
		case OP_ISEND:
		case OP_IRECV:
		case OP_PROBE:
		case OP_IPROBE:
			if (sig[in->lp] != in->lp)
				return 0;
			break;
		case OP_RECVANY:
		case OP_IRECVANY:
			if (!range_kept(sig, in->lo, in->hi))
				return 0;
			break;
		case OP_PROBEANY:
		case OP_IPROBEANY:
			if (!range_kept(sig, in->lo, in->hi))
				return 0;
			if (in->ctr >= 0) {	/* (its counter holds a port) */
				int	lp;

				for (lp = in->lo; lp < in->hi; lp++)
					if (sig[lp] != lp)
						return 0;
			}
			break;
		default:
			break;
		}
	}
	for (k = 0; k < pr->nsd; k++) {
		const struct slotdesc	*d = &pr->sd[k];

		if (d->kind == SD_RECVANY ? !range_kept(sig, d->lo, d->hi) :
		    sig[d->lp] != d->lp)
			return 0;
	}
	return 1;
}

/* Whether swapping blocks ba and bb of procs (b processes each) maps the
 * net onto itself. */
static int
swap_ok(struct tcheck *c, const int *procs, int b, int ba, int bb)
{
	const struct sem	*m = c->m;
	const struct mpnet	*n = m->net;
	int			 k, lp, ok = 1, i;

	for (k = 0; k < b && ok; k++) {
		int			 pa = procs[ba * b + k], pb = procs[bb * b + k];
		const struct sproc	*sa = &m->p[pa], *sb = &m->p[pb];

		if (sa->pr == NULL || sa->pr != sb->pr) {
			ok = 0;		/* the ports swapped so far freed below */
			break;
		}
		for (lp = 0; lp < sa->pr->nlp && ok; lp++) {
			int	xs = n->send_dc[sa->portbase + lp];
			int	ys = n->send_dc[sb->portbase + lp];
			int	xr = n->recv_dc[sa->portbase + lp];
			int	yr = n->recv_dc[sb->portbase + lp];

			if ((xs < 0) != (ys < 0) || (xr < 0) != (yr < 0))
				ok = 0;
			else if (xs >= 0 && (!dc_maps(c, procs, b, ba, bb, xs, ys, 1) ||
			    !dc_maps(c, procs, b, bb, ba, ys, xs, 1)))
				ok = 0;
			else if (xr >= 0 && (!dc_maps(c, procs, b, ba, bb, xr, yr, 0) ||
			    !dc_maps(c, procs, b, bb, ba, yr, xr, 0)))
				ok = 0;
		}
	}
	for (i = 0; i < c->ntouched && ok; i++) {
		int	p = c->touched[i];

		ok = prog_kept(m->p[p].pr, c->sig[p]);
	}
	for (i = 0; i < c->ntouched; i++) {
		free(c->sig[c->touched[i]]);
		c->sig[c->touched[i]] = NULL;
	}
	c->ntouched = 0;
	return ok;
}

/* Record that p's local port a goes to b under a permutation (rot_ok):
 * sig[p] holds its ports' images (-1: none yet) and, after them, their
 * inverse; 0, or -1 when a or b is mapped otherwise already. */
static int
sig_map(struct tcheck *c, int p, int a, int b)
{
	const struct sproc	*sp = &c->m->p[p];
	int			 k, nlp = sp->pr != NULL ? sp->pr->nlp : 0;

	if (a >= nlp || b >= nlp)
		return -1;
	if (c->sig[p] == NULL) {
		c->sig[p] = xmalloc(sizeof(int) * (size_t)(2 * nlp));
		for (k = 0; k < 2 * nlp; k++)
			c->sig[p][k] = -1;
		c->touched[c->ntouched++] = p;
	}
	if ((c->sig[p][a] >= 0 && c->sig[p][a] != b) ||
	    (c->sig[p][nlp + b] >= 0 && c->sig[p][nlp + b] != a))
		return -1;
	c->sig[p][a] = b;
	c->sig[p][nlp + b] = a;
	return 0;
}

/* Whether the permutation img of the family's processes (blk >= 0; img[p]
 * p's image) maps the net onto itself: each process onto one with the same
 * program, each of its ports onto the same port, each channel onto one
 * alike (dc_alike: a pool's channels onto a pool's, the same ports of a
 * receiver with the same program) whose other end is the image of this
 * one's; every process of no family fixed, its ports to the family
 * permuted alike, its program the same once they are (prog_kept).  The
 * permutation need not be a transposition (a rotation). */
static int
rot_ok(struct tcheck *c, const int *procs, int cnt, const int *img)
{
	const struct sem	*m = c->m;
	const struct mpnet	*n = m->net;
	int			 i, lp, dir, ok = 1, k, nlp;

	for (i = 0; i < cnt && ok; i++) {
		int			 pa = procs[i], pb = img[pa];
		const struct sproc	*sa = &m->p[pa], *sb = &m->p[pb];

		if (sa->pr == NULL || sa->pr != sb->pr) {
			ok = 0;
			break;
		}
		for (lp = 0; lp < sa->pr->nlp && ok; lp++)
			for (dir = 0; dir < 2 && ok; dir++) {
				int	x = dir == 0 ? n->send_dc[sa->portbase + lp] :
				    n->recv_dc[sa->portbase + lp];
				int	y = dir == 0 ? n->send_dc[sb->portbase + lp] :
				    n->recv_dc[sb->portbase + lp];
				int	ox, oy, lx, ly;

				if ((x < 0) != (y < 0)) {
					ok = 0;
					break;
				}
				if (x < 0)
					continue;
				if (!dc_alike(m, x, y)) {
					ok = 0;
					break;
				}
				ox = dir == 0 ? n->dc[x].to : n->dc[x].from;
				oy = dir == 0 ? n->dc[y].to : n->dc[y].from;
				lx = dir == 0 ? n->dc[x].to_lp : n->dc[x].from_lp;
				ly = dir == 0 ? n->dc[y].to_lp : n->dc[y].from_lp;
				if (c->blk[ox] >= 0)
					ok = oy == img[ox] && lx == ly;
				else if (oy != ox)
					ok = 0;
				else if (dir == 0 && m->pool[x] >= 0 &&
				    m->pool[x] != m->pool[y])
					ok = 0;	/* (a pool of no family's: the same) */
				else
					ok = sig_map(c, ox, lx, ly) == 0;
			}
	}
	/* Each process of no family: its ports permuted (those it has to the
	 * family onto themselves, every other one fixed), its program the
	 * same. */
	for (i = 0; i < c->ntouched && ok; i++) {
		int	p = c->touched[i], *sg = c->sig[p];

		nlp = m->p[p].pr->nlp;
		for (k = 0; k < nlp && ok; k++)
			if (sg[k] < 0) {
				if (sg[nlp + k] >= 0)
					ok = 0;
				else
					sg[k] = sg[nlp + k] = k;
			}
		if (ok)
			ok = prog_kept(m->p[p].pr, sg);
	}
	for (i = 0; i < c->ntouched; i++) {
		free(c->sig[c->touched[i]]);
		c->sig[c->touched[i]] = NULL;
	}
	c->ntouched = 0;
	return ok;
}

/* Add field f, cut into pieces of 64 bits at most, to a block's list
 * (f, nf, alloc), unless a field at its offset is there already (a
 * channel within the block, seen from both ends). */
static void
field_add(struct fld **f, int *nf, size_t *alloc, uint32_t off, uint32_t w)
{
	int		k;
	struct fld	x;

	for (k = 0; k < *nf; k++)
		if ((*f)[k].off == off)
			return;
	while (w > 0) {
		x.off = off;
		x.w = (uint8_t)(w > 64 ? 64 : w);
		xgrow(f, alloc, (size_t)*nf + 1, sizeof(**f));
		(*f)[(*nf)++] = x;
		off += x.w;
		w -= x.w;
	}
}

/* What moves with block i of a family (see the top): its fields into
 * f, nf. */
static void
block_fields(const struct sem *m, const int *blk, const int *procs, int b,
    int i, struct fld **f, int *nf, size_t *alloc)
{
	const struct mpnet	*n = m->net;
	int			 k, lp, j, d, g, dir;

	for (k = 0; k < b; k++) {
		int			 p = procs[i * b + k];
		const struct sproc	*sp = &m->p[p];

		field_add(f, nf, alloc, sp->pc.off, sp->slot +
		    (uint32_t)sp->wslot * (uint32_t)sp->pr->nslots - sp->pc.off);
		for (j = 0; m->clog > 0 && j < m->nlog; j++)
			if (m->coff[(size_t)p * m->nlog + j].w > 0)
				field_add(f, nf, alloc,
				    m->coff[(size_t)p * m->nlog + j].off,
				    m->coff[(size_t)p * m->nlog + j].w);
		for (lp = 0; lp < sp->pr->nlp; lp++)
			for (dir = 0; dir < 2; dir++) {
				d = dir == 0 ? n->send_dc[sp->portbase + lp] :
				    n->recv_dc[sp->portbase + lp];
				if (d < 0 || m->dc[d].w == 0)
					continue;
				if (m->pool[d] >= 0) {
					/* One count for the receiver's pool:
					 * the block's only when it is. */
					if (blk[n->dc[d].to] < 0)
						continue;
					d = m->pool[d];
				}
				field_add(f, nf, alloc, m->dc[d].off, m->dc[d].w);
				if (m->gof == NULL || (g = m->gof[d]) < 0)
					continue;
				field_add(f, nf, alloc, m->grp[g].len.off,
				    m->grp[g].len.w);
				if (m->grp[g].cap > 0)
					field_add(f, nf, alloc, m->grp[g].q,
					    (uint32_t)m->grp[g].cap * m->grp[g].lw);
			}
	}
}

/* What moves with node i of a rotation family (see the top): its
 * process's pc, counters, requests and collectives' offsets; the channels
 * it receives on (a count, or its pool's once, and their ordered group);
 * the channels it sends on to processes of no family (not pooled: a
 * pool of theirs stays) and their group. */
static void
node_fields(const struct sem *m, const int *blk, const int *procs, int i,
    struct fld **f, int *nf, size_t *alloc)
{
	const struct mpnet	*n = m->net;
	const struct sproc	*sp = &m->p[procs[i]];
	int			 p = procs[i], lp, j, d, g, dir;

	field_add(f, nf, alloc, sp->pc.off, sp->slot +
	    (uint32_t)sp->wslot * (uint32_t)sp->pr->nslots - sp->pc.off);
	for (j = 0; m->clog > 0 && j < m->nlog; j++)
		if (m->coff[(size_t)p * m->nlog + j].w > 0)
			field_add(f, nf, alloc, m->coff[(size_t)p * m->nlog + j].off,
			    m->coff[(size_t)p * m->nlog + j].w);
	for (lp = 0; lp < sp->pr->nlp; lp++)
		for (dir = 0; dir < 2; dir++) {
			d = dir == 0 ? n->recv_dc[sp->portbase + lp] :
			    n->send_dc[sp->portbase + lp];
			if (d < 0 || m->dc[d].w == 0)
				continue;
			if (dir == 1 && (blk[n->dc[d].to] >= 0 || m->pool[d] >= 0))
				continue;
			if (m->pool[d] >= 0)
				d = m->pool[d];
			field_add(f, nf, alloc, m->dc[d].off, m->dc[d].w);
			if (m->gof == NULL || (g = m->gof[d]) < 0)
				continue;
			field_add(f, nf, alloc, m->grp[g].len.off, m->grp[g].len.w);
			if (m->grp[g].cap > 0)
				field_add(f, nf, alloc, m->grp[g].q,
				    (uint32_t)m->grp[g].cap * m->grp[g].lw);
		}
}

/* Whether a process of the family (blk >= 0) has a channel to a process
 * of another block of it, or to a process of another family (mark). */
static int
crosses(const struct sem *m, const int *blk, const int *procs, int nb, int b,
    const unsigned char *other)
{
	const struct mpnet	*n = m->net;
	int			 i, d, o;

	for (i = 0; i < nb * b; i++) {
		int	p = procs[i];

		for (d = 0; d < n->ndc; d++) {
			if (n->dc[d].from != p && n->dc[d].to != p)
				continue;
			o = n->dc[d].from == p ? n->dc[d].to : n->dc[d].from;
			if (other[o] || (blk[o] >= 0 && blk[o] != blk[p]))
				return 1;
		}
	}
	return 0;
}

/* Whether a collective of the net stands in the way: one over a group,
 * or one rooted at a process of the family. */
static int
colls_forbid(const struct sem *m, const int *blk)
{
	const struct mpnet	*n = m->net;
	int			 k;

	for (k = 0; k < n->ncolls; k++)
		if (n->colls[k].group >= 0 ||
		    (n->colls[k].root >= 0 && blk[n->colls[k].root] >= 0))
			return 1;
	return 0;
}

/* The blocks each word of a state holds fields of (sy->wstart, sy->wb),
 * for symm_canon's incremental form, and the room it needs. */
static void
word_map(struct symm *sy, const struct sem *m)
{
	int		 i, j, k, pass, *fill;
	uint32_t	 w, lo, hi;

	sy->words = m->words;
	sy->bytes = m->bytes;
	sy->wstart = xcalloc((size_t)m->words + 1, sizeof(int));
	fill = xcalloc((size_t)m->words + 1, sizeof(int));
	sy->base = xcalloc(m->words > 0 ? m->words : 1, sizeof(uint64_t));
	/* Twice: count the blocks of each word, then list them. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < sy->nset; i++) {
			const struct symset	*fs = &sy->set[i];

			if (fs->rot)
				continue;	/* (canon_rot: every node) */
			for (j = 0; j < fs->n; j++)
				for (k = 0; k < fs->nf; k++) {
					const struct fld *f = &fs->f[(size_t)j * fs->nf + k];

					lo = f->off >> 6;
					hi = (f->off + f->w - 1) >> 6;
					for (w = lo; w <= hi && w < m->words; w++) {
						if (pass == 0) {
							sy->wstart[w + 1]++;
							continue;
						}
						sy->wb[fill[w]].fam = i;
						sy->wb[fill[w]++].blk = j;
					}
				}
		}
		if (pass == 0) {
			for (w = 0; w < m->words; w++) {
				sy->wstart[w + 1] += sy->wstart[w];
				fill[w] = sy->wstart[w];
			}
			sy->wb = xcalloc(sy->wstart[m->words] > 0 ?
			    (size_t)sy->wstart[m->words] : 1, sizeof(*sy->wb));
		}
	}
	free(fill);
	for (i = 0, k = 1; i < sy->nset; i++) {
		struct symset	*fs = &sy->set[i];

		fs->kc = xcalloc((size_t)fs->n * fs->kw, sizeof(uint64_t));
		fs->kgen = xcalloc((size_t)fs->n, sizeof(uint32_t));
		fs->gen = 1;
		if (fs->kw > k)
			k = fs->kw;
	}
	sy->kwmost = k;
	sy->nk = xcalloc((size_t)k * CHANGED_MOST, sizeof(uint64_t));
}

/* Add the family of cnt processes list, in blocks of b (rot: nodes of a
 * torus of A x B), to sy (NULL: a new one); 0, or -1 when its nodes'
 * fields do not line up (then nothing is added). */
static int
family_add(struct symm **syp, const struct sem *m, const int *blk,
    const int *list, int cnt, int b, int rot, int A, int B)
{
	const struct mpnet	*n = m->net;
	const struct pcg	*g = n->pcg;
	struct symm		*sy = *syp;
	struct symset		*fs, x;
	struct fld		*fone = NULL;
	int			 i, j, p, nb = cnt / b, nf;
	size_t			 alloc = 0, oalloc = 0;
	char			 first[PCG_NAME_MAX], last[PCG_NAME_MAX], *one;

	memset(&x, 0, sizeof(x));
	x.n = nb;
	x.b = b;
	x.rot = rot;
	x.A = A;
	x.B = B;
	if (rot)
		node_fields(m, blk, list, 0, &x.f, &x.nf, &alloc);
	else
		block_fields(m, blk, list, b, 0, &x.f, &x.nf, &alloc);
	x.f = xreallocarray(x.f, (size_t)x.nf * (size_t)nb + 1, sizeof(*x.f));
	for (i = 1; i < nb; i++) {
		nf = 0;
		if (rot)
			node_fields(m, blk, list, i, &fone, &nf, &oalloc);
		else
			block_fields(m, blk, list, b, i, &fone, &nf, &oalloc);
		for (j = 0; j < x.nf && nf == x.nf; j++)
			if (fone[j].w != x.f[j].w)
				break;
		if (nf != x.nf || j < x.nf) {
			free(fone);
			free(x.f);
			return -1;
		}
		for (j = 0; j < x.nf; j++)
			x.f[i * x.nf + j] = fone[j];
	}
	free(fone);
	for (i = 0, x.kw = 0; i < x.nf; i++)
		x.kw += x.f[i].w;
	x.kw = (x.kw + 63) / 64 + 1;
	x.procs = xmalloc(sizeof(int) * (size_t)cnt);
	memcpy(x.procs, list, sizeof(int) * (size_t)cnt);
	if (sy == NULL)
		*syp = sy = xcalloc(1, sizeof(*sy));
	sy->set = xreallocarray(sy->set, (size_t)sy->nset + 1, sizeof(*sy->set));
	fs = &sy->set[sy->nset++];
	*fs = x;
	if (sy->fam == NULL) {
		sy->fam = xmalloc(sizeof(int) * (size_t)n->nprocs);
		sy->bof = xcalloc((size_t)n->nprocs, sizeof(int));
		sy->pof = xcalloc((size_t)n->nprocs, sizeof(int));
		for (p = 0; p < n->nprocs; p++)
			sy->fam[p] = -1;
	}
	for (i = 0; i < cnt; i++) {
		sy->fam[list[i]] = sy->nset - 1;
		sy->bof[list[i]] = i / b;
		sy->pof[list[i]] = i % b;
	}
	/* "node[1" and "16]": "node[1..16]" */
	pcg_proc_name(g, list[0], first, sizeof(first));
	pcg_proc_name(g, list[cnt - 1], last, sizeof(last));
	if (strchr(first, ']') != NULL)
		*strchr(first, ']') = '\0';
	one = sy->text;
	xasprintf(&sy->text, "%s%s%s%s..%s%s", one != NULL ? one : "",
	    one != NULL ? ", " : "", rot ? "rotations of " : "", first,
	    strchr(last, '[') != NULL ? strchr(last, '[') + 1 : last,
	    rot || b == 1 ? "" : b == 2 ? " in pairs" : " in blocks");
	free(one);
	if (b > 2 || (rot && A > 1)) {
		one = sy->text;
		if (rot)
			xasprintf(&sy->text, "%s as %d x %d", one, A, B);
		else
			xasprintf(&sy->text, "%s of %d", one, b);
		free(one);
	}
	return 0;
}

/* Whether the cnt processes list (blk 0, the rest -1) are the nodes of a
 * torus of A x B in index order (a ring: A 1) whose shifts by one in
 * each dimension map the net onto itself (img: scratch, a process's
 * image). */
static int
torus_ok(struct tcheck *c, const int *list, int cnt, int A, int B, int *img)
{
	int	a, k;

	if (A * B != cnt || B < 2)
		return 0;
	for (a = 0; a < A; a++)
		for (k = 0; k < B; k++)
			img[list[a * B + k]] = list[a * B + (k + 1) % B];
	if (!rot_ok(c, list, cnt, img))
		return 0;
	if (A < 2)
		return 1;
	for (a = 0; a < A; a++)
		for (k = 0; k < B; k++)
			img[list[a * B + k]] = list[(a + 1) % A * B + k];
	return rot_ok(c, list, cnt, img);
}

struct symm *
symm_new(const struct sem *m)
{
	const struct mpnet	*n = m->net;
	const struct pcg	*g = n->pcg;
	struct symm		*sy = NULL;
	struct tcheck		 c;
	unsigned char		*other;
	int			*list, *img, cnt, comp, b, i, p, nb, ok, found;

	if (n->nprocs < 2)
		return NULL;
	memset(&c, 0, sizeof(c));
	c.m = m;
	c.blk = xmalloc(sizeof(int) * (size_t)n->nprocs);
	c.pos = xcalloc((size_t)n->nprocs, sizeof(int));
	c.sig = xcalloc((size_t)n->nprocs, sizeof(int *));
	c.touched = xcalloc((size_t)n->nprocs, sizeof(int));
	other = xcalloc((size_t)n->nprocs, 1);
	list = xmalloc(sizeof(int) * (size_t)n->nprocs);
	img = xmalloc(sizeof(int) * (size_t)n->nprocs);
	for (comp = 0; comp < g->ncomps; comp++) {
		for (cnt = 0, p = 0; p < n->nprocs; p++)
			if (g->procs[p].comp == comp)
				list[cnt++] = p;
		for (found = 0, b = 1; b <= BLOCK_MOST && 2 * b <= cnt; b++) {
			if (cnt % b != 0)
				continue;
			nb = cnt / b;
			for (p = 0; p < n->nprocs; p++)
				c.blk[p] = -1;
			for (i = 0; i < cnt; i++) {
				c.blk[list[i]] = i / b;
				c.pos[list[i]] = i % b;
			}
			ok = !colls_forbid(m, c.blk) &&
			    !crosses(m, c.blk, list, nb, b, other);
			for (i = 0; i + 1 < nb && ok; i++)
				ok = swap_ok(&c, list, b, i, i + 1);
			if (ok && family_add(&sy, m, c.blk, list, cnt, b, 0, 1,
			    nb) == 0) {
				found = 1;
				break;
			}
		}
		/* Else the nodes of a ring or a torus, up to rotation: a
		 * ring first, then a torus of A x B for each B that divides
		 * the processes (the first whose shifts are automorphisms). */
		if (!found && cnt >= 2 && cnt <= ROT_MOST) {
			for (p = 0; p < n->nprocs; p++)
				c.blk[p] = -1;
			for (i = 0; i < cnt; i++) {
				c.blk[list[i]] = 0;
				c.pos[list[i]] = i;
			}
			ok = !colls_forbid(m, c.blk) &&
			    !crosses(m, c.blk, list, 1, cnt, other);
			for (b = cnt; b >= 2 && ok && !found; b--)
				if (cnt % b == 0 && (b == cnt || cnt / b >= 2) &&
				    torus_ok(&c, list, cnt, cnt / b, b, img) &&
				    family_add(&sy, m, c.blk, list, cnt, 1, 1,
				    cnt / b, b) == 0)
					found = 1;
		}
		if (found)
			for (i = 0; i < cnt; i++)
				other[list[i]] = 1;
	}
	free(list);
	free(img);
	free(other);
	free(c.blk);
	free(c.pos);
	free(c.sig);
	free(c.touched);
	if (sy != NULL)
		word_map(sy, m);
	return sy;
}

void
symm_free(struct symm *sy)
{
	int	i;

	if (sy == NULL)
		return;
	for (i = 0; i < sy->nset; i++) {
		free(sy->set[i].procs);
		free(sy->set[i].f);
		free(sy->set[i].kc);
		free(sy->set[i].kgen);
	}
	free(sy->wstart);
	free(sy->wb);
	free(sy->base);
	free(sy->nk);
	free(sy->set);
	free(sy->fam);
	free(sy->bof);
	free(sy->pof);
	free(sy->keys);
	free(sy->ord);
	free(sy->tmp);
	free(sy->text);
	free(sy);
}

const char *
symm_text(const struct symm *sy)
{
	return sy != NULL && sy->text != NULL ? sy->text : "";
}

/* Block i's key: its fields' values one after another, kw words. */
static void
key_of(const struct symset *fs, const uint64_t *s, int i, uint64_t *key)
{
	const struct fld	*f = fs->f + (size_t)i * fs->nf;
	uint32_t		 at = 0;
	uint64_t		 v;
	int			 k;

	memset(key, 0, sizeof(uint64_t) * (size_t)fs->kw);
	for (k = 0; k < fs->nf; k++) {
		v = sem_get(s, f[k]);
		key[at >> 6] |= v << (at & 63);
		if ((at & 63) + f[k].w > 64)
			key[(at >> 6) + 1] |= v >> (64 - (at & 63));
		at += f[k].w;
	}
}

/* Put a key back into block j's fields. */
static void
key_put(const struct symset *fs, uint64_t *s, int j, const uint64_t *key)
{
	const struct fld	*f = fs->f + (size_t)j * fs->nf;
	uint32_t		 at = 0;
	uint64_t		 v;
	int			 k;

	for (k = 0; k < fs->nf; k++) {
		v = key[at >> 6] >> (at & 63);
		if ((at & 63) + f[k].w > 64)
			v |= key[(at >> 6) + 1] << (64 - (at & 63));
		if (f[k].w < 64)
			v &= (1ULL << f[k].w) - 1;
		sem_set(s, f[k], v);
		at += f[k].w;
	}
}

static int
key_cmp(const uint64_t *a, const uint64_t *b, int kw)
{
	int	k;

	for (k = kw - 1; k >= 0; k--)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

/* The lines of a rotation family's keys (sy->keys, node (a, c) at
 * a * B + c): line c is the nodes (a, c) for a = 0 .. A - 1, read from
 * row d on.  Line c1 read from row d1 against line c2 read from row d2. */
static int
line_cmp(const struct symm *sy, const struct symset *fs, int d1, int c1,
    int d2, int c2)
{
	int	a, r, A = fs->A, B = fs->B, kw = fs->kw;

	for (a = 0; a < A; a++) {
		r = key_cmp(sy->keys + (size_t)(((a + d1) % A) * B + c1) * kw,
		    sy->keys + (size_t)(((a + d2) % A) * B + c2) * kw, kw);
		if (r != 0)
			return r;
	}
	return 0;
}

/* The canonical form under a rotation family's shifts: of the A x B
 * arrangements of its nodes' keys (a node's key: what moves with it,
 * node_fields), the least read column by column.  For each row shift
 * da, the least column shift by the least rotation of the sequence of
 * B columns (two candidates i, j and a length k matched so far: the
 * candidate whose k-th column is above the other's cannot start the
 * least rotation, nor can any of the k after it; O(B) column
 * comparisons), then the least of those A candidates: O(A * A * B) key
 * comparisons, a ring O(N).  Returns where p went. */
static int
canon_rot1(struct symm *sy, struct symset *fs, uint64_t *s, int p)
{
	int	n = fs->n, kw = fs->kw, A = fs->A, B = fs->B;
	int	da, i, j, k, r, c, best_a = 0, best_c = 0, a, img = p;

	xgrow(&sy->keys, &sy->keyalloc, (size_t)n * kw, sizeof(uint64_t));
	for (j = 0; j < n; j++)
		key_of(fs, s, j, sy->keys + (size_t)j * kw);
	for (da = 0; da < A; da++) {
		i = 0;
		j = 1;
		k = 0;
		while (i < B && j < B && k < B) {
			r = line_cmp(sy, fs, da, (i + k) % B, da, (j + k) % B);
			if (r == 0) {
				k++;
				continue;
			}
			if (r > 0)
				i += k + 1;
			else
				j += k + 1;
			if (i == j)
				j++;
			k = 0;
		}
		c = i < j ? i : j;
		if (da > 0) {
			for (k = 0, r = 0; k < B && r == 0; k++)
				r = line_cmp(sy, fs, da, (c + k) % B, best_a,
				    (best_c + k) % B);
			if (r >= 0)
				continue;
		}
		best_a = da;
		best_c = c;
	}
	if (best_a == 0 && best_c == 0)
		return img;
	/* Node (a, c) gets the key of (a + best_a, c + best_c). */
	for (a = 0; a < A; a++)
		for (c = 0; c < B; c++)
			key_put(fs, s, a * B + c, sy->keys + (size_t)(((a +
			    best_a) % A) * B + (c + best_c) % B) * kw);
	if (p >= 0 && sy->set + sy->fam[p] == fs) {
		a = sy->bof[p] / B;
		c = sy->bof[p] % B;
		img = fs->procs[((a - best_a + A) % A) * B + (c - best_c + B) % B];
	}
	return img;
}

/* Every rotation family's canonical form; p's image (img: where the
 * blocks put it). */
static int
canon_rot(struct symm *sy, uint64_t *s, int img)
{
	int	i;

	for (i = 0; i < sy->nset; i++)
		if (sy->set[i].rot)
			img = canon_rot1(sy, &sy->set[i], s, img);
	return img;
}

/* The canonical form of any state: every family's blocks sorted (a
 * stable merge sort). */
static int
canon_full(struct symm *sy, uint64_t *s, int p)
{
	int	i, j, w, lo, mid, hi, a, b, k, sorted, img = p;

	for (i = 0; i < sy->nset; i++) {
		const struct symset	*fs = &sy->set[i];
		int			 n = fs->n, kw = fs->kw;

		if (fs->rot)
			continue;
		xgrow(&sy->keys, &sy->keyalloc, (size_t)n * kw, sizeof(uint64_t));
		xgrow(&sy->ord, &sy->ordalloc, (size_t)n, sizeof(int));
		sy->tmp = xreallocarray(sy->tmp, (size_t)n, sizeof(int));
		sorted = 1;
		for (j = 0; j < n; j++) {
			key_of(fs, s, j, sy->keys + (size_t)j * kw);
			sy->ord[j] = j;
			if (j > 0 && key_cmp(sy->keys + (size_t)(j - 1) * kw,
			    sy->keys + (size_t)j * kw, kw) > 0)
				sorted = 0;
		}
		if (sorted)
			continue;
		/* Merge sort of the blocks by key, bottom up. */
		for (w = 1; w < n; w *= 2) {
			for (lo = 0; lo < n; lo += 2 * w) {
				mid = lo + w < n ? lo + w : n;
				hi = lo + 2 * w < n ? lo + 2 * w : n;
				for (a = lo, b = mid, k = lo; k < hi; k++)
					if (a < mid && (b >= hi || key_cmp(sy->keys +
					    (size_t)sy->ord[a] * kw, sy->keys +
					    (size_t)sy->ord[b] * kw, kw) <= 0))
						sy->tmp[k] = sy->ord[a++];
					else
						sy->tmp[k] = sy->ord[b++];
			}
			memcpy(sy->ord, sy->tmp, sizeof(int) * (size_t)n);
		}
		for (j = 0; j < n; j++) {
			key_put(fs, s, j, sy->keys + (size_t)sy->ord[j] * kw);
			if (p >= 0 && sy->fam[p] == i && sy->ord[j] == sy->bof[p])
				img = fs->procs[j * fs->b + sy->pof[p]];
		}
	}
	return canon_rot(sy, s, img);
}

/* Block j's key in the base state (symm_canon), computed once. */
static const uint64_t *
base_key(struct symm *sy, struct symset *fs, int j)
{
	uint64_t	*k = fs->kc + (size_t)j * fs->kw;

	if (fs->kgen[j] != fs->gen) {
		key_of(fs, sy->base, j, k);
		fs->kgen[j] = fs->gen;
	}
	return k;
}

/* The first block of lo..hi whose base key is above key ('eq': at or
 * above), hi if none (the base's keys are sorted). */
static int
base_search(struct symm *sy, struct symset *fs, int lo, int hi,
    const uint64_t *key, int eq)
{
	int	mid, c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = key_cmp(base_key(sy, fs, mid), key, fs->kw);
		if (c > 0 || (eq && c == 0))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The blocks of the first family whose base keys equal block j's, from j
 * on: the last of them. */
static int
run_end(struct symm *sy, struct symset *fs, int j)
{
	return base_search(sy, fs, j, fs->n, base_key(sy, fs, j), 0) - 1;
}

/* ... down from j: the first of them. */
static int
run_start(struct symm *sy, struct symset *fs, int j)
{
	return base_search(sy, fs, 0, j, base_key(sy, fs, j), 1);
}


/* The canonical form of s, a state one step from the canonical state
 * 'from' (NULL: any state, canon_full).  The same form, and the same
 * permutation, as canon_full's stable sort, at the cost of what changed:
 * the words where s differs from 'from' name the blocks that may have
 * changed (sy->wb), their keys say which did; where one block a of a
 * family did, every other block of it kept its key, in order, and the
 * stable sort moves a to b, past the blocks between, which shift by one
 * towards a.  Only where a shifted block's key differs from its
 * neighbour's does the state change (a run of equal keys shifted by one
 * differs at its ends), and the base's keys, sorted, are found by binary
 * search, each computed once for all the successors of 'from': the cost
 * is that of the runs passed, not of the family.  Two blocks of a family
 * or more changed (a step every process takes at once): canon_full. */
int
symm_canon(struct symm *sy, const struct sem *m, uint64_t *s, int p,
    const uint64_t *from)
{
	struct wblk	 ch[CHANGED_MOST];
	int		 nch = 0, i, k, j, a, b, c, e, img = p, fam[CHANGED_MOST];
	uint32_t	 w;
	uint64_t	*nk;

	(void)m;
	if (from == NULL || sy->wb == NULL)
		return canon_full(sy, s, p);
	if (sy->wstart[sy->words] == 0)
		return canon_rot(sy, s, p);	/* (no blocks) */
	if (!sy->base_ok || memcmp(from, sy->base, sy->bytes) != 0) {
		memcpy(sy->base, from, sizeof(uint64_t) * sy->words);
		sy->base_ok = 1;
		for (i = 0; i < sy->nset; i++)
			if (++sy->set[i].gen == 0) {
				memset(sy->set[i].kgen, 0, sizeof(uint32_t) *
				    (size_t)sy->set[i].n);
				sy->set[i].gen = 1;
			}
	}
	/* The blocks whose keys changed, at most one a family. */
	for (w = 0; w < sy->words; w++) {
		if (s[w] == sy->base[w])
			continue;
		for (k = sy->wstart[w]; k < sy->wstart[w + 1]; k++) {
			struct symset	*fs = &sy->set[sy->wb[k].fam];

			for (j = 0; j < nch && (ch[j].fam != sy->wb[k].fam ||
			    ch[j].blk != sy->wb[k].blk); j++)
				;
			if (j < nch)
				continue;
			if (nch == CHANGED_MOST)
				return canon_full(sy, s, p);
			nk = sy->nk + (size_t)nch * sy->kwmost;
			key_of(fs, s, sy->wb[k].blk, nk);
			if (key_cmp(nk, base_key(sy, fs, sy->wb[k].blk),
			    fs->kw) == 0)
				continue;
			for (j = 0; j < nch && ch[j].fam != sy->wb[k].fam; j++)
				;
			if (j < nch)
				return canon_full(sy, s, p);
			ch[nch++] = sy->wb[k];
		}
	}
	for (c = 0; c < nch; c++) {
		struct symset	*fs = &sy->set[ch[c].fam];

		fam[c] = ch[c].fam;
		a = ch[c].blk;
		nk = sy->nk + (size_t)c * sy->kwmost;
		if (key_cmp(nk, base_key(sy, fs, a), fs->kw) > 0) {
			/* Up: past the blocks after a with keys below its
			 * new one, each to the place before it. */
			b = base_search(sy, fs, a + 1, fs->n, nk, 1) - 1;
			if (b > a) {
				key_put(fs, s, a, base_key(sy, fs, a + 1));
				for (j = a + 1; j < b; j = e + 1) {
					e = key_cmp(base_key(sy, fs, j),
					    base_key(sy, fs, j + 1), fs->kw) != 0 ?
					    j : run_end(sy, fs, j);
					if (e >= b)
						break;
					key_put(fs, s, e, base_key(sy, fs, e + 1));
				}
				key_put(fs, s, b, nk);
			}
		} else {
			/* Down: past the blocks before a with keys above
			 * its new one, each to the place after it. */
			b = base_search(sy, fs, 0, a, nk, 0);
			if (b < a) {
				key_put(fs, s, a, base_key(sy, fs, a - 1));
				for (j = a - 1; j > b; j = e - 1) {
					e = key_cmp(base_key(sy, fs, j - 1),
					    base_key(sy, fs, j), fs->kw) != 0 ?
					    j : run_start(sy, fs, j);
					if (e <= b)
						break;
					key_put(fs, s, e, base_key(sy, fs, e - 1));
				}
				key_put(fs, s, b, nk);
			}
		}
		if (p >= 0 && sy->fam[p] == fam[c]) {
			j = sy->bof[p];
			if (j == a)
				j = b;
			else if (b > a && j > a && j <= b)
				j--;
			else if (b < a && j >= b && j < a)
				j++;
			img = fs->procs[j * fs->b + sy->pof[p]];
		}
	}
	return canon_rot(sy, s, img);
}
