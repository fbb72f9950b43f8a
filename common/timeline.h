/* timeline.h -- the timeline viewer: one self-contained HTML page (no
 * network) with a lane per process, boxes for what each does, arrows for
 * messages, marks on boxes and wait-for edges between lanes; wheel zooms,
 * drag pans, hovering a box shows its tooltip.  The one source of both
 * 'ensemble trace export --format html' (a run's trace) and 'ensemble
 * verify --explain FILE.html' (a counterexample): each turns what it has
 * into lanes, boxes, arrows and marks, and this module writes the page
 * (common/timeline.html, with the data as JSON inside it).  It lives in
 * common/ so that mpnet/ and trace/ can both use it and neither the other. */
#ifndef ENS_TIMELINE_H
#define ENS_TIMELINE_H

#include <stddef.h>
#include <stdio.h>

/* What the time axis counts: seconds of a run, or a counterexample's
 * actions. */
enum timeline_unit { TIMELINE_SECONDS, TIMELINE_STEPS };

struct timeline;

/* An empty timeline titled title (copied). */
struct timeline *timeline_new(const char *title, enum timeline_unit);
void timeline_free(struct timeline *);
/* A note shown under the title (copied; each call adds a line). */
void timeline_note(struct timeline *, const char *);
/* A lane named name (copied); lanes are numbered from 0 in order. */
int timeline_lane(struct timeline *, const char *name);
/* A box on lane from t0 to t1: kind picks its colour (the viewer knows
 * "init" "fin" "send" "isend" "recv" "irecv" "wait" "probe" "post"
 * "collective" "choose" "leave" "blocked" "ended"), label is its short
 * name, tip the lines its tooltip shows (all copied).  Returns its
 * number, from 0. */
size_t timeline_box(struct timeline *, int lane, double t0, double t1,
    const char *kind, const char *label, const char *tip);
/* Give box another label and tip (copied): a call seen in parts. */
void timeline_box_relabel(struct timeline *, size_t box, const char *label,
    const char *tip);
size_t timeline_nboxes(const struct timeline *);
/* A message: an arrow from box 'from' (at its start) to box 'to' (at its
 * end). */
void timeline_arrow(struct timeline *, size_t from, size_t to);
/* Mark box with note (copied): a blocked process's last statement. */
void timeline_mark(struct timeline *, size_t box, const char *note);
/* A wait-for edge: lane 'from' waits for lane 'to' (note copied, may be
 * NULL), drawn from each lane's last box. */
void timeline_wait(struct timeline *, int from, int to, const char *note);
/* The span the page opens on (the whole timeline when not given) and,
 * when zero is not NULL, what time 0 is (copied): the page draws a line
 * there, and what comes before it (a trace's inits) is left of it. */
void timeline_open(struct timeline *, double t0, double t1, const char *zero);
/* Write the page to f: 0, or -1 and *cause (caller frees) when writing
 * fails. */
int timeline_write(const struct timeline *, FILE *f, char **cause);

#endif
