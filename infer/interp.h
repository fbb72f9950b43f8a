/* interp.h -- what the interpreter's files (interp.c, the values and
 * states; api.c, the calls of the port interface and of the C and Python
 * libraries) share, private to infer/.
 *
 * The interpreter runs the program (code.h) once on abstract values:
 * integers as sym.h expressions of what is fixed for a process (its
 * parameters, arguments, index and ports), strings, requests, pointers,
 * and 'unknown' (the data).  Each state is one way through the code: its
 * memory, the requests pending, the conditions assumed, and where in the
 * behaviour its next statement goes.  A condition fixed per process
 * forks the way into an 'if', one the data decides into a 'choice'; the
 * two ways join after it when their memories can be joined (integers
 * that differ become 'c ? x : y'), else each goes on alone, the rest of
 * the code written in each branch. */
#ifndef ENS_INTERP_H
#define ENS_INTERP_H

#include "infer.h"
#include "sym.h"

struct arena;

enum vk {
	V_TOP,		/* not known: why says what it comes from */
	V_INT,		/* n */
	V_STR,		/* str: a string, its pieces */
	V_NULL,		/* NULL, None, MPI_REQUEST_NULL */
	V_REQ,		/* req: a request (one of the sites in req) */
	V_PTR,		/* obj at offset off (an array, a list, a variable) */
	V_FUNC,		/* fn: a function of the program (key), or named */
	V_SELF,		/* what ens_self() gives */
	V_OUT,		/* the outcome of a test, probe or wait (out) */
	V_MOD,		/* a Python module or an object of no interest */
};

/* A piece of a string: text, a number printed in decimal, the text of
 * an argument or a parameter (arg(k), a parameter: n), or the process's
 * own name. */
enum spk { SP_TEXT, SP_NUM, SP_ARG, SP_PARAM, SP_SELF };
struct spiece {
	enum spk	 k;
	const char	*text;
	const struct sym *n;
	struct spiece	*next;
};

/* The requests a value may be: the sites that posted it (sorted), and
 * whether it may be null (never posted, or MPI_REQUEST_NULL). */
struct reqs {
	int		 n;
	int		 nul;
	int		 site[];
};

/* An outcome: of a test or iprobe (whether it completed, whether a
 * message is there), a waitany (which request), a waitsome (which ones),
 * a probe any (the port, whose message it names). */
/* O_PTYPE: the type of the port a probe of any type found (its port's
 * placeholder in port): what ens_port_of, a Status's type say. */
enum outk { O_FLAG, O_ANY, O_SOME, O_SOMEIDX, O_PROBED, O_PTYPE };

struct outc {
	enum outk	 k;
	struct bst	*st;		/* the statement it came from */
	int		 nreq;		/* O_ANY, O_SOME: the requests listed */
	int		*site;		/* their sites, in the order listed */
	const struct reqs **rs;		/* each one's sites (one name's) */
	int		 prev;		/* O_FLAG of a test: the request's state
					 * before (site in site[0]) */
	const char	*type;		/* O_PROBED: the probe's type */
	const struct sym *ix;		/* O_SOME: the placeholder of the
					 * indices' elements */
	const struct sym *port;		/* O_FLAG of an iprobe any, O_PTYPE:
					 * the placeholder of the port found */
	int		 portval;	/* the call's value is that port, or
					 * 0 (C++, Python) */
};

struct val {
	enum vk		 k;
	const struct sym *n;
	struct spiece	*str;
	int		 obj;
	const struct sym *off;
	const struct reqs *req;
	const char	*fn;
	struct outc	*out;
	const char	*why;		/* V_TOP: "the value of 'x'" */
	struct cloc	 wloc;
};

/* A slot of an object: an element (ix) or a field (field). */
struct slot {
	const struct sym *ix;
	const char	*field;
	struct val	 v;
};

/* Memory: a variable, an array, a list, a struct.  Shared between the
 * states that have not changed it (refs), copied before a change. */
struct obj {
	int		 refs;
	int		 n, cap;
	struct slot	*s;
	struct val	 dflt;		/* of an element never set */
	int		 list;		/* a Python list or tuple, a C++ vector:
					 * its length in len (NULL: not known) */
	const struct sym *len;
	int		 arr;		/* a C array: its name is its address */
	int		 esc;		/* its address was taken */
	int		 argv;		/* main's argv, Python's sys.argv */
};

/* A request pending on a way: its site, and whether it is pending (1),
 * complete (0) or may be either (2). */
enum { RQ_DONE, RQ_PENDING, RQ_MAYBE };
struct pend {
	int		 site;
	int		 st;
	/* A family: one request a round of a loop, kept in object fobj at
	 * an index up to fidx (NULL: a list's elements), completed together
	 * after it; never named. */
	int		 fam;
	int		 fobj;
	const struct sym *fidx;
};

/* One way through the code. */
struct st {
	struct obj	**o;		/* by object id (NULL: not made yet) */
	int		  no;
	struct pend	 *pend;
	int		  npend;
	struct sym_facts  facts;
	struct bst	**out;		/* where its next statement goes */
	struct bst	 *last;		/* the statement written there last */
	struct val	  ret;		/* a return's value */
	int		  inited;	/* ens_init was called */
};

/* A list of ways. */
struct stl {
	struct st	**v;
	int		  n, cap;
};

/* A place that posts requests (a call in a frame of the code): its
 * name's holder in the behaviour. */
struct site {
	const struct cnode *call;
	int		 inst;
	struct breq	*req;
};

struct frame;
struct loopx;
struct outv;

struct ctx {
	struct infer	*r;
	struct cprog	*p;
	struct arena	*a;
	struct frame	*frame;
	struct loopx	*loop;
	int		 ninst;		/* frames made */
	long		 escapes;	/* ways that left by return, break,
					 * continue or the end */
	long		 steps;
	int		 depth;		/* calls inlined */
	int		 nvars;		/* 'for' variables made */
	/* objects by (frame, name) */
	struct hmap	*ids;
	int		 nids;
	const char	**idkey;
	int		*idinst;
	size_t		 idcap;
	/* request sites */
	struct site	*sites;
	int		 nsites;
	size_t		 sitecap;
	/* functions whose address is taken that may communicate */
	int		 fptr_comm;
	/* functions known to communicate (1) or not (0) */
	struct hmap	*commf;
	struct hmap	*loopvars;	/* each loop's 'for' variable, by frame */
	long		 nends;		/* ways that reached ens_finalize */
	long		 nforever;	/* ways in a loop that never ends */
	struct outv	*outvs;		/* outcomes' placeholders */
};

/* interp.c, for api.c */
struct val v_top(const char *why, const struct cloc *);
struct val v_int(struct ctx *, int64_t);
struct val v_sym(const struct sym *);
struct val v_str(struct ctx *, const char *);
struct val v_kind(enum vk);
struct bst *emit(struct ctx *, struct st *, enum bkind, const struct cloc *);
struct val mem_read(struct ctx *, struct st *, int obj, const struct sym *ix,
    const char *field);
void mem_write(struct ctx *, struct st *, int obj, const struct sym *ix,
    const char *field, struct val);
void mem_havoc(struct ctx *, struct st *, int obj, const char *why,
    const struct cloc *);
/* The same, a list's length kept unless len. */
void mem_havoc_len(struct ctx *, struct st *, int obj, const char *why,
    const struct cloc *, int len);
int obj_id(struct ctx *, int inst, const char *key);
struct obj *obj_of(struct ctx *, struct st *, int id);
struct obj *obj_mut(struct ctx *, struct st *, int id);
int site_of(struct ctx *, const struct cnode *call, const char *base);
struct breq *site_req(struct ctx *, int site);
int req_post(struct ctx *, struct st *, int site);
int req_status(const struct st *, int site);
/* The pending entry of site, or NULL. */
struct pend *req_pend(struct st *, int site);
void req_set(struct st *, int site, int status);
struct val v_req(struct ctx *, int site);
int stl_add(struct stl *, struct st *);
struct st *st_copy(struct ctx *, const struct st *);
void st_free(struct st *);
void fail_path(struct ctx *, struct st *);
/* Add a note of text at l to the list *t, once a place. */
void note_once(struct ctx *, struct infer_note **t, const char *text,
    const struct cloc *l);
void end_path(struct ctx *, struct st *);
/* The string s holds, if it is one whose every piece is known (*text
 * set, in the arena); a port type's, a root's or a group's. */
int str_text(struct ctx *, struct st *, const struct val *, const char **text);
/* The string a value is or points to, as pieces; NULL if none. */
struct spiece *str_of(struct ctx *, struct st *, const struct val *);
/* Python's fmt % args and C's printf formats, for the conversions a
 * name is made of (%d, %i, %s, %%): a string, or unknown. */
struct val format_call(struct ctx *, struct st *, const char *fmt,
    const struct val *args, int nargs, const struct cloc *);
/* A string of one piece. */
struct val v_piece(struct ctx *, enum spk, const struct sym *);
/* The integer a string holds as atoi and int() read it: arg(k) of an
 * argument's, a parameter of a parameter's, a literal's; else unknown. */
struct val number_of(struct ctx *, struct st *, const struct val *,
    const struct cloc *);
/* Say what a value that is not known comes from, for messages. */
const char *why_of(const struct val *);
int inst_here(const struct ctx *);
/* A placeholder for an outcome of st: an integer that stands for what
 * the call returned, decided where a condition reads it. */
const struct sym *outcome(struct ctx *, enum outk, struct bst *st);
struct outc *outcome_of(struct ctx *, const struct sym *placeholder);
/* An error at the code's place l: the first one is kept, and the
 * interpreter stops. */
void ierr(struct ctx *, const struct cloc *l, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A number given to the behaviour (a port, a count, a root's index):
 * not an outcome, known; NULL after an error saying what it is. */
const struct sym *need_int(struct ctx *, const struct val *, const char *what,
    const struct cloc *);

/* api.c */
/* Run a call of a function the program does not define, named name,
 * with its arguments' values; its value into *ret.  The ways after it go
 * to out (none: it ended the process or failed it).  0, or -1 when the
 * name is not one it knows. */
int api_call(struct ctx *, struct st *, const struct cnode *call,
    const char *name, struct val *args, const struct cnode **argn, int nargs,
    struct val *ret, struct stl *out);
/* Whether a call of that name may write through its argument i (a
 * buffer; not a port, a root, a group); 1 for a name not known. */
int api_writes_arg(const char *name, int i);
/* Whether the name is one of the port interface's calls. */
int api_known(const char *name);
/* Whether a call of that name only reads its buffer (a send's). */
int api_reads_only(const char *name);
/* Whether a call of that name communicates (or ends the process). */
int api_communicates(const struct cprog *, const char *name);
/* A method call on a value: a Python list's append, a request's wait, a
 * C++ vector's push_back.  0 done, -1 not one it knows. */
int api_method(struct ctx *, struct st *, const struct cnode *call,
    struct val *self, const char *method, struct val *args, int nargs,
    struct val *ret, struct stl *out);

#endif
