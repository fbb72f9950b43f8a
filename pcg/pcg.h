/* pcg.h -- the expanded Process Communication Graph: parameters resolved,
 * ranges and 'for' clauses unrolled, every semantic check done.  The model
 * is what expansion builds and checks, and what later stages take: the
 * verifier compiles it, 'ensemble run' starts from it.  The annotated
 * Graphviz graph made from it by pcg_graph() is for drawing and for
 * 'ensemble graph --pcg' (common/pcgdot.h). */
#ifndef ENS_PCG_H
#define ENS_PCG_H

#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "diag.h"

struct arena;

/* What the command line sets. */
struct pcg_opts {
	int64_t		  np;		/* -np K; np_set says whether given */
	int		  np_set;
	const char	**defs;		/* -D name=value, borrowed */
	size_t		  ndefs;
	const char *const *dirs;	/* -L dirs, borrowed */
	size_t		  ndirs;
	int		  exec_missing_is_error;	/* run: error, check: warning */
	int		  skip_exec_check;	/* verify: executables do not matter */
	const char	 *libexecdir;	/* installed components; NULL: PKGLIBEXECDIR */
};

/* Where a parameter's value comes from. */
enum pcg_from { PCG_FROM_DEFAULT, PCG_FROM_NP, PCG_FROM_D };

struct pcg_param {
	const char	*name;		/* interned */
	int64_t		 value;		/* a number's value */
	const char	*text;		/* a string's value; NULL: a number */
	int		 scale;		/* the 'scale' parameter */
	enum pcg_from	 from;		/* its declaration, -np or -D */
	struct loc	 loc;		/* its name in the declaration */
	struct loc	 vloc;		/* its value there */
};

/* A list of strings given by an annotation (exec, args, env, wdir). */
struct pcg_strs {
	char		**v;
	int		  n;
	struct loc	  loc;
};

enum { ANN_EXEC, ANN_ARGS, ANN_ENV, ANN_WDIR, ANN_SOURCE, ANN_COUNT };

struct pcg_comp {
	const char	*name;		/* interned */
	struct loc	 loc;
	const char	**types;	/* interned port type names */
	struct loc	*typelocs;
	int		 ntypes;
	const struct item *behaviour;	/* the BEHAVIOUR block, or NULL */
	int		 indexed;	/* -1 no instance yet, 0 unindexed, 1 indexed */
	int		 nprocs;
	int64_t		 minidx, maxidx;
	int		 broken;	/* a Processes line of it was in error:
					 * a process it lacks is not reported
					 * again where it is named */
};

/* One statement of a process's instantiated behaviour (pcg_instantiate):
 * communication, 'loop' and 'choice' only, with ports and roots resolved.
 * 'if' is decided and 'for' unrolled, so neither appears. */
struct pcg_bstmt {
	enum stmt_kind	 kind;		/* never S_IF or S_FOR */
	enum send_mode	 mode;
	int		 type;		/* port type of the component; -1: any */
	int		 port;		/* 1-based; 0: every port of the type ([*]) */
	int		 rtype, rport;	/* S_SENDRECV*: the receive's port */
	const char	*req;		/* the request it names ('as', wait, test);
					 * interned, NULL: none */
	int		 root;		/* rooted collectives: the root process */
	int		 group;		/* collectives: index in pcg->groups;
					 * -1: the whole application */
	int64_t		 count;		/* S_LOOP: iterations; -1: forever */
	const struct stmt *src;		/* where it is written */
	struct pcg_bstmt *body;		/* S_LOOP: its body; S_TEST, S_IPROBE*:
					 * the block run when it succeeds */
	struct pcg_bstmt *orelse;	/* S_TEST, S_IPROBE*: the 'else' block
					 * (body: the other) */
	struct pcg_bbranch *branches;	/* S_CHOICE, S_WAITANY, S_WAITSOME */
	struct pcg_bstmt *next;
};

struct pcg_bbranch {
	struct pcg_bstmt   *body;
	const char	   *req;	/* waitany, waitsome: 'on' it */
	const struct branch *src;
	struct pcg_bbranch *next;
};

struct pcg_proc {
	int		 comp;
	int64_t		 index;		/* 0 when unindexed */
	struct loc	 loc;		/* its Processes line */
	int		*nports;	/* per type of its component */
	unsigned char	*star;		/* count inferred from Channels */
	struct loc	*portlocs;	/* where each type's count was given */
	int		 portbase;	/* first slot in pcg->portchan */
	const char	*host;
	int		 host_own;	/* set by the process's own line */
	const char	*behaviour;	/* instantiated (pcg_instantiate) */
	struct pcg_bstmt *prog;		/* the same as statements; NULL: none */
	int		 has_behaviour;	/* its component has a BEHAVIOUR */
	/* Annotations: set on the component's line, and on the process's own
	 * line (which wins). */
	const struct pcg_strs *dflt[ANN_COUNT];
	const struct pcg_strs *own[ANN_COUNT];
};

struct pcg_end {
	int		 proc;
	int		 type;		/* index in the component's types */
	int		 port;		/* 1-based */
	struct loc	 loc;		/* the whole end */
	struct loc	 portloc;	/* its port index */
};

struct pcg_chan {
	struct pcg_end	 e[2];
	struct loc	 loc;
	int64_t		 tag;
	int		 tagset;	/* given with ': tag N' */
	struct loc	 tagloc;
};

/* A group of processes a collective may run over ('over G'): one of the
 * Groups section's, or a component named in 'over' (every process of it).
 * Every group some statement uses or the Groups section declares is here,
 * once, in the order first declared or used; its communicator's ranks are
 * its members' order. */
struct pcg_group {
	const char	*name;		/* interned */
	int64_t		 index;		/* 0 when unindexed */
	int		 indexed;
	int		 comp;		/* a component's own group: it; else -1 */
	int		*members;	/* process numbers, rank order */
	int		 nmembers;
	struct loc	 loc;		/* where declared (a component: its line) */
};

struct pcg {
	struct arena	*arena;
	struct ast	*ast;		/* owned */
	struct diag	*diag;		/* borrowed */
	const char	*name;		/* application name */
	const char	*script;	/* the script's file name */
	const char	*script_dir;
	struct pcg_param *params;
	int		 nparams;
	struct pcg_comp	*comps;
	int		 ncomps;
	struct pcg_proc	*procs;
	int		 nprocs;
	struct pcg_chan	*chans;
	int		 nchans;
	struct pcg_group *groups;
	int		 ngroups;
	int		*portchan;	/* channel of each port slot, -1 if none */
	int		 nports;
	int64_t		 iterations;	/* of 'for' clauses so far */
	/* private: lookup tables */
	struct pcg_index *idx;
};

/* Expand a parsed script (takes ownership of ast).  Returns the model even
 * when errors were reported (check d->errors), NULL only on a bad -np or -D
 * or a 'require' that does not hold, which are diagnosed. */
struct pcg *pcg_expand(struct ast *, struct diag *, const struct pcg_opts *);

/* The model (pcg.c).  pcg_new makes an empty one (takes ownership of the
 * AST; the diagnostics are borrowed); pcg_free frees it with its AST. */
struct pcg *pcg_new(struct ast *, struct diag *);
void pcg_free(struct pcg *);
/* For expansion: add a zeroed process (comp, index) to the model and its
 * index, or return NULL with *old set to the one already there; add a zeroed
 * channel.  The pointers last until the next addition. */
struct pcg_proc *pcg_add_proc(struct pcg *, int comp, int64_t index, int *old);
struct pcg_chan *pcg_add_chan(struct pcg *);
/* Whether an unknown component's name was already reported (it is then
 * remembered): one error per name, not a cascade. */
int pcg_unknown_seen(struct pcg *, const char *interned);

/* The process's name as written in scripts: relay[3], or master. */
const char *pcg_proc_name(const struct pcg *, int proc, char *buf, size_t len);
/* What a name is looked up among, for pcg_did_you_mean. */
enum pcg_names {
	PCG_NAMES_COMPS,	/* the components */
	PCG_NAMES_PARAMS,	/* the parameters, and the names in more */
	PCG_NAMES_GROUPS,	/* the groups and the components */
};
/* "; did you mean 'X'?" when name is likely a typo of one of the names of
 * that kind g has (diag_suggest), in buf, to end a message; else "". */
const char *pcg_did_you_mean(const struct pcg *, enum pcg_names,
    const char *const *more, size_t nmore, const char *name, char *buf,
    size_t len);
#define PCG_DYM_MAX	(PCG_NAME_MAX + 32)

/* Whether the scale parameter (-np) has another value than the number
 * of processes, and that value in *np. */
int pcg_np_differs(const struct pcg *, int64_t *np);
/* The number of processes as a report says it: "5 processes", "1
 * process", or "-np 4: 5 processes" when pcg_np_differs; buf's size is
 * PCG_NAME_MAX at least. */
const char *pcg_nprocs_text(const struct pcg *, char *buf, size_t len);
/* The words a statement of kind (a send of mode) starts with in the
 * script, "bcast from", "ssend"; "?" for if and for (behave.c). */
const char *pcg_stmt_word(enum stmt_kind, enum send_mode);
/* Whether kind is a rooted collective (bcast from to gatherv to). */
int pcg_stmt_rooted(enum stmt_kind);
#define PCG_NAME_MAX	256

/* The file a 'source' annotation names, relative to the file it is
 * written in unless absolute (a new string). */
char *pcg_source_path(const struct pcg_strs *);
/* The effective annotation of a process (its own line wins), or NULL. */
const struct pcg_strs *pcg_annot(const struct pcg *, const struct pcg_proc *, int kind);
/* The process's environment: the component's and its own, merged by name;
 * returns the count and sets *out (caller frees the array, not the strings). */
int pcg_env(const struct pcg *, const struct pcg_proc *, char ***out);
/* Add an environment list to *out (n entries, alloc allocated), replacing
 * entries of the same name; the strings are borrowed. */
void pcg_env_merge(char ***out, int *n, size_t *alloc, const struct pcg_strs *);

/* Groups (expansion adds them): the group (name, index) or -1; add it
 * (or find it: its id) with no members; add a member last in rank order
 * (-1: it is one already); a process's rank in a group, or -1 when it is
 * not a member; its name as scripts write it, "rows[2]". */
int pcg_find_group(const struct pcg *, const char *interned, int64_t index);
int pcg_add_group(struct pcg *, const char *interned, int64_t index, int indexed,
    int comp, const struct loc *);
int pcg_group_add_member(struct pcg *, int group, int proc);
int pcg_group_rank(const struct pcg *, int group, int proc);
const char *pcg_group_name(const struct pcg *, int group, char *buf, size_t len);

/* Look up a process by component and index; -1 if none. */
int pcg_find_proc(const struct pcg *, int comp, int64_t index);
int pcg_find_comp(const struct pcg *, const char *interned);
int pcg_find_type(const struct pcg_comp *, const char *interned);
/* The parameter of that interned name, or NULL. */
const struct pcg_param *pcg_find_param(const struct pcg *, const char *interned);
/* A parameter's value as text, a number's in decimal (caller frees). */
char *pcg_param_text(const struct pcg_param *);
/* Which end of the channel, 0 or 1, is process proc's port (type, its
 * index in the component's types; port, 1-based): a channel from a
 * process to itself has the process at both. */
int pcg_chan_end(const struct pcg_chan *, int proc, int type, int port);

/* Find an executable as 'run' will: an absolute path as is; a name with a
 * slash beside the fragment 'from' (the file that names it; NULL: the
 * script), then beside the script; a bare name in -L dirs,
 * ENSEMBLE_PATH, the fragment's directory, the script's directory, the
 * install directory (o->libexecdir), then PATH.  Returns a new path or
 * NULL. */
char *pcg_find_exec(const struct pcg *, const struct pcg_opts *, const char *exec,
    const struct source *from);
/* After pcg_find_exec found nothing: the first regular file the same
 * search met, which is not executable then (a new path), or NULL. */
char *pcg_find_nonexec(const struct pcg *, const struct pcg_opts *,
    const char *exec, const struct source *from);
/* The exec of process proc (its annotation's, or its component's name),
 * and in *where the place that says it (its src: the 'from' of
 * pcg_find_exec). */
const char *pcg_proc_exec(const struct pcg *, int proc, const struct loc **where);
/* The exec said from the script's directory, when a fragment in another
 * one names it by a relative path (a new string; NULL: as it is), for a
 * script without fragments (pcg_emit). */
char *pcg_exec_unfragmented(const struct pcg *, const char *exec,
    const struct source *from);
/* Note at l where exec was looked for, after it was not found. */
void pcg_exec_searched(const struct pcg *, const struct pcg_opts *,
    const char *exec, const struct loc *l);

/* Print the fully expanded script (no parameters, ranges or 'for'). */
void pcg_emit(const struct pcg *, FILE *);
struct buf;
/* Add an expression to b as the script language writes it, names kept,
 * with the fewest parentheses that keep its meaning. */
void pcg_expr_text(struct buf *, const struct expr *);
/* Give each process its instantiated behaviour (pcg_proc.behaviour):
 * parameters, index and ports() replaced, 'if' decided, 'for' unrolled,
 * loops kept; a port a process does not have is reported.  pcg_expand
 * calls it when all else was correct. */
void pcg_instantiate(struct pcg *);
/* Instantiate behaviours one process at a time (pcg_instantiate's
 * work, for other behaviours than the components' own: those inferred
 * from code).  pcg_behave_proc instantiates body for process proc into
 * *prog and its text into *text (both in the model's arena): 0, or -1
 * after its errors were reported (each statement's once per
 * pcg_behave_new). */
struct pcg_behave;
struct pcg_behave *pcg_behave_new(struct pcg *);
int pcg_behave_proc(struct pcg_behave *, int proc, const struct stmt *body,
    struct pcg_bstmt **prog, const char **text);
void pcg_behave_free(struct pcg_behave *);
/* Check a behaviour item for component comp as expansion checks the
 * script's (names, port types, roots, groups, requests), reporting what
 * is wrong; the number of errors. */
int pcg_check_behaviour(struct pcg *, int comp, const struct item *);
/* The location ("file:line:col", the file as named, any bytes) of each
 * statement of a process's behaviour, in the order the behaviour text has
 * them ("-" where unknown): what the runtime protocol monitor names.
 * Returns the count, and *out a new NULL-terminated array of new strings
 * (caller frees both). */
int pcg_behaviour_locs(const struct pcg *, int proc, char ***out);

#endif
