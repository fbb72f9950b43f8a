/* pnml.c -- a P/T net (net.h) written as PNML (ISO/IEC 15909-2), the
 * format Petri net tools (LoLA, TAPAAL, ITS-tools, the Model Checking
 * Contest) read.  Ids are p0.., t0.. and a0.., always XML names; the
 * readable names go in <name>, escaped. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "compile.h"
#include "net.h"
#include "xmalloc.h"

#define PNML_PTNET	"http://www.pnml.org/version-2009/grammar/ptnet"

/* Text as XML character data: markup escaped, control characters (not
 * allowed in XML 1.0) dropped. */
static void
pnml_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char	c = (unsigned char)*s;

		switch (c) {
		case '&':	fputs("&amp;", f); break;
		case '<':	fputs("&lt;", f); break;
		case '>':	fputs("&gt;", f); break;
		case '"':	fputs("&quot;", f); break;
		case '\'':	fputs("&apos;", f); break;
		default:
			if (c >= 0x20 || c == '\t' || c == '\n')
				fputc(c, f);
			break;
		}
	}
}

/* A node's <name>: its name, and " @ " and where it is written when known. */
static void
pnml_name(FILE *f, const char *name, const char *loc)
{
	fputs("<name><text>", f);
	pnml_text(f, name);
	if (loc != NULL) {
		fputs(" @ ", f);
		pnml_text(f, loc);
	}
	fputs("</text></name>", f);
}

/* One arc from src's node s to dst's node d, with its weight when above 1;
 * *id numbers the arcs. */
static void
pnml_arc(FILE *f, int *id, const char *src, int s, const char *dst, int d, int64_t w)
{
	fprintf(f, "      <arc id=\"a%d\" source=\"%s%d\" target=\"%s%d\">", (*id)++,
	    src, s, dst, d);
	if (w > 1)
		fprintf(f, "<inscription><text>%" PRId64 "</text></inscription>", w);
	fputs("</arc>\n", f);
}

int
pnml_write(const struct net *n, FILE *f, char **cause)
{
	const char	*app = n->mp->pcg->name != NULL ? n->mp->pcg->name : "net";
	int		 i, k, arcid = 0;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n", f);
	fprintf(f, "  <net id=\"net\" type=\"%s\">\n    ", PNML_PTNET);
	fputs("<name><text>", f);
	pnml_text(f, app);
	fprintf(f, " (%s mode)</text></name>\n", check_mode_name(n->mode));
	fputs("    <page id=\"page\">\n", f);
	for (i = 0; i < n->nplaces; i++) {
		const struct net_place	*p = &n->places[i];

		fprintf(f, "      <place id=\"p%d\">", i);
		pnml_name(f, p->name, p->loc);
		if (p->init > 0)
			fprintf(f, "<initialMarking><text>%" PRId64
			    "</text></initialMarking>", p->init);
		fputs("</place>\n", f);
	}
	for (i = 0; i < n->ntrans; i++) {
		const struct net_trans	*t = &n->trans[i];

		fprintf(f, "      <transition id=\"t%d\">", i);
		pnml_name(f, t->name, t->loc);
		fputs("</transition>\n", f);
	}
	for (i = 0; i < n->ntrans; i++) {
		const struct net_trans	*t = &n->trans[i];

		for (k = 0; k < t->npre; k++)
			pnml_arc(f, &arcid, "p", t->pre[k].place, "t", i, t->pre[k].w);
		for (k = 0; k < t->npost; k++)
			pnml_arc(f, &arcid, "t", i, "p", t->post[k].place, t->post[k].w);
	}
	fputs("    </page>\n  </net>\n</pnml>\n", f);
	if (fflush(f) != 0 || ferror(f)) {
		xasprintf(cause, "%s", strerror(errno));
		return -1;
	}
	return 0;
}
