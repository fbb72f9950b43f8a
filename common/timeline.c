/* timeline.c -- the timeline viewer's page (timeline.h): the lanes, boxes,
 * arrows, marks and waits kept until timeline_write puts them as one JSON
 * object into the page common/timeline.html, which the build turns into
 * the string timeline_page (timeline-page.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "timeline.h"
#include "timeline-page.h"
#include "xmalloc.h"

struct tl_box {
	int		 lane;
	double		 t0, t1;
	const char	*kind;
	const char	*label;
	const char	*tip;
};

struct tl_mark {
	size_t		 box;
	const char	*note;
};

struct tl_wait {
	int		 from, to;
	const char	*note;
};

struct timeline {
	struct arena	*a;		/* every string */
	const char	*title;
	enum timeline_unit unit;
	struct buf	 note;
	const char	**lanes;
	size_t		 nlanes, alanes;
	struct tl_box	*boxes;
	size_t		 nboxes, aboxes;
	size_t		*arrows;	/* pairs */
	size_t		 narrows, aarrows;
	struct tl_mark	*marks;
	size_t		 nmarks, amarks;
	struct tl_wait	*waits;
	size_t		 nwaits, awaits;
	int		 has_open;
	double		 open0, open1;
	const char	*zero;
};

struct timeline *
timeline_new(const char *title, enum timeline_unit unit)
{
	struct timeline	*tl = xcalloc(1, sizeof(*tl));

	tl->a = arena_new();
	tl->title = arena_strdup(tl->a, title);
	tl->unit = unit;
	buf_init(&tl->note);
	return tl;
}

void
timeline_free(struct timeline *tl)
{
	if (tl == NULL)
		return;
	arena_free(tl->a);
	buf_free(&tl->note);
	free(tl->lanes);
	free(tl->boxes);
	free(tl->arrows);
	free(tl->marks);
	free(tl->waits);
	free(tl);
}

void
timeline_note(struct timeline *tl, const char *s)
{
	if (tl->note.len > 0)
		buf_addc(&tl->note, '\n');
	buf_adds(&tl->note, s);
}

int
timeline_lane(struct timeline *tl, const char *name)
{
	xgrow(&tl->lanes, &tl->alanes, tl->nlanes + 1, sizeof(*tl->lanes));
	tl->lanes[tl->nlanes] = arena_strdup(tl->a, name);
	return (int)tl->nlanes++;
}

/* The kinds repeat: keep one copy of each of the few there are. */
static const char *
tl_kind(struct timeline *tl, const char *kind)
{
	size_t	k;

	for (k = tl->nboxes; k > 0 && k + 8 > tl->nboxes; k--)
		if (strcmp(tl->boxes[k - 1].kind, kind) == 0)
			return tl->boxes[k - 1].kind;
	return arena_strdup(tl->a, kind);
}

size_t
timeline_box(struct timeline *tl, int lane, double t0, double t1,
    const char *kind, const char *label, const char *tip)
{
	struct tl_box	*b;

	xgrow(&tl->boxes, &tl->aboxes, tl->nboxes + 1, sizeof(*tl->boxes));
	b = &tl->boxes[tl->nboxes];
	b->lane = lane;
	b->t0 = t0;
	b->t1 = t1 >= t0 ? t1 : t0;
	b->kind = tl_kind(tl, kind);
	b->label = arena_strdup(tl->a, label);
	b->tip = arena_strdup(tl->a, tip != NULL ? tip : "");
	return tl->nboxes++;
}

void
timeline_box_relabel(struct timeline *tl, size_t box, const char *label,
    const char *tip)
{
	tl->boxes[box].label = arena_strdup(tl->a, label);
	tl->boxes[box].tip = arena_strdup(tl->a, tip != NULL ? tip : "");
}

size_t
timeline_nboxes(const struct timeline *tl)
{
	return tl->nboxes;
}

void
timeline_arrow(struct timeline *tl, size_t from, size_t to)
{
	xgrow(&tl->arrows, &tl->aarrows, 2 * tl->narrows + 2, sizeof(*tl->arrows));
	tl->arrows[2 * tl->narrows] = from;
	tl->arrows[2 * tl->narrows + 1] = to;
	tl->narrows++;
}

void
timeline_mark(struct timeline *tl, size_t box, const char *note)
{
	xgrow(&tl->marks, &tl->amarks, tl->nmarks + 1, sizeof(*tl->marks));
	tl->marks[tl->nmarks].box = box;
	tl->marks[tl->nmarks].note = arena_strdup(tl->a, note);
	tl->nmarks++;
}

void
timeline_wait(struct timeline *tl, int from, int to, const char *note)
{
	xgrow(&tl->waits, &tl->awaits, tl->nwaits + 1, sizeof(*tl->waits));
	tl->waits[tl->nwaits].from = from;
	tl->waits[tl->nwaits].to = to;
	tl->waits[tl->nwaits].note = note != NULL ? arena_strdup(tl->a, note) :
	    NULL;
	tl->nwaits++;
}

void
timeline_open(struct timeline *tl, double t0, double t1, const char *zero)
{
	tl->has_open = t1 > t0;
	tl->open0 = t0;
	tl->open1 = t1;
	tl->zero = zero != NULL ? arena_strdup(tl->a, zero) : NULL;
}

/* The data, one JSON object (what timeline.html reads as D). */
static void
tl_data(const struct timeline *tl, FILE *f)
{
	size_t	k;

	fputs("{\"title\":", f);
	json_str(f, tl->title, JSON_HTML);
	fprintf(f, ",\"unit\":\"%s\",\"note\":", tl->unit == TIMELINE_SECONDS ?
	    "s" : "step");
	json_str(f, tl->note.len > 0 ? tl->note.s : "", JSON_HTML);
	if (tl->has_open)
		fprintf(f, ",\"open\":[%.9f,%.9f]", tl->open0, tl->open1);
	if (tl->zero != NULL) {
		fputs(",\"zero\":", f);
		json_str(f, tl->zero, JSON_HTML);
	}
	fputs(",\n\"lanes\":[", f);
	for (k = 0; k < tl->nlanes; k++) {
		if (k > 0)
			putc(',', f);
		json_str(f, tl->lanes[k], JSON_HTML);
	}
	fputs("],\n\"boxes\":[", f);
	for (k = 0; k < tl->nboxes; k++) {
		const struct tl_box	*b = &tl->boxes[k];

		fprintf(f, "%s[%d,%.9f,%.9f,", k > 0 ? ",\n" : "", b->lane, b->t0,
		    b->t1);
		json_str(f, b->kind, JSON_HTML);
		putc(',', f);
		json_str(f, b->label, JSON_HTML);
		putc(',', f);
		json_str(f, b->tip, JSON_HTML);
		putc(']', f);
	}
	fputs("],\n\"arrows\":[", f);
	for (k = 0; k < tl->narrows; k++)
		fprintf(f, "%s[%zu,%zu]", k > 0 ? "," : "", tl->arrows[2 * k],
		    tl->arrows[2 * k + 1]);
	fputs("],\n\"marks\":[", f);
	for (k = 0; k < tl->nmarks; k++) {
		fprintf(f, "%s[%zu,", k > 0 ? "," : "", tl->marks[k].box);
		json_str(f, tl->marks[k].note, JSON_HTML);
		putc(']', f);
	}
	fputs("],\n\"waits\":[", f);
	for (k = 0; k < tl->nwaits; k++) {
		fprintf(f, "%s[%d,%d,", k > 0 ? "," : "", tl->waits[k].from,
		    tl->waits[k].to);
		if (tl->waits[k].note != NULL)
			json_str(f, tl->waits[k].note, JSON_HTML);
		else
			fputs("null", f);
		putc(']', f);
	}
	fputs("]}", f);
}

int
timeline_write(const struct timeline *tl, FILE *f, char **cause)
{
	const char	*at = strstr(timeline_page, "@DATA@");

	*cause = NULL;
	if (at == NULL) {	/* (the build made the page) */
		xasprintf(cause, "the viewer's page has no place for the data");
		return -1;
	}
	fwrite(timeline_page, 1, (size_t)(at - timeline_page), f);
	tl_data(tl, f);
	fputs(at + strlen("@DATA@"), f);
	if (fflush(f) != 0 || ferror(f)) {
		xasprintf(cause, "%s", strerror(errno != 0 ? errno : EIO));
		return -1;
	}
	return 0;
}
