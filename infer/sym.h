/* sym.h -- the integers a component's code computes its communication
 * from, as expressions of the behaviour language (pcg(5)): literals,
 * script parameters, the process's arguments (arg(k)), its index, its
 * port counts (ports(T)) and the variables of 'for' loops, combined by the
 * language's operators.  Made simplified (constants folded, sums and
 * differences in a canonical order), so that two ways to write the same
 * sum compare equal; printed as the language writes them.  Every sym
 * lives in the arena it was made in. */
#ifndef ENS_SYM_H
#define ENS_SYM_H

#include <stdint.h>

struct arena;
struct buf;

enum sym_kind {
	Y_INT,		/* v */
	Y_PARAM,	/* name: a script parameter */
	Y_ARG,		/* v: the process's argument v (argv[v]), as a number */
	Y_INDEX,	/* the process's index */
	Y_PORTS,	/* name: the process's ports of that type */
	Y_VAR,		/* name: a 'for' variable of the behaviour; v its id */
	Y_UNARY,	/* op ('-' or '!') a */
	Y_BINARY,	/* a op b */
	Y_COND,		/* a ? b : c */
};

/* Operators beyond single characters (the values of grammar/ast.h's). */
enum { SYM_EQ = 256, SYM_NE, SYM_LE, SYM_GE, SYM_AND, SYM_OR, SYM_MAX };

struct sym {
	enum sym_kind	 k;
	int		 op;
	int64_t		 v;
	const char	*name;
	const struct sym *a, *b, *c;
};

/* Makers: each simplifies what it can (constants folded unless that
 * overflows, x + 0, x * 1, sums kept in one order, a condition known from
 * constants decided).  name is borrowed for the arena's life. */
const struct sym *sym_int(struct arena *, int64_t);
const struct sym *sym_leaf(struct arena *, enum sym_kind, const char *name,
    int64_t v);
const struct sym *sym_un(struct arena *, int op, const struct sym *);
const struct sym *sym_bin(struct arena *, int op, const struct sym *,
    const struct sym *);
const struct sym *sym_cond(struct arena *, const struct sym *c,
    const struct sym *a, const struct sym *b);
/* The value of x as a condition (x != 0), in the language's 0 or 1. */
const struct sym *sym_truth(struct arena *, const struct sym *x);
/* Python's a // b and a % b (floor), in the language's C operators. */
const struct sym *sym_floordiv(struct arena *, const struct sym *,
    const struct sym *);
const struct sym *sym_floormod(struct arena *, const struct sym *,
    const struct sym *);

/* Whether a and b are the same expression (after simplification). */
int sym_eq(const struct sym *, const struct sym *);
/* A total order on expressions (sums are kept in it). */
int sym_cmp(const struct sym *, const struct sym *);
/* Whether s is the integer constant *v (set). */
int sym_const(const struct sym *, int64_t *v);
/* Whether s uses the 'for' variable of id var (any: var < 0). */
int sym_uses_var(const struct sym *, int64_t var);
/* s with every 'for' variable of id var replaced by r. */
const struct sym *sym_subst(struct arena *, const struct sym *, int64_t var,
    const struct sym *r);
/* Whether s is known not to be negative (constants, index, ports, and
 * sums and products of those). */
int sym_nonneg(const struct sym *);

/* What is known of conditions on a way through the code: each condition
 * assumed true or false there, to decide it when it comes again. */
struct sym_facts {
	const struct sym **conds;
	int		  *truth;
	int		   n, cap;
};
/* 1 or 0 when c is known (a constant, or assumed on this way), else -1. */
int sym_decide(const struct sym_facts *, const struct sym *c);
/* Assume c has truth t from now on (f's arrays grow; the caller copies
 * facts with sym_facts_copy before a branch). */
void sym_assume(struct sym_facts *, const struct sym *c, int t);
void sym_facts_copy(struct sym_facts *to, const struct sym_facts *from);
void sym_facts_free(struct sym_facts *);

/* Append s as the behaviour language writes it, the fewest parentheses. */
void sym_print(struct buf *, const struct sym *);

#endif
