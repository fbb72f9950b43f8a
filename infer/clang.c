/* clang.c -- the C and C++ front end of the inference (infer.h): the
 * source parsed by libclang (opened on first use, as the ensemble command
 * links libc alone: common/lazylib.h), its functions and statements
 * lowered to the program of code.h.  Calls of the C++ binding (namespace
 * ens) are named 'ens::send' with their parameters' names, so that the
 * interpreter finds their operands whatever the overload; the binding's
 * own inline code is never followed. */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "infer.h"
#include "xmalloc.h"

#ifndef HAVE_LIBCLANG

int
infer_have_clang(void)
{
	return 0;
}

struct cprog *
clang_read(const struct infer_opts *o, enum code_lang lang, struct infer *r,
    char **cause)
{
	(void)o;
	(void)r;
	xasprintf(cause, "this ensemble was built without libclang, which "
	    "reads %s (configure found no libclang-dev; install it and "
	    "configure again)", lang == LANG_CXX ? "C++" : "C");
	return NULL;
}

int
infer_compdb(const char *dir, const char *base, char **path,
    struct infer_words *w)
{
	(void)dir;
	(void)base;
	(void)path;
	(void)w;
	return -1;
}

#else

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include "lazylib.h"

/* Every libclang function used, opened on first use (as pcg/graphviz.h
 * does Graphviz's). */
#define CLANG_NAMES(X) \
	X(clang_createIndex) X(clang_disposeIndex) \
	X(clang_parseTranslationUnit2) X(clang_disposeTranslationUnit) \
	X(clang_getNumDiagnostics) X(clang_getDiagnostic) \
	X(clang_disposeDiagnostic) X(clang_getDiagnosticSeverity) \
	X(clang_getDiagnosticSpelling) X(clang_getDiagnosticLocation) \
	X(clang_getTranslationUnitCursor) X(clang_visitChildren) \
	X(clang_getCursorKind) X(clang_getCursorSpelling) X(clang_getCString) \
	X(clang_disposeString) X(clang_getCursorLocation) \
	X(clang_getSpellingLocation) X(clang_getExpansionLocation) \
	X(clang_getFileName) X(clang_Location_isInSystemHeader) \
	X(clang_getCursorReferenced) X(clang_getCursorDefinition) \
	X(clang_isCursorDefinition) X(clang_getCursorUSR) \
	X(clang_getCursorExtent) X(clang_getRangeStart) X(clang_getRangeEnd) \
	X(clang_tokenize) X(clang_disposeTokens) X(clang_getTokenSpelling) \
	X(clang_getTokenKind) X(clang_getTokenLocation) \
	X(clang_Cursor_Evaluate) X(clang_EvalResult_getKind) \
	X(clang_EvalResult_getAsLongLong) X(clang_EvalResult_getAsStr) \
	X(clang_EvalResult_dispose) X(clang_getCursorType) \
	X(clang_getCanonicalType) X(clang_getTypeSpelling) \
	X(clang_getCursorSemanticParent) X(clang_Cursor_isNull) \
	X(clang_Cursor_getStorageClass) X(clang_getArraySize) \
	X(clang_Cursor_getNumArguments) X(clang_Cursor_getArgument) \
	X(clang_CXXMethod_isConst) \
	X(clang_isExpression) X(clang_isStatement) \
	X(clang_isDeclaration) X(clang_getCursorKindSpelling) \
	X(clang_equalLocations) X(clang_getNullCursor) X(clang_getFile) \
	X(clang_getPointeeType) X(clang_getFileContents) \
	X(clang_getClangVersion) X(clang_saveTranslationUnit) \
	X(clang_CompilationDatabase_fromDirectory) \
	X(clang_CompilationDatabase_dispose) \
	X(clang_CompilationDatabase_getAllCompileCommands) \
	X(clang_CompileCommands_getSize) X(clang_CompileCommands_getCommand) \
	X(clang_CompileCommands_dispose) X(clang_CompileCommand_getDirectory) \
	X(clang_CompileCommand_getFilename) X(clang_CompileCommand_getNumArgs) \
	X(clang_CompileCommand_getArg)

static struct {
	int	open;
#define CLANG_FIELD(name) __typeof__(name) *p_##name;
	CLANG_NAMES(CLANG_FIELD)
#undef CLANG_FIELD
} lc;

static struct lazylib lib = { "libclang", ENS_LIBCLANG_SONAME, NULL };

static void
lc_open(void)
{
#define CLANG_SYM(name) \
	lc.p_##name = (__typeof__(lc.p_##name))lazy_sym(&lib, #name);
	CLANG_NAMES(CLANG_SYM)
#undef CLANG_SYM
	lc.open = 1;
}

#define L(name)	(*lc.p_##name)

int
infer_have_clang(void)
{
	return 1;
}

/* What the lowering of one translation unit keeps. */
struct lower {
	struct cprog		*p;
	struct infer		*r;
	CXTranslationUnit	 tu;
	const char		*main;	/* the file as named */
	char			*mainpath;	/* as libclang names it */
	const char		**ours;	/* the include directories of ensemble's
					 * and MPI's headers (-I) */
	int			 nours;
};

/* A cursor's string, in the program's arena. */
static const char *
cstr(struct lower *lw, CXString s)
{
	const char	*t = L(clang_getCString)(s), *r;

	r = code_str(lw->p, t != NULL ? t : "", t != NULL ? strlen(t) : 0);
	L(clang_disposeString)(s);
	return r;
}

/* The place of a cursor (where a macro is used, for what it expands). */
static struct cloc
loc_of(struct lower *lw, CXCursor c)
{
	CXSourceLocation	 l = L(clang_getCursorLocation)(c);
	CXFile			 f;
	CXString		 name;
	struct cloc		 r;
	unsigned		 line, col;
	const char		*n;

	L(clang_getExpansionLocation)(l, &f, &line, &col, NULL);
	memset(&r, 0, sizeof(r));
	r.line = (int)line;
	r.col = (int)col;
	if (f == NULL)
		return r;
	name = L(clang_getFileName)(f);
	n = L(clang_getCString)(name);
	if (n != NULL && strcmp(n, lw->mainpath) == 0)
		r.file = lw->main;
	else
		r.file = n != NULL ? code_str(lw->p, n, strlen(n)) : NULL;
	L(clang_disposeString)(name);
	return r;
}

/* The offset of a location in its file, where a macro is used. */
static unsigned
offset_of(CXSourceLocation l)
{
	unsigned	off;

	L(clang_getExpansionLocation)(l, NULL, NULL, NULL, &off);
	return off;
}

/* Whether a cursor's place is in a macro's expansion. */
static int
in_macro(CXCursor c)
{
	CXSourceLocation	l = L(clang_getCursorLocation)(c);
	CXFile			f1, f2;
	unsigned		o1, o2;

	L(clang_getExpansionLocation)(l, &f1, NULL, NULL, &o1);
	L(clang_getSpellingLocation)(l, &f2, NULL, NULL, &o2);
	return f1 != f2 || o1 != o2;
}

/* A cursor's children. */
struct kids {
	CXCursor	*v;
	int		 n, cap;
};

static enum CXChildVisitResult
collect(CXCursor c, CXCursor parent, CXClientData d)
{
	struct kids	*k = d;

	(void)parent;
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 8;
		k->v = xreallocarray(k->v, (size_t)k->cap, sizeof(*k->v));
	}
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

static void
kids_of(CXCursor c, struct kids *k)
{
	memset(k, 0, sizeof(*k));
	L(clang_visitChildren)(c, collect, k);
}

/* The expression children (not type or namespace references). */
static void
expr_kids(CXCursor c, struct kids *k)
{
	int	i, j;

	kids_of(c, k);
	for (i = j = 0; i < k->n; i++) {
		enum CXCursorKind	kind = L(clang_getCursorKind)(k->v[i]);

		if (kind == CXCursor_TypeRef || kind == CXCursor_NamespaceRef ||
		    kind == CXCursor_TemplateRef || kind == CXCursor_MemberRef ||
		    kind == CXCursor_OverloadedDeclRef)
			continue;
		k->v[j++] = k->v[i];
	}
	k->n = j;
}

/* The constant a cursor evaluates to, if it does. */
static int
constant(CXCursor c, long long *v, const char **str, struct lower *lw)
{
	CXEvalResult	e = L(clang_Cursor_Evaluate)(c);
	int		ok = 0;

	if (e == NULL)
		return 0;
	switch (L(clang_EvalResult_getKind)(e)) {
	case CXEval_Int:
		*v = L(clang_EvalResult_getAsLongLong)(e);
		ok = 1;
		break;
	case CXEval_StrLiteral:
		if (str != NULL) {
			const char	*s = L(clang_EvalResult_getAsStr)(e);

			*str = code_str(lw->p, s, strlen(s));
			ok = 2;
		}
		break;
	default:
		break;
	}
	L(clang_EvalResult_dispose)(e);
	return ok;
}

/* The tokens of a cursor's extent: their spellings and offsets. */
struct toks {
	char		**s;
	unsigned	 *off;
	unsigned	  n;
};

static void
toks_of(struct lower *lw, CXCursor c, struct toks *t)
{
	CXToken		*tk;
	CXString	 s;
	unsigned	 i, n;

	memset(t, 0, sizeof(*t));
	L(clang_tokenize)(lw->tu, L(clang_getCursorExtent)(c), &tk, &n);
	if (n == 0)
		return;
	t->s = xcalloc(n, sizeof(*t->s));
	t->off = xcalloc(n, sizeof(*t->off));
	for (i = 0; i < n; i++) {
		s = L(clang_getTokenSpelling)(lw->tu, tk[i]);
		t->s[i] = xstrdup(L(clang_getCString)(s));
		L(clang_disposeString)(s);
		t->off[i] = offset_of(L(clang_getTokenLocation)(lw->tu, tk[i]));
	}
	t->n = n;
	L(clang_disposeTokens)(lw->tu, tk, n);
}

static void
toks_free(struct toks *t)
{
	unsigned	i;

	for (i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	free(t->off);
}

static unsigned
start_of(CXCursor c)
{
	return offset_of(L(clang_getRangeStart)(L(clang_getCursorExtent)(c)));
}

static unsigned
end_of(CXCursor c)
{
	return offset_of(L(clang_getRangeEnd)(L(clang_getCursorExtent)(c)));
}

static struct cnode *lower_expr(struct lower *, CXCursor);
static struct cnode *lower_stmt(struct lower *, CXCursor);

static struct cnode *
unknown(struct lower *lw, CXCursor c, const char *why)
{
	struct cloc	 l = loc_of(lw, c);
	struct cnode	*n = code_node(lw->p, X_UNKNOWN, &l);

	n->s = why;
	return n;
}

/* An operator's value, from its text. */
static int
op_text(const char *t)
{
	static const struct {
		const char	*s;
		int		 op;
	} ops[] = {
		{ "==", CN_EQ }, { "!=", CN_NE }, { "<=", CN_LE }, { ">=", CN_GE },
		{ "&&", CN_AND }, { "||", CN_OR }, { "<<", CN_SHL }, { ">>", CN_SHR },
		{ "+", '+' }, { "-", '-' }, { "*", '*' }, { "/", '/' }, { "%", '%' },
		{ "<", '<' }, { ">", '>' }, { "&", '&' }, { "|", '|' }, { "^", '^' },
		{ ",", ',' },
	};
	size_t	i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(ops[i].s, t) == 0)
			return ops[i].op;
	return -1;
}

/* A binary operator: its operator's token between its operands. */
static struct cnode *
lower_binary(struct lower *lw, CXCursor c, int compound)
{
	struct kids	 k;
	struct toks	 t;
	struct cnode	*n;
	struct cloc	 l = loc_of(lw, c);
	unsigned	 i, e0;
	long long	 v;
	char		 op[8] = "";
	size_t		 len;

	expr_kids(c, &k);
	if (k.n != 2) {
		free(k.v);
		return unknown(lw, c, "an operator not read");
	}
	if (in_macro(c) || in_macro(k.v[0]) || in_macro(k.v[1])) {
		/* Its operator is in a macro's body: a constant, or not read. */
		if (constant(c, &v, NULL, lw) == 1) {
			free(k.v);
			n = code_node(lw->p, X_INT, &l);
			n->i = v;
			return n;
		}
		if (!in_macro(c) || start_of(k.v[0]) != start_of(k.v[1]))
			goto tokens;
		free(k.v);
		return unknown(lw, c, "an operation inside a macro");
	}
tokens:
	toks_of(lw, c, &t);
	e0 = end_of(k.v[0]);
	for (i = 0; i < t.n; i++)
		if (t.off[i] >= e0 && strchr("+-*/%<>=!&|^,", t.s[i][0]) != NULL) {
			snprintf(op, sizeof(op), "%s", t.s[i]);
			break;
		}
	toks_free(&t);
	len = strlen(op);
	if (compound || (len == 1 && op[0] == '=')) {
		n = code_node(lw->p, X_ASSIGN, &l);
		if (len >= 2 && op[len - 1] == '=') {
			op[len - 1] = '\0';
			n->op = op_text(op);
		} else if (strcmp(op, "=") == 0)
			n->op = 0;
		else
			n->op = -1;
	} else {
		n = code_node(lw->p, X_BINARY, &l);
		n->op = op_text(op);
	}
	if (n->op < 0) {
		free(k.v);
		return unknown(lw, c, "an operator not read");
	}
	n->a = lower_expr(lw, k.v[0]);
	n->b = lower_expr(lw, k.v[1]);
	free(k.v);
	return n;
}

static struct cnode *
lower_unary(struct lower *lw, CXCursor c)
{
	struct kids	 k;
	struct toks	 t;
	struct cnode	*n;
	struct cloc	 l = loc_of(lw, c);
	const char	*op;
	long long	 v;
	int		 post = 0;

	expr_kids(c, &k);
	if (k.n != 1) {
		free(k.v);
		return unknown(lw, c, "an operator not read");
	}
	toks_of(lw, c, &t);
	if (t.n == 0 || in_macro(c)) {
		toks_free(&t);
		free(k.v);
		if (constant(c, &v, NULL, lw) == 1) {
			n = code_node(lw->p, X_INT, &l);
			n->i = v;
			return n;
		}
		return unknown(lw, c, "an operation inside a macro");
	}
	op = t.s[0];
	if (t.off[0] >= end_of(k.v[0]) || start_of(k.v[0]) <= t.off[0]) {
		if (start_of(k.v[0]) <= t.off[0]) {
			op = t.s[t.n - 1];	/* x++ */
			post = 1;
		}
	}
	if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
		n = code_node(lw->p, X_INCDEC, &l);
		n->op = op[0];
		n->i = post;
	} else if (strlen(op) == 1 && strchr("-+!~&*", op[0]) != NULL) {
		n = code_node(lw->p, X_UNARY, &l);
		n->op = op[0];
	} else {
		toks_free(&t);
		free(k.v);
		if (constant(c, &v, NULL, lw) == 1) {
			n = code_node(lw->p, X_INT, &l);
			n->i = v;
			return n;
		}
		return unknown(lw, c, "an operator not read");
	}
	n->a = lower_expr(lw, k.v[0]);
	toks_free(&t);
	free(k.v);
	return n;
}

/* The namespace a declaration is in ("ens", "std"), or NULL. */
static const char *
namespace_of(struct lower *lw, CXCursor d)
{
	CXCursor	p = L(clang_getCursorSemanticParent)(d);

	while (!L(clang_Cursor_isNull)(p)) {
		enum CXCursorKind k = L(clang_getCursorKind)(p);

		if (k == CXCursor_Namespace)
			return cstr(lw, L(clang_getCursorSpelling)(p));
		if (k == CXCursor_TranslationUnit)
			break;
		p = L(clang_getCursorSemanticParent)(p);
	}
	return NULL;
}

/* A declaration's class, for a constructor or method: its name. */
static const char *
class_of(struct lower *lw, CXCursor d)
{
	CXCursor	p = L(clang_getCursorSemanticParent)(d);

	return cstr(lw, L(clang_getCursorSpelling)(p));
}

/* A reference to a function: X_FUNC named as the interpreter knows it. */
/* Whether a function declared by d, not defined in the unit, is the
 * program's own, defined in another of its files: declared in the
 * source or a header of its own (not a system header, nor ensemble's or
 * MPI's). */
static int
elsewhere(struct lower *lw, CXCursor d, const char *name)
{
	CXFile		 f;
	const char	*path;
	size_t		 n;
	int		 i;

	if (strncmp(name, "ens_", 4) == 0 || strncmp(name, "MPI_", 4) == 0 ||
	    strncmp(name, "PMPI_", 5) == 0 ||
	    L(clang_Location_isInSystemHeader)(L(clang_getCursorLocation)(d)))
		return 0;
	L(clang_getExpansionLocation)(L(clang_getCursorLocation)(d), &f, NULL,
	    NULL, NULL);
	if (f == NULL)
		return 0;
	path = cstr(lw, L(clang_getFileName)(f));
	for (i = 0; i < lw->nours; i++) {
		n = strlen(lw->ours[i]);
		if (strncmp(path, lw->ours[i], n) == 0 && path[n] == '/')
			return 0;
	}
	return 1;
}

static struct cnode *
func_ref(struct lower *lw, CXCursor d, const struct cloc *l)
{
	struct cnode	*n = code_node(lw->p, X_FUNC, l);
	const char	*ns = namespace_of(lw, d), *name;
	CXCursor	 def = L(clang_getCursorDefinition)(d);
	char		*q;

	name = cstr(lw, L(clang_getCursorSpelling)(d));
	if (ns != NULL && strcmp(ns, "ens") == 0) {
		xasprintf(&q, "ens::%s", name);
		n->s = code_str(lw->p, q, strlen(q));
		free(q);
		return n;
	}
	n->s = name;
	if (!L(clang_Cursor_isNull)(def) && !L(clang_Location_isInSystemHeader)(
	    L(clang_getCursorLocation)(def)))
		n->key = cstr(lw, L(clang_getCursorUSR)(def));
	else if (L(clang_Cursor_isNull)(def) && elsewhere(lw, d, name)) {
		/* (another of the sources given may define it) */
		n->key = cstr(lw, L(clang_getCursorUSR)(d));
		n->op = FUNC_ELSEWHERE;
	}
	return n;
}

/* The parameters' names of a function, comma-separated (C++ ens::). */
static const char *
param_names(struct lower *lw, CXCursor d)
{
	struct buf	b;
	int		i, n = L(clang_Cursor_getNumArguments)(d);
	const char	*r;

	buf_init(&b);
	buf_adds(&b, "");
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(&b, ',');
		buf_adds(&b, cstr(lw, L(clang_getCursorSpelling)(
		    L(clang_Cursor_getArgument)(d, (unsigned)i))));
	}
	r = code_str(lw->p, b.s, b.len);
	buf_free(&b);
	return r;
}

/* The declaration a callee expression refers to (through casts). */
static CXCursor
callee_decl(CXCursor c)
{
	struct kids	 k;
	enum CXCursorKind kind = L(clang_getCursorKind)(c);
	CXCursor	 r;

	if (kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr)
		return L(clang_getCursorReferenced)(c);
	if (kind == CXCursor_UnexposedExpr || kind == CXCursor_ParenExpr) {
		expr_kids(c, &k);
		r = k.n == 1 ? callee_decl(k.v[0]) : L(clang_getNullCursor)();
		free(k.v);
		return r;
	}
	return L(clang_getNullCursor)();
}

/* A C++ operator call: operands and the operator's declaration. */
static struct cnode *
lower_operator(struct lower *lw, CXCursor c, const char *opname,
    struct kids *k)
{
	struct cnode	*n, *ops[3];
	struct cloc	 l = loc_of(lw, c);
	int		 i, m = 0;

	for (i = 0; i < k->n && m < 3; i++) {
		CXCursor d = callee_decl(k->v[i]);

		if (!L(clang_Cursor_isNull)(d) && strncmp(cstr(lw,
		    L(clang_getCursorSpelling)(d)), "operator", 8) == 0 &&
		    L(clang_getCursorKind)(d) != CXCursor_VarDecl &&
		    L(clang_getCursorKind)(d) != CXCursor_ParmDecl)
			continue;
		ops[m++] = lower_expr(lw, k->v[i]);
	}
	opname += 8;
	if (strcmp(opname, "[]") == 0 && m == 2) {
		n = code_node(lw->p, X_INDEX, &l);
		n->a = ops[0];
		n->b = ops[1];
		return n;
	}
	if (strcmp(opname, "*") == 0 && m == 1) {
		n = code_node(lw->p, X_UNARY, &l);
		n->op = '*';
		n->a = ops[0];
		return n;
	}
	if (strcmp(opname, "=") == 0 && m == 2) {
		n = code_node(lw->p, X_ASSIGN, &l);
		n->a = ops[0];
		n->b = ops[1];
		return n;
	}
	if ((strcmp(opname, "++") == 0 || strcmp(opname, "--") == 0) && m >= 1) {
		n = code_node(lw->p, X_INCDEC, &l);
		n->op = opname[0];
		n->i = m == 2;
		n->a = ops[0];
		return n;
	}
	if (m == 2 && op_text(opname) >= 0) {
		n = code_node(lw->p, X_BINARY, &l);
		n->op = op_text(opname);
		n->a = ops[0];
		n->b = ops[1];
		return n;
	}
	if (m == 2 && strlen(opname) >= 2 && opname[strlen(opname) - 1] == '=') {
		char	o[8];

		snprintf(o, sizeof(o), "%.*s", (int)strlen(opname) - 1, opname);
		n = code_node(lw->p, X_ASSIGN, &l);
		n->op = op_text(o);
		n->a = ops[0];
		n->b = ops[1];
		return n;
	}
	return unknown(lw, c, "a C++ operator not read");
}

/* A call: of a function, a method, an operator, a constructor. */
static struct cnode *
lower_call(struct lower *lw, CXCursor c)
{
	struct kids	 k;
	struct cnode	*n, **t;
	struct cloc	 l = loc_of(lw, c);
	CXCursor	 d = L(clang_getCursorReferenced)(c);
	enum CXCursorKind dk = L(clang_Cursor_isNull)(d) ? CXCursor_NoDeclFound :
			    L(clang_getCursorKind)(d);
	const char	*name = L(clang_Cursor_isNull)(d) ? "" :
			    cstr(lw, L(clang_getCursorSpelling)(d));
	int		 i, nargs;

	expr_kids(c, &k);
	if (strncmp(name, "operator", 8) == 0 && dk != CXCursor_Constructor &&
	    dk != CXCursor_ConversionFunction) {
		n = lower_operator(lw, c, name, &k);
		free(k.v);
		return n;
	}
	if (dk == CXCursor_ConversionFunction) {
		/* (an operator bool, an operator const char *): the object */
		n = k.n >= 1 ? lower_expr(lw, k.v[0]) : unknown(lw, c, "a "
		    "conversion");
		free(k.v);
		return n;
	}
	if (dk == CXCursor_Constructor) {
		const char	*cls = class_of(lw, d), *ns = namespace_of(lw, d);

		nargs = L(clang_Cursor_getNumArguments)(c);
		if (ns != NULL && strcmp(ns, "ens") == 0 && strcmp(cls, "group") == 0) {
			n = code_node(lw->p, X_CALL, &l);
			n->a = code_node(lw->p, X_FUNC, &l);
			n->a->s = "ens::group";
			n->key = param_names(lw, d);
			t = &n->list;
			for (i = 0; i < nargs; i++) {
				*t = lower_expr(lw, L(clang_Cursor_getArgument)(c,
				    (unsigned)i));
				t = &(*t)->next;
			}
			free(k.v);
			return n;
		}
		/* A name, a string, a copy: the value it is made from. */
		if (nargs == 1 && ((ns != NULL && strcmp(ns, "ens") == 0 &&
		    strcmp(cls, "name") == 0) || strcmp(cls, "basic_string") == 0 ||
		    strcmp(cls, "optional") == 0 || strcmp(cls, "span") == 0)) {
			n = lower_expr(lw, L(clang_Cursor_getArgument)(c, 0));
			free(k.v);
			return n;
		}
		free(k.v);
		if (nargs == 1)
			return lower_expr(lw, L(clang_Cursor_getArgument)(c, 0));
		return unknown(lw, c, "an object of a class");
	}
	n = code_node(lw->p, X_CALL, &l);
	/* The callee: the first child; a method: its object. */
	if (k.n == 0) {
		free(k.v);
		return unknown(lw, c, "a call not read");
	}
	if (dk == CXCursor_UsingDeclaration || dk == CXCursor_OverloadedDeclRef) {
		/* std::exit through 'using ::exit': the name as written */
		n->a = code_node(lw->p, X_FUNC, &l);
		n->a->s = name;
	} else if (dk == CXCursor_FunctionDecl || dk == CXCursor_FunctionTemplate) {
		n->a = func_ref(lw, d, &l);
		if (n->a->s != NULL && strncmp(n->a->s, "ens::", 5) == 0)
			n->key = param_names(lw, d);
	} else if (dk == CXCursor_CXXMethod) {
		struct kids	mk;

		kids_of(k.v[0], &mk);
		n->a = code_node(lw->p, X_MEMBER, &l);
		n->a->s = name;
		n->a->op = L(clang_CXXMethod_isConst)(d) ? MEMBER_CONST : 0;
		n->a->a = mk.n >= 1 ? lower_expr(lw, mk.v[0]) : unknown(lw, c,
		    "'this'");
		free(mk.v);
	} else
		n->a = lower_expr(lw, k.v[0]);
	nargs = L(clang_Cursor_getNumArguments)(c);
	t = &n->list;
	for (i = 0; i < nargs; i++) {
		*t = lower_expr(lw, L(clang_Cursor_getArgument)(c, (unsigned)i));
		t = &(*t)->next;
	}
	free(k.v);
	return n;
}

/* A string literal's text, from its tokens (pieces written one after
 * the other joined, C's escapes read); NULL for a wide one or one from
 * a macro not read. */
static const char *
string_of(struct lower *lw, CXCursor c)
{
	struct toks	 t;
	struct buf	 b;
	const char	*p, *r = NULL;
	unsigned	 i;

	toks_of(lw, c, &t);
	buf_init(&b);
	buf_adds(&b, "");
	for (i = 0; i < t.n; i++) {
		p = t.s[i];
		if (*p != '"')
			goto out;
		for (p++; *p != '\0' && *p != '"'; p++) {
			if (*p != '\\') {
				buf_addc(&b, *p);
				continue;
			}
			switch (*++p) {
			case 'n':	buf_addc(&b, '\n'); break;
			case 't':	buf_addc(&b, '\t'); break;
			case '0':	goto out;
			case '\0':	goto out;
			default:	buf_addc(&b, *p); break;
			}
		}
	}
	if (t.n > 0)
		r = code_str(lw->p, b.s, b.len);
out:
	buf_free(&b);
	toks_free(&t);
	return r;
}

/* Whether an expression's text is one macro's name (MPI_REQUEST_NULL). */
static int
is_macro(struct lower *lw, CXCursor c, const char *name)
{
	struct toks	t;
	int		r;

	toks_of(lw, c, &t);
	r = t.n >= 1 && strcmp(t.s[0], name) == 0 && (t.n == 1 ||
	    t.off[t.n - 1] == t.off[0]);
	toks_free(&t);
	return r;
}

static struct cnode *
lower_expr(struct lower *lw, CXCursor c)
{
	enum CXCursorKind	 kind = L(clang_getCursorKind)(c);
	struct cloc		 l = loc_of(lw, c);
	struct kids		 k;
	struct cnode		*n, **t;
	const char		*s;
	long long		 v;
	int			 i;
	CXCursor		 d;

	switch (kind) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_CXXBoolLiteralExpr:
		n = code_node(lw->p, X_INT, &l);
		if (constant(c, &v, NULL, lw) != 1)
			return unknown(lw, c, "a literal not read");
		n->i = v;
		return n;
	case CXCursor_FloatingLiteral:
		return code_node(lw->p, X_FLOAT, &l);
	case CXCursor_StringLiteral:
		if ((s = string_of(lw, c)) == NULL)
			return unknown(lw, c, "a string not read");
		n = code_node(lw->p, X_STR, &l);
		n->s = s;
		return n;
	case CXCursor_CXXNullPtrLiteralExpr:
	case CXCursor_GNUNullExpr:
		return code_node(lw->p, X_NULL, &l);
	case CXCursor_DeclRefExpr:
		d = L(clang_getCursorReferenced)(c);
		switch (L(clang_getCursorKind)(d)) {
		case CXCursor_VarDecl:
		case CXCursor_ParmDecl:
			n = code_node(lw->p, X_VAR, &l);
			n->s = cstr(lw, L(clang_getCursorSpelling)(d));
			n->key = cstr(lw, L(clang_getCursorUSR)(d));
			if (L(clang_getCursorKind)(d) == CXCursor_VarDecl &&
			    (L(clang_getCursorKind)(L(clang_getCursorSemanticParent)(d)) !=
			    CXCursor_FunctionDecl || L(clang_Cursor_getStorageClass)(d) ==
			    CX_SC_Static))
				n->op = VAR_GLOBAL;
			return n;
		case CXCursor_FunctionDecl:
		case CXCursor_FunctionTemplate:
			return func_ref(lw, d, &l);
		case CXCursor_EnumConstantDecl:
			if (constant(c, &v, NULL, lw) == 1) {
				n = code_node(lw->p, X_INT, &l);
				n->i = v;
				return n;
			}
			return unknown(lw, c, "an enumerator not read");
		default:
			return unknown(lw, c, "a name not read");
		}
	case CXCursor_MemberRefExpr:
		expr_kids(c, &k);
		n = code_node(lw->p, X_MEMBER, &l);
		n->s = cstr(lw, L(clang_getCursorSpelling)(c));
		n->a = k.n >= 1 ? lower_expr(lw, k.v[0]) : unknown(lw, c, "'this'");
		free(k.v);
		return n;
	case CXCursor_ArraySubscriptExpr:
		expr_kids(c, &k);
		if (k.n != 2) {
			free(k.v);
			return unknown(lw, c, "an element not read");
		}
		n = code_node(lw->p, X_INDEX, &l);
		n->a = lower_expr(lw, k.v[0]);
		n->b = lower_expr(lw, k.v[1]);
		free(k.v);
		return n;
	case CXCursor_CallExpr:
		return lower_call(lw, c);
	case CXCursor_UnaryOperator:
		return lower_unary(lw, c);
	case CXCursor_BinaryOperator:
		return lower_binary(lw, c, 0);
	case CXCursor_CompoundAssignOperator:
		return lower_binary(lw, c, 1);
	case CXCursor_ConditionalOperator:
		expr_kids(c, &k);
		if (k.n != 3) {
			free(k.v);
			return unknown(lw, c, "a '?:' not read");
		}
		n = code_node(lw->p, X_COND, &l);
		n->a = lower_expr(lw, k.v[0]);
		n->b = lower_expr(lw, k.v[1]);
		n->c = lower_expr(lw, k.v[2]);
		free(k.v);
		return n;
	case CXCursor_InitListExpr:
		expr_kids(c, &k);
		n = code_node(lw->p, X_LIST, &l);
		t = &n->list;
		for (i = 0; i < k.n; i++) {
			*t = lower_expr(lw, k.v[i]);
			t = &(*t)->next;
		}
		free(k.v);
		return n;
	case CXCursor_UnaryExpr:
		if (constant(c, &v, NULL, lw) == 1) {
			n = code_node(lw->p, X_INT, &l);
			n->i = v;
			return n;
		}
		return unknown(lw, c, "sizeof or alignof of a size not known");
	case CXCursor_LambdaExpr:
		return unknown(lw, c, "a lambda");
	case CXCursor_CXXThisExpr:
		return unknown(lw, c, "'this'");
	case CXCursor_CStyleCastExpr:
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CXXStaticCastExpr:
	case CXCursor_CXXConstCastExpr:
	case CXCursor_CXXReinterpretCastExpr:
	case CXCursor_CXXFunctionalCastExpr:
	default:
		if (kind == CXCursor_CStyleCastExpr || kind == CXCursor_ParenExpr) {
			if (is_macro(lw, c, "MPI_REQUEST_NULL"))
				return code_node(lw->p, X_NULL, &l);
		}
		expr_kids(c, &k);
		if (k.n >= 1 && (kind == CXCursor_CStyleCastExpr ||
		    kind == CXCursor_ParenExpr || kind == CXCursor_UnexposedExpr ||
		    kind == CXCursor_CXXStaticCastExpr ||
		    kind == CXCursor_CXXConstCastExpr ||
		    kind == CXCursor_CXXReinterpretCastExpr ||
		    kind == CXCursor_CXXFunctionalCastExpr)) {
			n = lower_expr(lw, k.v[k.n - 1]);
			free(k.v);
			return n;
		}
		free(k.v);
		if (constant(c, &v, NULL, lw) == 1) {
			n = code_node(lw->p, X_INT, &l);
			n->i = v;
			return n;
		}
		{
			char	*why;

			s = cstr(lw, L(clang_getCursorKindSpelling)(kind));
			xasprintf(&why, "a %s", s);
			s = code_str(lw->p, why, strlen(why));
			free(why);
		}
		return unknown(lw, c, s);
	}
}

/* The source text of a cursor, blanks made one space, for messages. */
static const char *
text_of(struct lower *lw, CXCursor c)
{
	CXSourceRange	 r = L(clang_getCursorExtent)(c);
	CXFile		 f1, f2;
	unsigned	 o1, o2;
	size_t		 size;
	const char	*src, *p, *res;
	struct buf	 b;
	int		 blank = 0;

	L(clang_getExpansionLocation)(L(clang_getRangeStart)(r), &f1, NULL, NULL,
	    &o1);
	L(clang_getExpansionLocation)(L(clang_getRangeEnd)(r), &f2, NULL, NULL,
	    &o2);
	if (f1 == NULL || f1 != f2 || o2 <= o1 ||
	    (src = L(clang_getFileContents)(lw->tu, f1, &size)) == NULL ||
	    o2 > size)
		return NULL;
	buf_init(&b);
	for (p = src + o1; p < src + o2 && b.len < 160; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			blank = 1;
			continue;
		}
		if (blank && b.len > 0)
			buf_addc(&b, ' ');
		blank = 0;
		buf_addc(&b, *p);
	}
	res = code_str(lw->p, b.s != NULL ? b.s : "", b.len);
	buf_free(&b);
	return res;
}

/* A variable's declaration: its storage and type, its initial value. */
static struct cnode *
lower_var(struct lower *lw, CXCursor d)
{
	struct cloc	 l = loc_of(lw, d);
	struct cnode	*n = code_node(lw->p, K_DECL, &l);
	struct kids	 k;
	CXType		 ty = L(clang_getCanonicalType)(L(clang_getCursorType)(d));
	const char	*tn = cstr(lw, L(clang_getTypeSpelling)(ty));
	const char	*given = cstr(lw, L(clang_getTypeSpelling)(
			    L(clang_getCursorType)(d)));
	int		 i;

	n->s = cstr(lw, L(clang_getCursorSpelling)(d));
	n->key = cstr(lw, L(clang_getCursorUSR)(d));
	if (L(clang_Cursor_getStorageClass)(d) == CX_SC_Static ||
	    L(clang_getCursorKind)(L(clang_getCursorSemanticParent)(d)) !=
	    CXCursor_FunctionDecl)
		n->op |= DECL_STATIC;
	if (ty.kind == CXType_ConstantArray || ty.kind == CXType_IncompleteArray ||
	    ty.kind == CXType_VariableArray) {
		n->op |= DECL_ARRAY;
		if (ty.kind == CXType_ConstantArray) {
			n->b = code_node(lw->p, X_INT, &l);
			n->b->i = L(clang_getArraySize)(ty);
		}
	} else if (ty.kind == CXType_Record) {
		if (strstr(given, "ens::session") != NULL ||
		    strstr(tn, "ens::session") != NULL)
			n->op |= DECL_SESSION;
		else if (strncmp(tn, "std::vector<", 12) == 0 ||
		    strncmp(tn, "std::array<", 11) == 0 ||
		    strncmp(tn, "std::__cxx11::list<", 18) == 0)
			n->op |= DECL_LIST;
		else if (strncmp(tn, "std::", 5) != 0 && strncmp(tn, "ens::", 5) != 0)
			n->op |= DECL_RECORD;
	}
	expr_kids(d, &k);
	for (i = k.n - 1; i >= 0; i--)
		if (L(clang_isExpression)(L(clang_getCursorKind)(k.v[i])))
			break;
	/* (an array's length in its brackets is no initial value: only a
	 * list or a string initializes one) */
	if (i >= 0 && !(n->op & (DECL_SESSION | DECL_LIST)) &&
	    (!(n->op & DECL_ARRAY) ||
	    L(clang_getCursorKind)(k.v[i]) == CXCursor_InitListExpr ||
	    L(clang_getCursorKind)(k.v[i]) == CXCursor_StringLiteral))
		n->a = lower_expr(lw, k.v[i]);
	free(k.v);
	return n;
}

/* The parts of a for statement by where they stand: init ; cond ; step. */
static void
for_parts(struct lower *lw, CXCursor c, struct kids *k, CXCursor *part,
    int *has)
{
	struct toks	t;
	unsigned	i, semi[2] = { 0, 0 }, rp = 0;
	int		depth = 0, ns = 0, j, slot;

	toks_of(lw, c, &t);
	for (i = 0; i < t.n; i++) {
		if (strcmp(t.s[i], "(") == 0)
			depth++;
		else if (strcmp(t.s[i], ")") == 0) {
			if (--depth == 0) {
				rp = t.off[i];
				break;
			}
		} else if (strcmp(t.s[i], ";") == 0 && depth == 1 && ns < 2)
			semi[ns++] = t.off[i];
	}
	toks_free(&t);
	for (j = 0; j < 4; j++)
		has[j] = 0;
	for (j = 0; j < k->n; j++) {
		unsigned	s = start_of(k->v[j]);

		slot = ns < 2 ? 3 : s < semi[0] ? 0 : s < semi[1] ? 1 : s < rp ? 2 : 3;
		part[slot] = k->v[j];
		has[slot] = 1;
	}
}

static struct cnode *
block_of(struct lower *lw, CXCursor c)
{
	struct cnode	*n = lower_stmt(lw, c);
	struct cloc	 l;

	if (n == NULL) {
		l = loc_of(lw, c);
		n = code_node(lw->p, K_BLOCK, &l);
	}
	return n;
}

/* A switch's cases from its body: a case starts at each label, and
 * labels written one after the other are one case's. */
static struct cnode *
lower_switch(struct lower *lw, CXCursor c)
{
	struct cloc	 l = loc_of(lw, c);
	struct cnode	*n = code_node(lw->p, K_SWITCH, &l), *cs = NULL, **ct,
			*s, **lt;
	struct kids	 k, body;
	CXCursor	 x;
	int		 i;

	kids_of(c, &k);
	if (k.n < 2) {
		free(k.v);
		return n;
	}
	n->a = lower_expr(lw, k.v[k.n - 2]);
	n->s = text_of(lw, k.v[k.n - 2]);
	ct = &n->list;
	kids_of(k.v[k.n - 1], &body);
	for (i = 0; i < body.n; i++) {
		x = body.v[i];
		if (L(clang_getCursorKind)(x) == CXCursor_CaseStmt ||
		    L(clang_getCursorKind)(x) == CXCursor_DefaultStmt) {
			struct cloc	cl = loc_of(lw, x);

			cs = code_node(lw->p, K_CASE, &cl);
			cs->b = code_node(lw->p, K_BLOCK, &cl);
			*ct = cs;
			ct = &cs->next;
			lt = &cs->list;
			/* case A: case B: ... its statement */
			while (L(clang_getCursorKind)(x) == CXCursor_CaseStmt ||
			    L(clang_getCursorKind)(x) == CXCursor_DefaultStmt) {
				struct kids	ck;

				kids_of(x, &ck);
				if (L(clang_getCursorKind)(x) == CXCursor_CaseStmt &&
				    ck.n >= 1) {
					*lt = lower_expr(lw, ck.v[0]);
					lt = &(*lt)->next;
				}
				if (ck.n == 0) {
					free(ck.v);
					break;
				}
				x = ck.v[ck.n - 1];
				free(ck.v);
				if (L(clang_getCursorKind)(x) != CXCursor_CaseStmt &&
				    L(clang_getCursorKind)(x) != CXCursor_DefaultStmt) {
					if ((s = lower_stmt(lw, x)) != NULL)
						code_append(&cs->b->list, s);
					break;
				}
			}
			continue;
		}
		if (cs == NULL)
			continue;
		if ((s = lower_stmt(lw, x)) != NULL)
			code_append(&cs->b->list, s);
	}
	free(body.v);
	free(k.v);
	return n;
}

static struct cnode *
lower_stmt(struct lower *lw, CXCursor c)
{
	enum CXCursorKind	 kind = L(clang_getCursorKind)(c);
	struct cloc		 l = loc_of(lw, c);
	struct kids		 k;
	struct cnode		*n, *s, *pre = NULL;
	CXCursor		 part[4];
	int			 i, has[4], first;

	switch (kind) {
	case CXCursor_CompoundStmt:
		n = code_node(lw->p, K_BLOCK, &l);
		kids_of(c, &k);
		for (i = 0; i < k.n; i++)
			if ((s = lower_stmt(lw, k.v[i])) != NULL)
				code_append(&n->list, s);
		free(k.v);
		return n;
	case CXCursor_DeclStmt:
		n = code_node(lw->p, K_BLOCK, &l);
		kids_of(c, &k);
		for (i = 0; i < k.n; i++)
			if (L(clang_getCursorKind)(k.v[i]) == CXCursor_VarDecl)
				code_append(&n->list, lower_var(lw, k.v[i]));
		free(k.v);
		return n;
	case CXCursor_IfStmt:
		kids_of(c, &k);
		/* C++17: an init statement, a declared condition first */
		for (first = 0; first < k.n - 2 && (L(clang_getCursorKind)(
		    k.v[first]) == CXCursor_DeclStmt || L(clang_getCursorKind)(
		    k.v[first]) == CXCursor_VarDecl); first++) {
			s = L(clang_getCursorKind)(k.v[first]) == CXCursor_VarDecl ?
			    lower_var(lw, k.v[first]) : lower_stmt(lw, k.v[first]);
			if (pre == NULL)
				pre = code_node(lw->p, K_BLOCK, &l);
			code_append(&pre->list, s);
		}
		n = code_node(lw->p, K_IF, &l);
		if (k.n - first < 2) {
			free(k.v);
			return code_node(lw->p, K_BLOCK, &l);
		}
		n->a = lower_expr(lw, k.v[first]);
		n->s = text_of(lw, k.v[first]);
		if (n->s != NULL) {
			char	*t;

			xasprintf(&t, "if (%s)", n->s);
			n->s = code_str(lw->p, t, strlen(t));
			free(t);
		}
		n->b = block_of(lw, k.v[first + 1]);
		if (k.n - first >= 3)
			n->c = block_of(lw, k.v[first + 2]);
		free(k.v);
		if (pre != NULL) {
			code_append(&pre->list, n);
			return pre;
		}
		return n;
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
		kids_of(c, &k);
		if (k.n != 2) {
			free(k.v);
			n = code_node(lw->p, K_UNSUPP, &l);
			n->s = "a loop with a declared condition";
			return n;
		}
		n = code_node(lw->p, kind == CXCursor_WhileStmt ? K_WHILE : K_DO, &l);
		i = kind == CXCursor_WhileStmt ? 0 : 1;
		n->a = lower_expr(lw, k.v[i]);
		n->s = text_of(lw, k.v[i]);
		n->b = block_of(lw, k.v[1 - i]);
		free(k.v);
		return n;
	case CXCursor_ForStmt:
		kids_of(c, &k);
		for_parts(lw, c, &k, part, has);
		n = code_node(lw->p, K_FOR, &l);
		if (has[0])
			n->d = lower_stmt(lw, part[0]);
		if (has[1]) {
			n->a = lower_expr(lw, part[1]);
			n->s = text_of(lw, part[1]);
		}
		if (has[2])
			n->c = lower_expr(lw, part[2]);
		n->b = has[3] ? block_of(lw, part[3]) : code_node(lw->p, K_BLOCK, &l);
		free(k.v);
		return n;
	case CXCursor_CXXForRangeStmt:
		kids_of(c, &k);
		if (k.n != 3) {
			free(k.v);
			n = code_node(lw->p, K_UNSUPP, &l);
			n->s = "a range for not read";
			return n;
		}
		n = code_node(lw->p, K_FOREACH, &l);
		n->a = code_node(lw->p, X_VAR, &l);
		n->a->s = cstr(lw, L(clang_getCursorSpelling)(k.v[0]));
		n->a->key = cstr(lw, L(clang_getCursorUSR)(k.v[0]));
		n->c = lower_expr(lw, k.v[1]);
		n->s = text_of(lw, k.v[1]);
		n->b = block_of(lw, k.v[2]);
		free(k.v);
		return n;
	case CXCursor_SwitchStmt:
		return lower_switch(lw, c);
	case CXCursor_ReturnStmt:
		n = code_node(lw->p, K_RETURN, &l);
		expr_kids(c, &k);
		if (k.n >= 1)
			n->a = lower_expr(lw, k.v[0]);
		free(k.v);
		return n;
	case CXCursor_BreakStmt:
		return code_node(lw->p, K_BREAK, &l);
	case CXCursor_ContinueStmt:
		return code_node(lw->p, K_CONTINUE, &l);
	case CXCursor_NullStmt:
		return NULL;
	case CXCursor_LabelStmt:
		kids_of(c, &k);
		n = k.n >= 1 ? lower_stmt(lw, k.v[k.n - 1]) : NULL;
		free(k.v);
		return n;
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		n = code_node(lw->p, K_UNSUPP, &l);
		n->s = "a 'goto'";
		return n;
	case CXCursor_CXXTryStmt:
		n = code_node(lw->p, K_TRY, &l);
		kids_of(c, &k);
		if (k.n >= 1)
			n->b = block_of(lw, k.v[0]);
		for (i = 1; i < k.n; i++) {
			struct kids	h;

			kids_of(k.v[i], &h);
			if (h.n >= 1)
				code_append(&n->list, block_of(lw, h.v[h.n - 1]));
			n->op++;
			free(h.v);
		}
		free(k.v);
		return n;
	case CXCursor_GCCAsmStmt:
	case CXCursor_MSAsmStmt:
		n = code_node(lw->p, K_UNSUPP, &l);
		n->s = "assembly";
		n->a = code_node(lw->p, X_INT, &l);
		return n;
	default:
		if (L(clang_isExpression)(kind)) {
			n = code_node(lw->p, K_EXPR, &l);
			n->a = lower_expr(lw, c);
			return n;
		}
		if (kind == CXCursor_VarDecl)
			return lower_var(lw, c);
		return NULL;
	}
}

/* Whether a cursor holds a call of the port interface (a lambda that
 * does cannot be followed). */
static enum CXChildVisitResult
find_ens(CXCursor c, CXCursor parent, CXClientData d)
{
	CXCursor	 r;
	CXString	 s;
	const char	*n;
	int		*found = d;

	(void)parent;
	if (L(clang_getCursorKind)(c) == CXCursor_CallExpr) {
		r = L(clang_getCursorReferenced)(c);
		if (!L(clang_Cursor_isNull)(r)) {
			s = L(clang_getCursorSpelling)(r);
			n = L(clang_getCString)(s);
			if (n != NULL && strncmp(n, "ens_", 4) == 0)
				*found = 1;
			L(clang_disposeString)(s);
		}
	}
	if (!*found)
		L(clang_visitChildren)(c, find_ens, d);
	return *found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Lambdas that communicate, anywhere in f: not followed. */
static enum CXChildVisitResult
find_lambdas(CXCursor c, CXCursor parent, CXClientData d)
{
	struct lower	*lw = d;
	int		 found = 0;

	(void)parent;
	if (L(clang_getCursorKind)(c) == CXCursor_LambdaExpr) {
		L(clang_visitChildren)(c, find_ens, &found);
		if (found && lw->p->unsupp.file == NULL)
			lw->p->unsupp = loc_of(lw, c);
		return CXChildVisit_Continue;
	}
	L(clang_visitChildren)(c, find_lambdas, d);
	return CXChildVisit_Continue;
}

/* A function of the program with its body. */
static void
lower_func(struct lower *lw, CXCursor d)
{
	struct cfunc	*f;
	struct kids	 k;
	struct cloc	 l = loc_of(lw, d);
	const char	*ns;
	int		 i, np = 0;

	if (!L(clang_isCursorDefinition)(d) || L(clang_Location_isInSystemHeader)(
	    L(clang_getCursorLocation)(d)))
		return;
	if ((ns = namespace_of(lw, d)) != NULL && (strcmp(ns, "ens") == 0 ||
	    strcmp(ns, "std") == 0 || strcmp(ns, "detail") == 0))
		return;
	f = arena_alloc(lw->p->arena, sizeof(*f));
	f->key = cstr(lw, L(clang_getCursorUSR)(d));
	if (code_func(lw->p, f->key) != NULL)
		return;		/* (in a header read by two units) */
	f->name = cstr(lw, L(clang_getCursorSpelling)(d));
	f->loc = l;
	kids_of(d, &k);
	f->params = arena_alloc(lw->p->arena, sizeof(char *) * (size_t)(k.n + 1));
	f->pnames = arena_alloc(lw->p->arena, sizeof(char *) * (size_t)(k.n + 1));
	for (i = 0; i < k.n; i++) {
		if (L(clang_getCursorKind)(k.v[i]) == CXCursor_ParmDecl) {
			f->params[np] = cstr(lw, L(clang_getCursorUSR)(k.v[i]));
			f->pnames[np++] = cstr(lw, L(clang_getCursorSpelling)(k.v[i]));
		} else if (L(clang_getCursorKind)(k.v[i]) == CXCursor_CompoundStmt)
			f->body = lower_stmt(lw, k.v[i]);
	}
	f->nparams = np;
	free(k.v);
	if (f->body == NULL)
		return;
	L(clang_visitChildren)(d, find_lambdas, lw);
	f->next = lw->p->funcs;
	lw->p->funcs = f;
	if (strcmp(f->name, "main") == 0 && L(clang_getCursorKind)(d) ==
	    CXCursor_FunctionDecl && namespace_of(lw, d) == NULL)
		lw->p->entry = f;
}

/* The unit's declarations: functions (in namespaces and extern "C"
 * too), methods, globals. */
static enum CXChildVisitResult
top(CXCursor c, CXCursor parent, CXClientData d)
{
	struct lower	*lw = d;

	(void)parent;
	if (L(clang_Location_isInSystemHeader)(L(clang_getCursorLocation)(c)))
		return CXChildVisit_Continue;
	switch (L(clang_getCursorKind)(c)) {
	case CXCursor_FunctionDecl:
	case CXCursor_CXXMethod:
	case CXCursor_FunctionTemplate:
		lower_func(lw, c);
		break;
	case CXCursor_VarDecl:
		code_append(&lw->p->globals, lower_var(lw, c));
		break;
	case CXCursor_Namespace:
		if (strcmp(cstr(lw, L(clang_getCursorSpelling)(c)), "ens") != 0)
			L(clang_visitChildren)(c, top, d);
		break;
	case CXCursor_LinkageSpec:
	case CXCursor_ClassDecl:
	case CXCursor_StructDecl:
		L(clang_visitChildren)(c, top, d);
		break;
	default:
		break;
	}
	return CXChildVisit_Continue;
}

/* ---- a precompiled header of ensemble's own ----
 * ensemble.hpp includes <complex>, <string> and <vector>, a second of
 * parsing for every C++ source (ensemble.h and mpi.h a few hundredths for
 * a C one): o->cache keeps them parsed once, a precompiled header per
 * language, compiler flags and libclang, named by their hash, which each
 * source then includes first (-include-pch) and its own #include of the
 * header skips.  A header changed since makes libclang refuse the
 * precompiled one: the source is parsed again without it, and the header
 * made anew. */

/* FNV-1a over s and its NUL. */
static uint64_t
hash_str(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	} while (*s++ != '\0');
	return h;
}

/* mkdir -p: 0, or -1 (errno). */
static int
mkdirs(const char *dir)
{
	char	*p = xstrdup(dir), *q;
	int	 rc = 0;

	for (q = p + 1; rc == 0; q++) {
		if (*q != '/' && *q != '\0')
			continue;
		{
			char	c = *q;

			*q = '\0';
			if (mkdir(p, 0777) != 0 && errno != EEXIST)
				rc = -1;
			*q = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
	return rc;
}

/* The precompiled header for a source of this language parsed with
 * args (args[1] its language), made now if it is not there: its path (a
 * new string), or NULL (no cache, or it cannot be made). */
static char *
pch_of(const struct infer_opts *o, CXIndex idx, enum code_lang lang,
    const char **args, int nargs)
{
	CXTranslationUnit	 tu;
	CXString		 v;
	const char		*lname = lang == LANG_CXX ? "cxx" : "c";
	char			*base, *hdr, *pch, *tmp;
	uint64_t		 h = 14695981039346656037ULL;
	FILE			*f;
	int			 i, ok;

	if (o->cache == NULL || o->cache[0] == '\0')
		return NULL;
	v = L(clang_getClangVersion)();
	h = hash_str(h, L(clang_getCString)(v));
	L(clang_disposeString)(v);
	for (i = 0; i < nargs; i++)
		h = hash_str(h, args[i]);
	xasprintf(&base, "%s/%s-%016" PRIx64, o->cache, lname, h);
	xasprintf(&hdr, "%s.h", base);
	xasprintf(&pch, "%s.pch", base);
	free(base);
	if (access(pch, R_OK) == 0 && access(hdr, R_OK) == 0) {
		free(hdr);
		return pch;
	}
	ok = 0;
	xasprintf(&tmp, "%s.%ld", pch, (long)getpid());
	if (mkdirs(o->cache) == 0 && (f = fopen(hdr, "w")) != NULL) {
		const char	**a = xcalloc((size_t)nargs, sizeof(*a));

		fprintf(f, "#include <%s>\n", lang == LANG_CXX ? "ensemble.hpp" :
		    "ensemble.h");
		ok = fclose(f) == 0;
		memcpy(a, args, (size_t)nargs * sizeof(*a));
		a[1] = lang == LANG_CXX ? "c++-header" : "c-header";
		if (ok && L(clang_parseTranslationUnit2)(idx, hdr, a, nargs, NULL,
		    0, CXTranslationUnit_Incomplete |
		    CXTranslationUnit_ForSerialization, &tu) == CXError_Success) {
			ok = L(clang_getNumDiagnostics)(tu) == 0 &&
			    L(clang_saveTranslationUnit)(tu, tmp, 0) ==
			    CXSaveError_None && rename(tmp, pch) == 0;
			L(clang_disposeTranslationUnit)(tu);
		} else
			ok = 0;
		free(a);
	}
	unlink(tmp);
	free(tmp);
	free(hdr);
	if (!ok) {
		free(pch);
		return NULL;
	}
	return pch;
}

/* Whether a unit parsed has errors. */
static int
has_errors(CXTranslationUnit tu)
{
	unsigned	i, n = L(clang_getNumDiagnostics)(tu);
	int		bad = 0;

	for (i = 0; i < n && !bad; i++) {
		CXDiagnostic	dg = L(clang_getDiagnostic)(tu, i);

		bad = L(clang_getDiagnosticSeverity)(dg) >= CXDiagnostic_Error;
		L(clang_disposeDiagnostic)(dg);
	}
	return bad;
}

/* Parse file: with ensemble's precompiled header first, else as it is
 * (and when that has no error, the precompiled header was at fault: it
 * is made anew next time). */
static enum CXErrorCode
parse(const struct infer_opts *o, CXIndex idx, enum code_lang lang,
    const char *file, const char **args, int nargs, CXTranslationUnit *tu)
{
	const char		**a;
	char			 *pch;
	enum CXErrorCode	  err;

	if ((pch = pch_of(o, idx, lang, args, nargs)) != NULL) {
		a = xcalloc((size_t)nargs + 2, sizeof(*a));
		memcpy(a, args, (size_t)nargs * sizeof(*a));
		a[nargs] = "-include-pch";
		a[nargs + 1] = pch;
		err = L(clang_parseTranslationUnit2)(idx, file, a, nargs + 2, NULL,
		    0, CXTranslationUnit_None, tu);
		free(a);
		if (err == CXError_Success && !has_errors(*tu)) {
			free(pch);
			return err;
		}
		if (err == CXError_Success)
			L(clang_disposeTranslationUnit)(*tu);
	}
	err = L(clang_parseTranslationUnit2)(idx, file, args, nargs, NULL, 0,
	    CXTranslationUnit_None, tu);
	if (pch != NULL && err == CXError_Success && !has_errors(*tu))
		unlink(pch);
	free(pch);
	return err;
}

/* Add an argument of our own to args (kept in own, to free). */
static void
add_own(const char ***args, int *nargs, char ***own, int *nown, char *a)
{
	*args = xreallocarray(*args, (size_t)*nargs + 1, sizeof(**args));
	(*args)[(*nargs)++] = a;
	*own = xreallocarray(*own, (size_t)*nown + 1, sizeof(**own));
	(*own)[(*nown)++] = a;
}

struct cprog *
clang_read(const struct infer_opts *o, enum code_lang lang, struct infer *r,
    char **cause)
{
	CXIndex			 idx;
	CXTranslationUnit	 tu;
	struct cprog		*p;
	struct lower		 lw;
	const char		**args = NULL, *q, *e;
	char			**own = NULL, *a;
	int			 nargs = 0, nown = 0, f, i, std = 0, err,
				 nours0;
	unsigned		 nd, j;

	for (f = 0; f < o->nfiles; f++)
		if (access(o->files[f], R_OK) != 0) {
			xasprintf(cause, "cannot open '%s': %s", o->files[f],
			    strerror(errno));
			return NULL;
		}
	if (!lc.open)
		lc_open();
	p = xcalloc(1, sizeof(*p));
	p->arena = arena_new();
	p->lang = lang;
	/* The language, ensemble's headers, MPI's (without its C++
	 * bindings, which cost a second to parse), then the user's. */
	args = xreallocarray(NULL, 16, sizeof(*args));
	args[nargs++] = "-x";
	args[nargs++] = lang == LANG_CXX ? "c++" : "c";
	for (i = 0; i < o->nflags; i++)
		if (strncmp(o->flags[i], "-std=", 5) == 0)
			std = 1;
	if (lang == LANG_CXX && !std)
		args[nargs++] = "-std=c++17";
	args[nargs++] = "-DOMPI_SKIP_MPICXX=1";
	args[nargs++] = "-DMPICH_SKIP_MPICXX=1";
	args[nargs++] = "-w";
	for (i = 0; i < o->nincdirs; i++) {
		xasprintf(&a, "-I%s", o->incdirs[i]);
		add_own(&args, &nargs, &own, &nown, a);
	}
	nours0 = nargs - o->nincdirs;
	/* MPI's flags, one string of words */
	for (q = o->mpi_cflags; q != NULL && *q != '\0'; q = e) {
		while (*q == ' ' || *q == '\t')
			q++;
		for (e = q; *e != '\0' && *e != ' ' && *e != '\t'; e++)
			;
		if (e > q)
			add_own(&args, &nargs, &own, &nown, xstrndup(q,
			    (size_t)(e - q)));
	}
	for (i = 0; i < o->nflags; i++) {
		args = xreallocarray(args, (size_t)nargs + 1, sizeof(*args));
		args[nargs++] = o->flags[i];
	}
	idx = L(clang_createIndex)(1, 0);	/* (not the precompiled header's declarations) */
	memset(&lw, 0, sizeof(lw));
	lw.p = p;
	lw.r = r;
	/* ensemble's and MPI's include directories: what came before the
	 * user's flags */
	lw.ours = xcalloc((size_t)nargs + 1, sizeof(*lw.ours));
	for (i = nours0; i < nargs - o->nflags; i++)
		if (strncmp(args[i], "-I", 2) == 0)
			lw.ours[lw.nours++] = args[i] + 2;
	for (f = 0; f < o->nfiles && r->error == NULL; f++) {
		err = parse(o, idx, lang, o->files[f], args, nargs, &tu);
		if (err != CXError_Success) {
			xasprintf(cause, "libclang cannot parse '%s' (error %d)",
			    o->files[f], err);
			goto bad;
		}
		lw.tu = tu;
		lw.main = code_str(p, o->files[f], strlen(o->files[f]));
		{
			CXFile		mf = L(clang_getFile)(tu, o->files[f]);
			CXString	ms = L(clang_getFileName)(mf);

			lw.mainpath = xstrdup(L(clang_getCString)(ms) != NULL ?
			    L(clang_getCString)(ms) : o->files[f]);
			L(clang_disposeString)(ms);
		}
		nd = L(clang_getNumDiagnostics)(tu);
		for (j = 0; j < nd && r->error == NULL; j++) {
			CXDiagnostic	dg = L(clang_getDiagnostic)(tu, j);
			struct cloc	dl;
			CXFile		df;
			unsigned	line, col;

			if (L(clang_getDiagnosticSeverity)(dg) >= CXDiagnostic_Error) {
				CXString	ds = L(clang_getDiagnosticSpelling)(dg);

				L(clang_getExpansionLocation)(
				    L(clang_getDiagnosticLocation)(dg), &df, &line,
				    &col, NULL);
				memset(&dl, 0, sizeof(dl));
				dl.line = (int)line;
				dl.col = (int)col;
				if (df != NULL) {
					CXString fs = L(clang_getFileName)(df);

					dl.file = cstr(&lw, fs);
					if (strcmp(dl.file, lw.mainpath) == 0)
						dl.file = lw.main;
				}
				infer_error(r, dl.file != NULL ? &dl : NULL,
				    "the code does not compile: %s (give the compiler's "
				    "flags after --)", L(clang_getCString)(ds));
				L(clang_disposeString)(ds);
			}
			L(clang_disposeDiagnostic)(dg);
		}
		if (r->error == NULL) {
			L(clang_visitChildren)(L(clang_getTranslationUnitCursor)(tu),
			    top, &lw);
		}
		free(lw.mainpath);
		lw.mainpath = NULL;
		L(clang_disposeTranslationUnit)(tu);
	}
	L(clang_disposeIndex)(idx);
	free(lw.ours);
	if (r->error == NULL && p->unsupp.file != NULL)
		infer_error(r, &p->unsupp, "a lambda that communicates: not followed");
	for (i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(args);
	return p;
bad:
	L(clang_disposeIndex)(idx);
	free(lw.ours);
	for (i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(args);
	arena_free(p->arena);
	free(p);
	return NULL;
}

/* ---- the compile database ---- */

/* s relative to dir made absolute (a new string). */
static char *
in_dir(const char *dir, const char *s)
{
	char	*r;

	if (s[0] == '/' || dir == NULL || dir[0] == '\0')
		return xstrdup(s);
	xasprintf(&r, "%s/%s", dir, s);
	return r;
}

/* Whether an output path o names the program base: base itself (a
 * program compiled and linked in one command), or a file under base.dir/
 * (CMake's objects of target base). */
static int
output_of(const char *o, const char *base)
{
	const char	*b = strrchr(o, '/') != NULL ? strrchr(o, '/') + 1 : o;
	char		*dir;
	int		 r;

	if (strcmp(b, base) == 0)
		return 1;
	xasprintf(&dir, "%s.dir/", base);
	r = strncmp(o, dir, strlen(dir)) == 0 || (strstr(o, dir) != NULL &&
	    strstr(o, dir)[-1] == '/');
	free(dir);
	return r;
}

/* Whether file f's name is base with an ending. */
static int
named(const char *f, const char *base)
{
	const char	*b = strrchr(f, '/') != NULL ? strrchr(f, '/') + 1 : f;
	size_t		 n = strlen(base);

	return strncmp(b, base, n) == 0 && b[n] == '.' &&
	    strchr(b + n + 1, '.') == NULL;
}

/* A command's string, new. */
static char *
cc_str(CXString s)
{
	const char	*t = L(clang_getCString)(s);
	char		*r = xstrdup(t != NULL ? t : "");

	L(clang_disposeString)(s);
	return r;
}

/* The flags of command c that change how its file reads, into w. */
static void
compdb_flags(CXCompileCommand c, const char *dir, struct infer_words *w)
{
	static const char *const paths[] = { "-I", "-isystem", "-iquote",
	    "-idirafter", "-include", "-imacros", NULL };
	unsigned	 i, n = L(clang_CompileCommand_getNumArgs)(c);
	char		*a, *v, *r;
	int		 k;
	size_t		 m;

	for (i = 1; i < n; i++) {
		a = cc_str(L(clang_CompileCommand_getArg)(c, i));
		if (strncmp(a, "-std=", 5) == 0) {
			infer_words_add(w, a);
			continue;
		}
		if (strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0) {
			if (i + 1 < n) {
				v = cc_str(L(clang_CompileCommand_getArg)(c, ++i));
				xasprintf(&r, "%s%s", a, v);
				free(v);
				infer_words_add(w, r);
			}
			free(a);
			continue;
		}
		if (strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0) {
			infer_words_add(w, a);
			continue;
		}
		for (k = 0; paths[k] != NULL; k++)
			if (strncmp(a, paths[k], strlen(paths[k])) == 0)
				break;
		if (paths[k] == NULL) {
			free(a);
			continue;
		}
		m = strlen(paths[k]);
		if (a[m] != '\0')
			v = in_dir(dir, a + m);
		else if (i + 1 < n) {
			r = cc_str(L(clang_CompileCommand_getArg)(c, ++i));
			v = in_dir(dir, r);
			free(r);
		} else {
			free(a);
			continue;
		}
		xasprintf(&r, "%s%s", paths[k], v);
		free(v);
		free(a);
		infer_words_add(w, r);
	}
}

/* Command c's output (-o), new; NULL if none. */
static char *
compdb_output(CXCompileCommand c)
{
	unsigned	 i, n = L(clang_CompileCommand_getNumArgs)(c);
	char		*a, *o = NULL;

	for (i = 1; i < n && o == NULL; i++) {
		a = cc_str(L(clang_CompileCommand_getArg)(c, i));
		if (strcmp(a, "-o") == 0 && i + 1 < n)
			o = cc_str(L(clang_CompileCommand_getArg)(c, i + 1));
		else if (strncmp(a, "-o", 2) == 0 && a[2] != '\0')
			o = xstrdup(a + 2);
		free(a);
	}
	return o;
}

int
infer_compdb(const char *dir, const char *base, char **path,
    struct infer_words *w)
{
	CXCompilationDatabase_Error	 err;
	CXCompilationDatabase		 db;
	CXCompileCommands		 cmds;
	CXCompileCommand		 c;
	struct infer_words		 files, flags;
	char				*json, *d, *f, *o, *abs, *real;
	unsigned			 i, j, n;
	int				 k, seen, pass;

	*path = NULL;
	xasprintf(&json, "%s/compile_commands.json", dir);
	k = access(json, R_OK);
	free(json);
	if (k != 0)
		return -1;
	if (!lc.open)
		lc_open();
	db = L(clang_CompilationDatabase_fromDirectory)(dir, &err);
	if (err != CXCompilationDatabase_NoError || db == NULL)
		return -1;
	cmds = L(clang_CompilationDatabase_getAllCompileCommands)(db);
	n = cmds != NULL ? L(clang_CompileCommands_getSize)(cmds) : 0;
	memset(&files, 0, sizeof(files));
	memset(&flags, 0, sizeof(flags));
	/* the files compiled into base; else, those of its name */
	for (pass = 0; pass < 2 && files.n == 0; pass++) {
		for (i = 0; i < n; i++) {
			c = L(clang_CompileCommands_getCommand)(cmds, i);
			d = cc_str(L(clang_CompileCommand_getDirectory)(c));
			f = cc_str(L(clang_CompileCommand_getFilename)(c));
			o = compdb_output(c);
			if (pass == 0 ? o != NULL && output_of(o, base) :
			    named(f, base)) {
				abs = in_dir(d, f);
				if ((real = realpath(abs, NULL)) != NULL) {
					free(abs);
					abs = real;
				}
				for (seen = 0, k = 0; k < files.n && !seen; k++)
					seen = strcmp(files.v[k], abs) == 0;
				if (seen)
					free(abs);
				else {
					infer_words_add(&files, abs);
					if (files.n == 1)
						compdb_flags(c, d, &flags);
				}
			}
			free(o);
			free(f);
			free(d);
		}
	}
	if (cmds != NULL)
		L(clang_CompileCommands_dispose)(cmds);
	L(clang_CompilationDatabase_dispose)(db);
	if (files.n == 0)
		return -1;
	*path = files.v[0];
	for (j = 1; j < (unsigned)files.n; j++)
		infer_words_add(w, files.v[j]);
	for (j = 0; j < (unsigned)flags.n; j++)
		infer_words_add(w, flags.v[j]);
	free(files.v);
	free(flags.v);
	return 0;
}

#endif
