/* parser.y -- the .pcg grammar: a pure bison parser with locations that
 * builds the AST, classifies each line by the part and section it stands in,
 * reads includes recursively and recovers from errors at ';' and at part and
 * section headers, so one run reports every error.  Every value lives in the
 * AST arena, so dropped values need no %destructor. */

%code requires {
#include "ast.h"
#include "diag.h"

struct parser;
}

%code top {
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
}

%code {
#include "lexer-extra.h"
#include "parse.h"
#include "xmalloc.h"

enum section { SEC_NONE, SEC_COMP, SEC_PROC, SEC_CHAN, SEC_GROUP };

struct incl {
	const char	*path;
	struct incl	*up;
};

/* What the includes of one parse have read. */
struct incl_total {
	size_t		 bytes;
	int		 files;
	int		 stopped;	/* a limit was reported: read no more */
};

/* A token read ahead (pcg_yylex): its kind, value, place and, for an
 * identifier or a number, its text. */
struct qtok {
	int			 tok;
	PCG_YYSTYPE		 v;
	struct loc		 l;
	const char		*text;
};

/* The most tokens read ahead: a line of three words and the next. */
#define PARSER_QUEUE	8

struct parser {
	struct ast		*ast;
	struct diag		*diag;
	const struct parse_opts	*opts;
	struct lexer_extra	 x;
	enum part		 part;
	enum section		 section;
	struct incl		*stack;		/* files being read, innermost first */
	struct incl_total	*total;		/* what every include read */
	int			 depth;
	struct loc		 prev;		/* the token before the lookahead */
	struct qtok		 q[PARSER_QUEUE];	/* read ahead */
	int			 qn;
	const char		*la_text;	/* the lookahead's text */
	const char		*prev_text;	/* the token before's */
	int			 lines;		/* tokens returned so far */
	int			 last_line;	/* of the last returned */
};

#define YYLLOC_DEFAULT(Cur, Rhs, N) do {				\
	if (N) {							\
		(Cur).first_line = YYRHSLOC(Rhs, 1).first_line;		\
		(Cur).first_column = YYRHSLOC(Rhs, 1).first_column;	\
		(Cur).last_line = YYRHSLOC(Rhs, N).last_line;		\
		(Cur).last_column = YYRHSLOC(Rhs, N).last_column;	\
		(Cur).src = YYRHSLOC(Rhs, 1).src;			\
	} else {							\
		(Cur).first_line = (Cur).last_line = YYRHSLOC(Rhs, 0).last_line; \
		(Cur).first_column = (Cur).last_column = YYRHSLOC(Rhs, 0).last_column; \
		(Cur).src = YYRHSLOC(Rhs, 0).src;			\
	}								\
} while (0)

int lexer_scan(PCG_YYSTYPE *, struct loc *, void *);
static int pcg_yylex(PCG_YYSTYPE *, struct loc *, struct parser *, void *);
static void pcg_yyerror(struct loc *, struct parser *, void *, const char *);
static struct stmt *stmt_reverse(struct stmt *);
static struct loc span(const struct loc *, const struct loc *);

/* Deep nesting is an error, never a crash: bison stops at this depth. */
#define YYMAXDEPTH	100000

static struct expr *mkexpr(struct parser *, enum expr_kind, const struct loc *);
static struct expr *mkbin(struct parser *, int, struct expr *, struct expr *, const struct loc *);
static struct stmt *mkstmt(struct parser *, enum stmt_kind, const struct loc *);
static struct item *mkitem(struct parser *, enum item_kind, const struct loc *);
static void header(struct parser *, enum part, enum section, const struct loc *, const char *);
static void portline(struct parser *, struct instref *, struct portdecl *, struct forclause *, const struct loc *);
static void groupline(struct parser *, struct instref *, struct portdecl *, struct forclause *, const struct loc *);
static void annotline(struct parser *, struct instref *, struct annot *, struct forclause *, const struct loc *);
static void chanline(struct parser *, struct endpoint *, struct endpoint *, struct expr *, const struct loc *, struct forclause *, const struct loc *);
static void include(struct parser *, struct str *, const struct loc *);
static int check_part(struct parser *, enum part, const struct loc *, const char *);
}

%define api.pure full
%define api.prefix {pcg_yy}
%define api.location.type {struct loc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {struct parser *p} {void *scanner}

%union {
	int64_t		 ival;
	const char	*name;
	char		*text;
	struct expr	*expr;
	struct str	*str;
	struct strpart	*part;
	struct idx	*idx;
	struct instref	*ref;
	struct endpoint	*ep;
	struct forclause *fc;
	struct forvar	*fv;
	struct portdecl	*pd;
	struct annot	*an;
	struct argval	*av;
	struct stmt	*st;
	struct branch	*br;
	int		 mode;
}

%token APPLICATION "application" SCALE "scale" PARAM "param" REQUIRE "require"
%token INCLUDE "include"
%token PCG "PCG" PARALLEL "PARALLEL" SYSTEM "SYSTEM" SEQUENTIAL "SEQUENTIAL"
%token COMPONENTS "COMPONENTS" BEHAVIOUR "BEHAVIOUR"
%token SEC_COMPONENTS "Components" SEC_PROCESSES "Processes" SEC_CHANNELS "Channels"
%token SEC_GROUPS "Groups" OVER "over"
%token TAG "tag" DEFAULT "default" HOST "host" EXEC "exec" ARGS "args" ENV "env" WDIR "wdir"
%token SOURCE "source"
%token FOR "for" IN "in" IF "if" ELSE "else"
%token SEND "send" SSEND "ssend" BSEND "bsend" RECV "recv" ANY "any"
%token ISEND "isend" ISSEND "issend" IBSEND "ibsend" IRECV "irecv" WAITALL "waitall"
%token SENDRECV "sendrecv" REPLACE "replace" AS "as" WAIT "wait" TEST "test"
%token WAITANY "waitany" WAITSOME "waitsome" ON "on" PROBE "probe" IPROBE "iprobe"
%token BARRIER "barrier" ALLREDUCE "allreduce" ALLGATHER "allgather" ALLTOALL "alltoall"
%token BCAST "bcast" SCATTER "scatter" REDUCE "reduce" GATHER "gather" FROM "from" TO "to"
%token ALLGATHERV "allgatherv" ALLTOALLV "alltoallv" REDUCESCATTER "reducescatter"
%token SCATTERV "scatterv" GATHERV "gatherv"
%token LOOP "loop" CHOICE "choice" OR "or" INDEX "index" PORTS "ports" MIN "min" MAX "max"
%token ARROW "<->" DOTDOT ".." EQ "==" NE "!=" LE "<=" GE ">=" ANDAND "&&" OROR "||"
%token <name> IDENT "identifier"
%token <ival> INT "integer"
%token <text> QQSTRING_TEXT "string text"
%token QQSTRING_START "string" QQSTRING_END "end of string"
%token QQINTERP_START "${" QQINTERP_END "end of ${...}"
%token <text> INVALID "invalid token"

%right '?' ':'
%left OROR
%left ANDAND
%nonassoc EQ NE
%nonassoc '<' '>' LE GE
%left '+' '-'
%left '*' '/' '%'
%precedence '!' UMINUS

%type <expr> expr exprlist tag_opt
%type <str> string
%type <part> strparts
%type <idx> idxlist idxel
%type <ref> target over_opt
%type <ep> endpoint
%type <fc> for_opt
%type <fv> forvars forvar
%type <pd> portdecls portdecl
%type <an> annots annot
%type <av> argvals argval strings
%type <st> stmts stmt block ifstmt
%type <br> branches ons
%type <mode> sendop isendop

%%

script:
	  %empty
	| script item
	;

item:
	  APPLICATION IDENT ';'
		{ struct item *it = mkitem(p, I_APPLICATION, &@$);
		  it->name = $2; it->nameloc = @2; }
	| SCALE IDENT '=' expr ';'
		{ struct item *it = mkitem(p, I_SCALE, &@2);
		  it->name = $2; it->nameloc = @2; it->expr = $4; }
	| SCALE IDENT '=' string ';'
		{ diag_error(p->diag, &@4, "the 'scale' parameter '%s' is a "
		      "number, not a string", $2); }
	| PARAM IDENT '=' expr ';'
		{ struct item *it = mkitem(p, I_PARAM, &@2);
		  it->name = $2; it->nameloc = @2; it->expr = $4; }
	| PARAM IDENT '=' string ';'
		{ struct item *it = mkitem(p, I_PARAM, &@2);
		  it->name = $2; it->nameloc = @2; it->msg = $4; }
	| REQUIRE expr ';'
		{ struct item *it = mkitem(p, I_REQUIRE, &@2); it->expr = $2; }
	| REQUIRE expr ',' string ';'
		{ struct item *it = mkitem(p, I_REQUIRE, &@2);
		  it->expr = $2; it->msg = $4; }
	| INCLUDE string ';'
		{ include(p, $2, &@2); }
	| header
	| target ':' portdecls for_opt ';'
		{ struct loc l = span(&@1, &@4); portline(p, $1, $3, $4, &l); }
	| target for_opt ';'
		{ struct loc l = span(&@1, &@2); portline(p, $1, NULL, $2, &l); }
	| target ':' annots for_opt ';'
		{ struct loc l = span(&@1, &@4); annotline(p, $1, $3, $4, &l); }
	| endpoint ARROW endpoint tag_opt for_opt ';'
		{ struct loc l = span(&@1, &@3); chanline(p, $1, $3, $4, &@4, $5, &l); }
	| TAG DEFAULT ';'	/* says what happens anyway: unique tags */
		{ struct loc l = span(&@1, &@2);
		  if (check_part(p, PART_PARALLEL, &l, "'tag default'") == 0 &&
		      p->section != SEC_CHAN)
			  diag_error(p->diag, &l, "'tag default' belongs in the Channels section of the PARALLEL SYSTEM part"); }
	| IDENT '{' stmts '}'
		{ if (check_part(p, PART_BEHAVIOUR, &@1, "a behaviour block") == 0) {
			  struct item *it = mkitem(p, I_BEHAVIOUR, &@$);
			  it->name = $1; it->nameloc = @1; it->body = stmt_reverse($3);
		  } }
	| error ';'
		{ yyerrok; }
	| error header
		{ yyerrok; }
	;

header:
	  PCG			{ header(p, PART_PCG, SEC_NONE, &@$, NULL); }
	| PARALLEL SYSTEM IDENT	{ header(p, PART_PARALLEL, SEC_NONE, &@$, NULL);
				  if (strcmp($3, "MPI") != 0)
					  diag_error(p->diag, &@3, "unsupported parallel system '%s' (ensemble supports 'MPI')", $3); }
	| SEQUENTIAL COMPONENTS	{ header(p, PART_SEQUENTIAL, SEC_NONE, &@$, NULL); }
	| BEHAVIOUR		{ header(p, PART_BEHAVIOUR, SEC_NONE, &@$, NULL); }
	| SEC_COMPONENTS	{ header(p, PART_PCG, SEC_COMP, &@$, "Components"); }
	| SEC_PROCESSES		{ header(p, PART_NONE, SEC_PROC, &@$, "Processes"); }
	| SEC_CHANNELS		{ header(p, PART_NONE, SEC_CHAN, &@$, "Channels"); }
	| SEC_GROUPS		{ header(p, PART_NONE, SEC_GROUP, &@$, "Groups"); }
	;

target:
	  IDENT
		{ $$ = AST_NEW(p->ast, struct instref);
		  $$->name = $1; $$->loc = $$->nameloc = @1; }
	| IDENT '[' idxlist ']'
		{ $$ = AST_NEW(p->ast, struct instref);
		  $$->name = $1; $$->nameloc = @1; $$->loc = @$; $$->idx = $3; }
	;

idxlist:
	  idxel			{ $$ = $1; }
	| idxel ',' idxlist	{ $1->next = $3; $$ = $1; }
	;

idxel:
	  expr			{ $$ = AST_NEW(p->ast, struct idx); $$->lo = $1; $$->loc = @$; }
	| expr DOTDOT expr	{ $$ = AST_NEW(p->ast, struct idx); $$->lo = $1; $$->hi = $3; $$->loc = @$; }
	;

endpoint:
	  target '.' IDENT '[' expr ']'
		{ $$ = AST_NEW(p->ast, struct endpoint);
		  $$->proc = $1; $$->type = $3; $$->typeloc = @3; $$->port = $5; $$->loc = @$; }
	;

tag_opt:
	  %empty		{ $$ = NULL; }
	| ':' TAG expr		{ $$ = $3; }
	;

for_opt:
	  %empty		{ $$ = NULL; }
	| FOR forvars		{ $$ = AST_NEW(p->ast, struct forclause); $$->vars = $2; $$->loc = @$; }
	| FOR forvars IF expr	{ $$ = AST_NEW(p->ast, struct forclause); $$->vars = $2; $$->cond = $4; $$->loc = @$; }
	;

forvars:
	  forvar		{ $$ = $1; }
	| forvar ',' forvars	{ $1->next = $3; $$ = $1; }
	;

forvar:
	  IDENT IN expr DOTDOT expr
		{ $$ = AST_NEW(p->ast, struct forvar);
		  $$->name = $1; $$->loc = @1; $$->lo = $3; $$->hi = $5; }
	;

portdecls:
	  portdecl		{ $$ = $1; }
	| portdecl ',' portdecls { $1->next = $3; $$ = $1; }
	;

portdecl:
	  IDENT			{ $$ = AST_NEW(p->ast, struct portdecl); $$->type = $1; $$->loc = $$->typeloc = @1; }
	| IDENT '[' idxlist ']'	{ $$ = AST_NEW(p->ast, struct portdecl); $$->type = $1; $$->loc = @$;
				  $$->typeloc = @1; $$->idx = $3;
				  if ($3->hi == NULL && $3->next == NULL)
					  $$->count = $3->lo; }
	| IDENT '[' '*' ']'	{ $$ = AST_NEW(p->ast, struct portdecl); $$->type = $1; $$->loc = @$;
				  $$->typeloc = @1; $$->star = 1; }
	;

annots:
	  annot			{ $$ = $1; }
	| annot annots		{ $1->next = $2; $$ = $1; }
	;

annot:
	  EXEC string		{ $$ = AST_NEW(p->ast, struct annot); $$->kind = A_EXEC; $$->loc = @1;
				  $$->vals = AST_NEW(p->ast, struct argval); $$->vals->s = $2; }
	| WDIR string		{ $$ = AST_NEW(p->ast, struct annot); $$->kind = A_WDIR; $$->loc = @1;
				  $$->vals = AST_NEW(p->ast, struct argval); $$->vals->s = $2; }
	| HOST string		{ $$ = AST_NEW(p->ast, struct annot); $$->kind = A_HOST; $$->loc = @1;
				  $$->vals = AST_NEW(p->ast, struct argval); $$->vals->s = $2; }
	| ARGS argvals		{ $$ = AST_NEW(p->ast, struct annot); $$->kind = A_ARGS; $$->loc = @1; $$->vals = $2; }
	| ENV strings		{ $$ = AST_NEW(p->ast, struct annot); $$->kind = A_ENV; $$->loc = @1; $$->vals = $2; }
	| SOURCE strings	{ $$ = AST_NEW(p->ast, struct annot); $$->kind = A_SOURCE; $$->loc = @1; $$->vals = $2; }
	;

argvals:
	  argval		{ $$ = $1; }
	| argval argvals	{ $1->next = $2; $$ = $1; }
	;

argval:
	  string		{ $$ = AST_NEW(p->ast, struct argval); $$->s = $1; }
	| INT			{ $$ = AST_NEW(p->ast, struct argval); $$->e = mkexpr(p, E_INT, &@$); $$->e->ival = $1; }
	| '-' INT		{ $$ = AST_NEW(p->ast, struct argval); $$->e = mkexpr(p, E_INT, &@$);
				  $$->e->ival = -$2; }
	| IDENT			{ $$ = AST_NEW(p->ast, struct argval); $$->e = mkexpr(p, E_NAME, &@$);
				  $$->e->name = $1; }
	| '(' expr ')'		{ $$ = AST_NEW(p->ast, struct argval); $$->e = $2; }
	;

strings:
	  string		{ $$ = AST_NEW(p->ast, struct argval); $$->s = $1; }
	| string strings	{ $$ = AST_NEW(p->ast, struct argval); $$->s = $1; $$->next = $2; }
	;

string:
	  QQSTRING_START strparts QQSTRING_END
		{ $$ = AST_NEW(p->ast, struct str); $$->loc = @$; $$->parts = $2; }
	;

strparts:
	  %empty		{ $$ = NULL; }
	| QQSTRING_TEXT strparts
		{ $$ = AST_NEW(p->ast, struct strpart); $$->text = $1; $$->next = $2; }
	| QQINTERP_START expr QQINTERP_END strparts
		{ $$ = AST_NEW(p->ast, struct strpart); $$->expr = $2; $$->next = $4; }
	;

expr:
	  INT			{ $$ = mkexpr(p, E_INT, &@$); $$->ival = $1; }
	| IDENT			{ $$ = mkexpr(p, E_NAME, &@$); $$->name = $1; }
	| INDEX			{ $$ = mkexpr(p, E_INDEX, &@$); }
	| PORTS '(' IDENT ')'	{ $$ = mkexpr(p, E_PORTS, &@$); $$->name = $3; }
	| MIN '(' exprlist ')'	{ $$ = mkexpr(p, E_MIN, &@$); $$->a = $3;
				  if ($3->next == NULL)
					  diag_error(p->diag, &@$, "'min' takes at least two arguments"); }
	| MAX '(' exprlist ')'	{ $$ = mkexpr(p, E_MAX, &@$); $$->a = $3;
				  if ($3->next == NULL)
					  diag_error(p->diag, &@$, "'max' takes at least two arguments"); }
	| IDENT '(' expr ')'
		{ $$ = mkexpr(p, E_ARG, &@$); $$->a = $3;
		  if (strcmp($1, "arg") != 0)
			  diag_error(p->diag, &@1, "unknown function '%s' (ports(), min(), "
			      "max() and arg() are the language's)", $1); }
	| '(' expr ')'		{ $$ = $2; }
	| '-' expr %prec UMINUS	{ $$ = mkexpr(p, E_UNARY, &@$); $$->op = '-'; $$->a = $2; }
	| '!' expr		{ $$ = mkexpr(p, E_UNARY, &@$); $$->op = '!'; $$->a = $2; }
	| expr '+' expr		{ $$ = mkbin(p, '+', $1, $3, &@2); }
	| expr '-' expr		{ $$ = mkbin(p, '-', $1, $3, &@2); }
	| expr '*' expr		{ $$ = mkbin(p, '*', $1, $3, &@2); }
	| expr '/' expr		{ $$ = mkbin(p, '/', $1, $3, &@2); }
	| expr '%' expr		{ $$ = mkbin(p, '%', $1, $3, &@2); }
	| expr '<' expr		{ $$ = mkbin(p, '<', $1, $3, &@2); }
	| expr '>' expr		{ $$ = mkbin(p, '>', $1, $3, &@2); }
	| expr LE expr		{ $$ = mkbin(p, OP_LE, $1, $3, &@2); }
	| expr GE expr		{ $$ = mkbin(p, OP_GE, $1, $3, &@2); }
	| expr EQ expr		{ $$ = mkbin(p, OP_EQ, $1, $3, &@2); }
	| expr NE expr		{ $$ = mkbin(p, OP_NE, $1, $3, &@2); }
	| expr ANDAND expr	{ $$ = mkbin(p, OP_AND, $1, $3, &@2); }
	| expr OROR expr	{ $$ = mkbin(p, OP_OR, $1, $3, &@2); }
	| expr '?' expr ':' expr
		{ $$ = mkexpr(p, E_COND, &@$); $$->a = $1; $$->b = $3; $$->c = $5; }
	;

exprlist:
	  expr			{ $$ = $1; }
	| expr ',' exprlist	{ $1->next = $3; $$ = $1; }
	;

stmts:	/* built in reverse, put in order by stmt_reverse */
	  %empty		{ $$ = NULL; }
	| stmts stmt		{ if ($2 == NULL) $$ = $1; else { $2->next = $1; $$ = $2; } }
	;

sendop:
	  SEND			{ $$ = MODE_STANDARD; }
	| SSEND			{ $$ = MODE_SYNC; }
	| BSEND			{ $$ = MODE_BUFFERED; }
	;

isendop:
	  ISEND			{ $$ = MODE_STANDARD; }
	| ISSEND		{ $$ = MODE_SYNC; }
	| IBSEND		{ $$ = MODE_BUFFERED; }
	;

stmt:
	  sendop IDENT '[' expr ']' ';'
		{ $$ = mkstmt(p, S_SEND, &@$); $$->mode = $1; $$->type = $2; $$->typeloc = @2; $$->port = $4; }
	| sendop IDENT '[' '*' ']' ';'
		{ $$ = mkstmt(p, S_SEND, &@$); $$->mode = $1; $$->type = $2; $$->typeloc = @2; }
	| isendop IDENT '[' expr ']' ';'
		{ $$ = mkstmt(p, S_ISEND, &@$); $$->mode = $1; $$->type = $2; $$->typeloc = @2; $$->port = $4; }
	| isendop IDENT '[' '*' ']' ';'
		{ $$ = mkstmt(p, S_ISEND, &@$); $$->mode = $1; $$->type = $2; $$->typeloc = @2; }
	| RECV IDENT '[' expr ']' ';'
		{ $$ = mkstmt(p, S_RECV, &@$); $$->type = $2; $$->typeloc = @2; $$->port = $4; }
	| RECV IDENT '[' '*' ']' ';'
		{ $$ = mkstmt(p, S_RECV, &@$); $$->type = $2; $$->typeloc = @2; }
	| RECV ANY IDENT ';'
		{ $$ = mkstmt(p, S_RECV_ANY, &@$); $$->type = $3; $$->typeloc = @3; }
	| RECV ANY ';'
		{ $$ = mkstmt(p, S_RECV_ANY, &@$); }
	| IRECV IDENT '[' expr ']' ';'
		{ $$ = mkstmt(p, S_IRECV, &@$); $$->type = $2; $$->typeloc = @2; $$->port = $4; }
	| IRECV IDENT '[' '*' ']' ';'
		{ $$ = mkstmt(p, S_IRECV, &@$); $$->type = $2; $$->typeloc = @2; }
	| IRECV ANY IDENT ';'
		{ $$ = mkstmt(p, S_IRECV_ANY, &@$); $$->type = $3; $$->typeloc = @3; }
	| IRECV ANY ';'
		{ $$ = mkstmt(p, S_IRECV_ANY, &@$); }
	| isendop IDENT '[' expr ']' AS IDENT ';'
		{ $$ = mkstmt(p, S_ISEND, &@$); $$->mode = $1; $$->type = $2; $$->typeloc = @2; $$->port = $4;
		  $$->req = $7; $$->reqloc = @7; }
	| isendop IDENT '[' '*' ']' AS IDENT ';'
		{ $$ = NULL;
		  diag_error(p->diag, &@6, "'as' names one request, and '%s[*]' posts "
		      "one per port", $2); }
	| IRECV IDENT '[' expr ']' AS IDENT ';'
		{ $$ = mkstmt(p, S_IRECV, &@$); $$->type = $2; $$->typeloc = @2; $$->port = $4;
		  $$->req = $7; $$->reqloc = @7; }
	| IRECV IDENT '[' '*' ']' AS IDENT ';'
		{ $$ = NULL;
		  diag_error(p->diag, &@6, "'as' names one request, and '%s[*]' posts "
		      "one per port", $2); }
	| IRECV ANY IDENT AS IDENT ';'
		{ $$ = mkstmt(p, S_IRECV_ANY, &@$); $$->type = $3; $$->typeloc = @3;
		  $$->req = $5; $$->reqloc = @5; }
	| IRECV ANY AS IDENT ';'
		{ $$ = mkstmt(p, S_IRECV_ANY, &@$); $$->req = $4; $$->reqloc = @4; }
	| SENDRECV IDENT '[' expr ']' ',' IDENT '[' expr ']' ';'
		{ $$ = mkstmt(p, S_SENDRECV, &@$); $$->type = $2; $$->typeloc = @2; $$->port = $4;
		  $$->rtype = $7; $$->rtypeloc = @7; $$->rport = $9; }
	| SENDRECV REPLACE IDENT '[' expr ']' ',' IDENT '[' expr ']' ';'
		{ $$ = mkstmt(p, S_SENDRECV_REPLACE, &@$); $$->type = $3; $$->typeloc = @3; $$->port = $5;
		  $$->rtype = $8; $$->rtypeloc = @8; $$->rport = $10; }
	| WAIT IDENT ';'	{ $$ = mkstmt(p, S_WAIT, &@$); $$->req = $2; $$->reqloc = @2; }
	| TEST IDENT block ELSE block
		{ $$ = mkstmt(p, S_TEST, &@1); $$->req = $2; $$->reqloc = @2; $$->body = $3; $$->orelse = $5; }
	| WAITANY '{' ons '}'	{ $$ = mkstmt(p, S_WAITANY, &@1); $$->branches = $3; }
	| WAITSOME '{' ons '}'	{ $$ = mkstmt(p, S_WAITSOME, &@1); $$->branches = $3; }
	| PROBE IDENT '[' expr ']' ';'
		{ $$ = mkstmt(p, S_PROBE, &@$); $$->type = $2; $$->typeloc = @2; $$->port = $4; }
	| PROBE ANY IDENT ';'
		{ $$ = mkstmt(p, S_PROBE_ANY, &@$); $$->type = $3; $$->typeloc = @3; }
	| PROBE ANY ';'		{ $$ = mkstmt(p, S_PROBE_ANY, &@$); }
	| PROBE IDENT '[' expr ']' AS IDENT ';'
		{ $$ = mkstmt(p, S_PROBE, &@$); $$->type = $2; $$->typeloc = @2; $$->port = $4;
		  $$->req = $7; $$->reqloc = @7; }
	| PROBE ANY IDENT AS IDENT ';'
		{ $$ = mkstmt(p, S_PROBE_ANY, &@$); $$->type = $3; $$->typeloc = @3;
		  $$->req = $5; $$->reqloc = @5; }
	| PROBE ANY AS IDENT ';'
		{ $$ = mkstmt(p, S_PROBE_ANY, &@$); $$->req = $4; $$->reqloc = @4; }
	| IPROBE IDENT '[' expr ']' block ELSE block
		{ $$ = mkstmt(p, S_IPROBE, &@1); $$->type = $2; $$->typeloc = @2; $$->port = $4;
		  $$->body = $6; $$->orelse = $8; }
	| IPROBE ANY IDENT block ELSE block
		{ $$ = mkstmt(p, S_IPROBE_ANY, &@1); $$->type = $3; $$->typeloc = @3;
		  $$->body = $4; $$->orelse = $6; }
	| IPROBE ANY block ELSE block
		{ $$ = mkstmt(p, S_IPROBE_ANY, &@1); $$->body = $3; $$->orelse = $5; }
	| IPROBE IDENT '[' expr ']' AS IDENT block ELSE block
		{ $$ = mkstmt(p, S_IPROBE, &@1); $$->type = $2; $$->typeloc = @2; $$->port = $4;
		  $$->req = $7; $$->reqloc = @7; $$->body = $8; $$->orelse = $10; }
	| IPROBE ANY IDENT AS IDENT block ELSE block
		{ $$ = mkstmt(p, S_IPROBE_ANY, &@1); $$->type = $3; $$->typeloc = @3;
		  $$->req = $5; $$->reqloc = @5; $$->body = $6; $$->orelse = $8; }
	| IPROBE ANY AS IDENT block ELSE block
		{ $$ = mkstmt(p, S_IPROBE_ANY, &@1); $$->req = $4; $$->reqloc = @4;
		  $$->body = $5; $$->orelse = $7; }
	| RECV IDENT ';'
		{ $$ = mkstmt(p, S_RECV_PROBED, &@$); $$->req = $2; $$->reqloc = @2; }
	| WAITALL ';'		{ $$ = mkstmt(p, S_WAITALL, &@$); }
	| BARRIER over_opt ';'
		{ $$ = mkstmt(p, S_BARRIER, &@$); $$->over = $2; }
	| ALLREDUCE over_opt ';'
		{ $$ = mkstmt(p, S_ALLREDUCE, &@$); $$->over = $2; }
	| ALLGATHER over_opt ';'
		{ $$ = mkstmt(p, S_ALLGATHER, &@$); $$->over = $2; }
	| ALLTOALL over_opt ';'
		{ $$ = mkstmt(p, S_ALLTOALL, &@$); $$->over = $2; }
	| BCAST FROM target over_opt ';'
		{ $$ = mkstmt(p, S_BCAST, &@$); $$->root = *$3; $$->over = $4; }
	| SCATTER FROM target over_opt ';'
		{ $$ = mkstmt(p, S_SCATTER, &@$); $$->root = *$3; $$->over = $4; }
	| REDUCE TO target over_opt ';'
		{ $$ = mkstmt(p, S_REDUCE, &@$); $$->root = *$3; $$->over = $4; }
	| GATHER TO target over_opt ';'
		{ $$ = mkstmt(p, S_GATHER, &@$); $$->root = *$3; $$->over = $4; }
	| ALLGATHERV over_opt ';'
		{ $$ = mkstmt(p, S_ALLGATHERV, &@$); $$->over = $2; }
	| ALLTOALLV over_opt ';'
		{ $$ = mkstmt(p, S_ALLTOALLV, &@$); $$->over = $2; }
	| REDUCESCATTER over_opt ';'
		{ $$ = mkstmt(p, S_REDUCESCATTER, &@$); $$->over = $2; }
	| SCATTERV FROM target over_opt ';'
		{ $$ = mkstmt(p, S_SCATTERV, &@$); $$->root = *$3; $$->over = $4; }
	| GATHERV TO target over_opt ';'
		{ $$ = mkstmt(p, S_GATHERV, &@$); $$->root = *$3; $$->over = $4; }
	| LOOP expr block	{ $$ = mkstmt(p, S_LOOP, &@1); $$->expr = $2; $$->body = $3; }
	| LOOP block		{ $$ = mkstmt(p, S_LOOP, &@1); $$->body = $2; }
	| ifstmt		{ $$ = $1; }
	| FOR forvar block	{ $$ = mkstmt(p, S_FOR, &@1); $$->var = $2; $$->body = $3; }
	| CHOICE block branches
		{ $$ = mkstmt(p, S_CHOICE, &@1);
		  $$->branches = AST_NEW(p->ast, struct branch);
		  $$->branches->body = $2; $$->branches->loc = @2; $$->branches->next = $3; }
	| error ';'		{ $$ = NULL; yyerrok; }
	;

over_opt:
	  %empty		{ $$ = NULL; }
	| OVER target		{ $$ = $2; }
	;

ifstmt:
	  IF expr block		{ $$ = mkstmt(p, S_IF, &@1); $$->expr = $2; $$->body = $3; }
	| IF expr block ELSE block
		{ $$ = mkstmt(p, S_IF, &@1); $$->expr = $2; $$->body = $3; $$->orelse = $5; }
	| IF expr block ELSE ifstmt
		{ $$ = mkstmt(p, S_IF, &@1); $$->expr = $2; $$->body = $3; $$->orelse = $5; }
	;

branches:
	  OR block		{ $$ = AST_NEW(p->ast, struct branch); $$->body = $2; $$->loc = @2; }
	| OR block branches	{ $$ = AST_NEW(p->ast, struct branch); $$->body = $2; $$->loc = @2; $$->next = $3; }
	;

block:
	  '{' stmts '}'		{ $$ = stmt_reverse($2); }
	;

ons:
	  ON IDENT block	{ $$ = AST_NEW(p->ast, struct branch); $$->body = $3; $$->loc = @1;
				  $$->req = $2; $$->reqloc = @2; }
	| ON IDENT block ons	{ $$ = AST_NEW(p->ast, struct branch); $$->body = $3; $$->loc = @1;
				  $$->req = $2; $$->reqloc = @2; $$->next = $4; }
	;

%%


#define MAX_INCLUDE_DEPTH	64
/* Includes read in all, counting a file read twice twice, so that
 * includes that fan out (each file including the next twice) end in an
 * error at once: the texts, and their bytes with the script's. */
#define MAX_INCLUDE_READS	16384
#define MAX_INCLUDE_BYTES	((size_t)1 << 30)

/* One token from the scanner, with its text (struct qtok). */
static void
scan(struct parser *p, struct qtok *t, void *scanner)
{
	t->tok = lexer_scan(&t->v, &t->l, scanner);
	t->text = t->tok == IDENT ? t->v.name : t->tok == INT ?
	    ast_strdup(p->ast, pcg_yyget_text(scanner)) : NULL;
}

/* The headers of parts and sections, as written, and the tokens each is. */
static const struct {
	const char	*text;
	int		 toks[3];
	int		 ntoks;
} headers[] = {
	{ "PCG", { PCG }, 1 },
	{ "PARALLEL SYSTEM MPI", { PARALLEL, SYSTEM, IDENT }, 3 },
	{ "SEQUENTIAL COMPONENTS", { SEQUENTIAL, COMPONENTS }, 2 },
	{ "BEHAVIOUR", { BEHAVIOUR }, 1 },
	{ "Components", { SEC_COMPONENTS }, 1 },
	{ "Processes", { SEC_PROCESSES }, 1 },
	{ "Channels", { SEC_CHANNELS }, 1 },
	{ "Groups", { SEC_GROUPS }, 1 },
};
#define NHEADERS	(sizeof(headers) / sizeof(headers[0]))

/* A word a header may be made of, as written: an identifier or a header's
 * keyword; NULL for any other token. */
static const char *
header_word(const struct qtok *t)
{
	switch (t->tok) {
	case IDENT:		return t->v.name;
	case PCG:		return "PCG";
	case PARALLEL:		return "PARALLEL";
	case SYSTEM:		return "SYSTEM";
	case SEQUENTIAL:	return "SEQUENTIAL";
	case COMPONENTS:	return "COMPONENTS";
	case BEHAVIOUR:		return "BEHAVIOUR";
	case SEC_COMPONENTS:	return "Components";
	case SEC_PROCESSES:	return "Processes";
	case SEC_CHANNELS:	return "Channels";
	case SEC_GROUPS:	return "Groups";
	default:		return NULL;
	}
}

/* Whether a token may start an item (a line of the script). */
static int
starts_item(int tok)
{
	return tok == IDENT || tok == PCG_YYEOF || tok == APPLICATION ||
	    tok == SCALE || tok == PARAM || tok == REQUIRE || tok == INCLUDE ||
	    tok == TAG || header_word(&(struct qtok){ .tok = tok }) != NULL;
}

/* A header misspelt ('Proceses', 'channels', 'Sequential Components'):
 * the words at the start of a line, q[0 .. nw), of which one at least is
 * an identifier, that are a typo of a header, alone on the line or
 * followed by an item on it.  Said, and the header's tokens put in their
 * place in the queue, so that the parse goes on as if it were written
 * right (no cascade).  The queue holds the words and the token after. */
static void
header_typo(struct parser *p, int nw)
{
	const char	*texts[NHEADERS], *best;
	const struct qtok *after;
	struct buf	 b;
	struct qtok	 h[3];
	struct loc	 l;
	int		 j, k, m, ident;

	for (k = 0; k < (int)NHEADERS; k++)
		texts[k] = headers[k].text;
	for (j = nw; j > 0; j--) {
		/* Words 0 .. j, then the line's end or an item. */
		after = &p->q[j];
		if (!starts_item(after->tok))
			continue;
		buf_init(&b);
		for (k = 0, ident = 0; k < j; k++) {
			buf_printf(&b, "%s%s", k > 0 ? " " : "",
			    header_word(&p->q[k]));
			ident |= p->q[k].tok == IDENT;
		}
		best = ident ? diag_suggest(b.s, texts, NHEADERS) : NULL;
		if (best == NULL) {
			buf_free(&b);
			continue;
		}
		for (k = 0; strcmp(headers[k].text, best) != 0; k++)
			;
		l = span(&p->q[0].l, &p->q[j - 1].l);
		diag_error(p->diag, &l, "unknown section '%s'; did you mean '%s'?",
		    b.s, best);
		buf_free(&b);
		for (m = 0; m < headers[k].ntoks; m++) {
			memset(&h[m], 0, sizeof(h[m]));
			h[m].tok = headers[k].toks[m];
			h[m].l = p->q[m < j ? m : j - 1].l;
			if (h[m].tok == IDENT)
				h[m].text = h[m].v.name = ast_intern(p->ast, "MPI", 3);
		}
		memmove(&p->q[headers[k].ntoks], &p->q[j],
		    sizeof(p->q[0]) * (size_t)(p->qn - j));
		memcpy(p->q, h, sizeof(h[0]) * (size_t)headers[k].ntoks);
		p->qn += headers[k].ntoks - j;
		return;
	}
}

/* The lexer, remembering the previous token for "expected ';'" messages.
 * A line that starts with an identifier outside a block is read ahead as
 * far as its first words (three at most) and the token after them, for
 * header_typo. */
static int
pcg_yylex(PCG_YYSTYPE *v, struct loc *l, struct parser *p, void *scanner)
{
	struct qtok	t;
	int		nw;

	p->prev = *l;
	if (p->qn == 0) {
		scan(p, &p->q[p->qn++], scanner);
		if (p->q[0].tok == IDENT && p->x.nbraces == 0 &&
		    (p->lines == 0 || p->q[0].l.first_line > p->last_line)) {
			for (nw = 1; ; nw++) {
				scan(p, &p->q[p->qn++], scanner);
				if (nw == 3 || header_word(&p->q[nw]) == NULL ||
				    p->q[nw].l.first_line != p->q[0].l.first_line)
					break;
			}
			if (nw == 3 && header_word(&p->q[3]) != NULL &&
			    p->q[3].l.first_line == p->q[0].l.first_line)
				;	/* four words: no header */
			else
				header_typo(p, nw);
		}
	}
	t = p->q[0];
	memmove(&p->q[0], &p->q[1], sizeof(p->q[0]) * (size_t)--p->qn);
	*v = t.v;
	*l = t.l;
	p->prev_text = p->la_text;
	p->la_text = t.text;
	p->lines++;
	p->last_line = t.l.last_line;
	if (t.tok == INVALID)
		p->x.invalid = t.v.text;
	return t.tok;
}

static void
pcg_yyerror(struct loc *l, struct parser *p, void *scanner, const char *msg)
{
	(void)scanner;
	if (strcmp(msg, "memory exhausted") == 0)
		diag_error(p->diag, l, "nested too deeply");
	else
		diag_error(p->diag, l, "%s", msg);
}

/* A token's name as the user should read it: 'send', ';', identifier. */
static void
token_name(struct buf *b, yysymbol_kind_t sym)
{
	const char	*n = yysymbol_name(sym);
	size_t		 len = strlen(n);

	if (sym == YYSYMBOL_YYEOF) {
		buf_adds(b, "end of file");
		return;
	}
	if (len >= 2 && n[0] == '"') {
		n++;
		len -= 2;
	}
	if (sym == YYSYMBOL_IDENT || sym == YYSYMBOL_INT || sym == YYSYMBOL_QQSTRING_START ||
	    sym == YYSYMBOL_QQSTRING_TEXT || sym == YYSYMBOL_INVALID ||
	    sym == YYSYMBOL_QQSTRING_END || sym == YYSYMBOL_QQINTERP_END)
		buf_add(b, n, len);
	else if (n[0] == '\'')
		buf_add(b, n, len);
	else {
		buf_addc(b, '\'');
		buf_add(b, n, len);
		buf_addc(b, '\'');
	}
}

/* Words people write for a keyword that is not quite it. */
static const struct {
	const char	*word;
	const char	*keyword;
} keyword_aliases[] = {
	{ "receive", "recv" }, { "ireceive", "irecv" },
	{ "sendreceive", "sendrecv" }, { "broadcast", "bcast" },
};

/* The keywords an annotation starts with, which a string follows. */
static const char *const annot_keywords[] = {
	"exec", "args", "env", "wdir", "host", "source",
};
#define NANNOT_KEYWORDS	(sizeof(annot_keywords) / sizeof(annot_keywords[0]))

/* The longest keyword. */
#define KEYWORD_MAX	16

/* The keyword among the n expected tokens exp that word, an identifier
 * where none may be, is likely a typo of (or of a word keyword_aliases
 * gives it for), or NULL; *stmt says whether a statement may start
 * there.  The answer lasts until the next call. */
static const char *
keyword_typo(const char *word, const yysymbol_kind_t *exp, int n, int *stmt)
{
	static char	 kw[YYNTOKENS][KEYWORD_MAX + 1];
	const char	*cands[YYNTOKENS], *name, *best, *alias;
	int		 i, nc = 0;
	size_t		 k, len;

	*stmt = 0;
	for (i = 0; i < n; i++) {
		name = yysymbol_name(exp[i]);
		len = strlen(name);
		if (exp[i] == YYSYMBOL_RECV)
			*stmt = 1;
		/* The keywords: send, not ';', identifier or string. */
		if (exp[i] == YYSYMBOL_IDENT || exp[i] == YYSYMBOL_INT ||
		    exp[i] == YYSYMBOL_QQSTRING_START || len > KEYWORD_MAX ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != len)
			continue;
		memcpy(kw[nc], name, len + 1);
		cands[nc] = kw[nc];
		nc++;
	}
	if ((best = diag_suggest(word, cands, (size_t)nc)) != NULL)
		return best;
	for (k = 0; k < sizeof(keyword_aliases) / sizeof(keyword_aliases[0]); k++) {
		alias = keyword_aliases[k].word;
		if (strcmp(word, alias) != 0 && diag_suggest(word, &alias, 1) == NULL)
			continue;
		for (i = 0; i < nc; i++)
			if (strcmp(cands[i], keyword_aliases[k].keyword) == 0)
				return cands[i];
	}
	return NULL;
}

static int
yyreport_syntax_error(const yypcontext_t *ctx, struct parser *p, void *scanner)
{
	yysymbol_kind_t	 la = yypcontext_token(ctx);
	yysymbol_kind_t	 exp[YYNTOKENS];
	struct loc	 l = *yypcontext_location(ctx);
	struct buf	 b;
	const char	*best;
	int		 n, i, semi = 0, stmt;

	(void)scanner;
	if (la == YYSYMBOL_INVALID) {
		diag_error(p->diag, &l, "%s", p->x.invalid);
		return 0;
	}
	n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
	for (i = 0; i < n; i++)
		if (strcmp(yysymbol_name(exp[i]), "';'") == 0)
			semi = 1;
	buf_init(&b);
	if (la == YYSYMBOL_IDENT && (best = keyword_typo(p->la_text, exp, n,
	    &stmt)) != NULL) {
		/* A keyword misspelt ('recieve'): what it likely is, and no
		 * note on an open '{', which is not the cause. */
		diag_error(p->diag, &l, "unknown %s '%s'; did you mean '%s'?",
		    stmt ? "statement" : "keyword", p->la_text, best);
		buf_free(&b);
		return 0;
	}
	if (la == YYSYMBOL_QQSTRING_START && p->prev_text != NULL &&
	    p->prev.src != NULL && (best = diag_suggest(p->prev_text,
	    annot_keywords, NANNOT_KEYWORDS)) != NULL) {
		/* A word before a string, where none may be: an
		 * annotation's keyword misspelt ('exce "relay"'), read as a
		 * port type. */
		diag_error(p->diag, &p->prev, "unknown keyword '%s'; did you "
		    "mean '%s'?", p->prev_text, best);
		buf_free(&b);
		return 0;
	}
	if (la == YYSYMBOL_YYEOF && p->x.nbraces > 0) {
		buf_adds(&b, "unexpected end of file: a '{' is not closed");
	} else if (semi && la != YYSYMBOL_YYEOF && p->prev.src != NULL &&
	    p->prev.last_line < l.first_line) {
		/* A line that should have ended: point just after its end. */
		buf_adds(&b, "expected ';'");
		if (p->prev.src != NULL) {
			l = p->prev;
			l.first_line = l.last_line;
			l.first_column = l.last_column = l.last_column + 1;
		}
	} else {
		buf_adds(&b, "unexpected ");
		token_name(&b, la);
		if (la == YYSYMBOL_IDENT || la == YYSYMBOL_INT)
			buf_printf(&b, " '%s'", p->la_text);
		if (n > 0 && n <= 6) {
			buf_adds(&b, ", expected ");
			for (i = 0; i < n; i++) {
				if (i > 0)
					buf_adds(&b, i == n - 1 ? " or " : ", ");
				token_name(&b, exp[i]);
			}
		}
	}
	diag_error(p->diag, &l, "%s", b.s);
	/* At the end, or where a new block or part starts, an open '{' is
	 * the likely cause. */
	if (p->x.nbraces > 0 && (la == YYSYMBOL_YYEOF || la == YYSYMBOL_IDENT ||
	    la == YYSYMBOL_PCG || la == YYSYMBOL_PARALLEL || la == YYSYMBOL_SEQUENTIAL ||
	    la == YYSYMBOL_BEHAVIOUR || la == YYSYMBOL_SEC_COMPONENTS ||
	    la == YYSYMBOL_SEC_PROCESSES || la == YYSYMBOL_SEC_CHANNELS ||
	    la == YYSYMBOL_SEC_GROUPS))
		diag_note(p->diag, &p->x.braces[p->x.nbraces > LEXER_MAX_BRACES ?
		    LEXER_MAX_BRACES - 1 : p->x.nbraces - 1], "this '{' is not closed");
	buf_free(&b);
	return 0;
}

/* From the start of a to the end of b (b may be an empty rule's spot). */
static struct loc
span(const struct loc *a, const struct loc *b)
{
	struct loc	l = *a;

	if (b->last_line > l.last_line ||
	    (b->last_line == l.last_line && b->last_column > l.last_column)) {
		l.last_line = b->last_line;
		l.last_column = b->last_column;
	}
	return l;
}

static struct stmt *
stmt_reverse(struct stmt *s)
{
	struct stmt	*prev = NULL, *next;

	for (; s != NULL; s = next) {
		next = s->next;
		s->next = prev;
		prev = s;
	}
	return prev;
}

static struct expr *
mkexpr(struct parser *p, enum expr_kind kind, const struct loc *l)
{
	struct expr	*e = AST_NEW(p->ast, struct expr);

	e->kind = kind;
	e->loc = *l;
	return e;
}

static struct expr *
mkbin(struct parser *p, int op, struct expr *a, struct expr *b, const struct loc *opl)
{
	struct expr	*e = mkexpr(p, E_BINARY, opl);

	e->op = op;
	e->a = a;
	e->b = b;
	return e;
}

static struct stmt *
mkstmt(struct parser *p, enum stmt_kind kind, const struct loc *l)
{
	struct stmt	*s = AST_NEW(p->ast, struct stmt);

	s->kind = kind;
	s->loc = *l;
	return s;
}

static struct item *
mkitem(struct parser *p, enum item_kind kind, const struct loc *l)
{
	struct item	*it = AST_NEW(p->ast, struct item);

	it->kind = kind;
	it->loc = *l;
	ast_append(p->ast, it);
	return it;
}

static const char *
part_name(enum part part)
{
	switch (part) {
	case PART_PCG:		return "PCG";
	case PART_PARALLEL:	return "PARALLEL SYSTEM";
	case PART_SEQUENTIAL:	return "SEQUENTIAL COMPONENTS";
	case PART_BEHAVIOUR:	return "BEHAVIOUR";
	case PART_NONE:		break;
	}
	return "no";
}

/* A part header starts its part with no section; 'Components' implies the
 * PCG part; 'Processes' and 'Channels' stay in the PCG or PARALLEL SYSTEM
 * part (the PCG part when none has begun, as in a component's fragment). */
static void
header(struct parser *p, enum part part, enum section sec, const struct loc *l,
    const char *name)
{
	if (part == PART_NONE) {
		part = p->part;
		if (part == PART_NONE)
			part = PART_PCG;
		if (part != PART_PCG && part != PART_PARALLEL) {
			diag_error(p->diag, l, "'%s' section in the %s part (sections "
			    "belong to the PCG and PARALLEL SYSTEM parts)", name,
			    part_name(p->part));
			p->section = SEC_NONE;
			return;
		}
	}
	p->part = part;
	p->section = sec;
	p->ast->cur = part == PART_BEHAVIOUR ? p->ast->keep : p->ast->lines;
}

/* Whether an item stands in the part it belongs to; -1 after an error. */
static int
check_part(struct parser *p, enum part want, const struct loc *l, const char *what)
{
	if (p->part == want)
		return 0;
	if (p->part == PART_NONE)
		diag_error(p->diag, l, "%s before the %s part header", what, part_name(want));
	else
		diag_error(p->diag, l, "%s in the %s part (it belongs in the %s part)",
		    what, part_name(p->part), part_name(want));
	return -1;
}

static void
no_for(struct parser *p, struct forclause *fc, const char *what)
{
	if (fc != NULL)
		diag_error(p->diag, &fc->loc, "a 'for' clause cannot follow %s", what);
}

/* `target : T, U` (Components), `target : T[n], U[*]` (Processes), or
 * `target;` (a process with no ports). */
static void
portline(struct parser *p, struct instref *t, struct portdecl *pd,
    struct forclause *fc, const struct loc *l)
{
	struct portdecl	*d;
	struct item	*it;

	if (p->section == SEC_GROUP) {
		groupline(p, t, pd, fc, l);
		return;
	}
	if (check_part(p, PART_PCG, l, pd == NULL ? "a process line" : "a port list") != 0)
		return;
	if (p->section == SEC_COMP) {
		no_for(p, fc, "a Components line");
		if (t->idx != NULL)
			diag_error(p->diag, &t->loc, "a component name takes no index "
			    "(instances are declared in the Processes section)");
		for (d = pd; d != NULL; d = d->next)
			if (d->idx != NULL || d->star)
				diag_error(p->diag, &d->loc, "a Components line names port "
				    "types only; counts belong in the Processes section");
		it = mkitem(p, I_COMPONENT, l);
		it->name = t->name;
		it->nameloc = t->nameloc;
		it->ports = pd;
		return;
	}
	if (p->section == SEC_PROC) {
		for (d = pd; d != NULL; d = d->next)
			if (d->idx != NULL && d->count == NULL)
				diag_error(p->diag, &d->loc, "a port count is one "
				    "number, not a range or a list");
			else if (d->count == NULL && !d->star)
				diag_error(p->diag, &d->loc, "port type '%s' needs a count "
				    "in the Processes section ('%s[1]', or '%s[*]' to infer it)",
				    d->type, d->type, d->type);
		it = mkitem(p, I_PROCESS, l);
		it->target = t;
		it->ports = pd;
		it->fc = fc;
		return;
	}
	diag_error(p->diag, l, "%s outside a Components or Processes section",
	    pd == NULL ? "a process line" : "a port list");
}

/* `name : cell[1..W], master for ...` (Groups): the processes it lists,
 * each a process, a range or list of a component's, or every process of a
 * component. */
static void
groupline(struct parser *p, struct instref *t, struct portdecl *pd,
    struct forclause *fc, const struct loc *l)
{
	struct instref	*m, **tail;
	struct portdecl	*d;
	struct item	*it;

	if (p->part != PART_PCG) {
		diag_error(p->diag, l, "a group belongs in the Groups section of "
		    "the PCG part");
		return;
	}
	if (pd == NULL) {
		diag_error(p->diag, l, "a group line lists its processes after ':' "
		    "('%s : worker[1..N];')", t->name);
		return;
	}
	if (t->idx != NULL && (t->idx->hi != NULL || t->idx->next != NULL)) {
		diag_error(p->diag, &t->loc, "a group takes one index (use a 'for' "
		    "clause for several)");
		return;
	}
	it = mkitem(p, I_GROUP, l);
	it->target = t;
	it->fc = fc;
	tail = &it->members;
	for (d = pd; d != NULL; d = d->next) {
		if (d->star) {
			diag_error(p->diag, &d->loc, "'[*]' in a group: name the "
			    "component alone for all its processes");
			continue;
		}
		m = AST_NEW(p->ast, struct instref);
		m->name = d->type;
		m->nameloc = d->typeloc;
		m->loc = d->loc;
		m->idx = d->idx;
		*tail = m;
		tail = &m->next;
	}
}

/* `target : host "h"` (PARALLEL SYSTEM Processes) or `target : exec ... args
 * ...` (SEQUENTIAL COMPONENTS). */
static void
annotline(struct parser *p, struct instref *t, struct annot *an,
    struct forclause *fc, const struct loc *l)
{
	struct annot	*a;
	struct item	*it;
	int		 bad = 0;

	if (an->kind == A_HOST) {
		if (check_part(p, PART_PARALLEL, &an->loc, "'host'") != 0)
			return;
		if (p->section != SEC_PROC) {
			diag_error(p->diag, &an->loc, "'host' belongs in the Processes section "
			    "of the PARALLEL SYSTEM part");
			return;
		}
		for (a = an->next; a != NULL; a = a->next) {
			diag_error(p->diag, &a->loc, "'%s' cannot follow 'host' (one "
			    "'host' per line)", a->kind == A_HOST ? "host" :
			    "exec, args, env, wdir or source");
			bad = 1;
		}
		if (bad)
			return;
		it = mkitem(p, I_HOST, l);
	} else {
		static const char *const words[] = {
			[A_EXEC] = "'exec'", [A_ARGS] = "'args'", [A_ENV] = "'env'",
			[A_WDIR] = "'wdir'", [A_HOST] = "'host'", [A_SOURCE] = "'source'",
		};

		if (check_part(p, PART_SEQUENTIAL, &an->loc, words[an->kind]) != 0)
			return;
		for (a = an; a != NULL; a = a->next) {
			if (a->kind == A_HOST) {
				diag_error(p->diag, &a->loc, "'host' belongs in the "
				    "Processes section of the PARALLEL SYSTEM part");
				bad = 1;
			}
		}
		if (bad)
			return;
		it = mkitem(p, I_ANNOT, l);
	}
	it->target = t;
	it->annots = an;
	it->fc = fc;
}

static void
chanline(struct parser *p, struct endpoint *a, struct endpoint *b, struct expr *tag,
    const struct loc *tagl, struct forclause *fc, const struct loc *l)
{
	struct item	*it;

	if (p->part != PART_PCG && p->part != PART_PARALLEL && p->part != PART_NONE) {
		check_part(p, PART_PCG, l, "a channel");
		return;
	}
	if (p->section != SEC_CHAN) {
		diag_error(p->diag, l, "a channel outside a Channels section");
		return;
	}
	if (p->part == PART_PCG && tag != NULL) {
		diag_error(p->diag, tagl, "a channel's tag belongs in the Channels "
		    "section of the PARALLEL SYSTEM part");
		return;
	}
	if (p->part == PART_PARALLEL && tag == NULL) {
		diag_error(p->diag, l, "a channel in the PARALLEL SYSTEM part needs "
		    "': tag N' (channels are declared in the PCG part)");
		return;
	}
	it = mkitem(p, tag != NULL ? I_CHANNEL_TAG : I_CHANNEL, l);
	it->a = a;
	it->b = b;
	it->expr = tag;
	it->fc = fc;
}

static int parse_source(struct parser *, const struct source *);

/* Find an include file: beside the including file, in -L dirs, in
 * ENSEMBLE_PATH, then where ensemble installs its components. */
static char *
include_find(struct parser *p, const char *name)
{
	const char	*env;
	char		*path;
	size_t		 i;

	if (name[0] == '/')
		return access(name, R_OK) == 0 ? xstrdup(name) : NULL;
	if (strcmp(p->x.src->dir, ".") == 0)
		path = xstrdup(name);
	else
		xasprintf(&path, "%s/%s", p->x.src->dir, name);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	for (i = 0; p->opts != NULL && i < p->opts->ndirs; i++) {
		xasprintf(&path, "%s/%s", p->opts->dirs[i], name);
		if (access(path, R_OK) == 0)
			return path;
		free(path);
	}
	if ((env = getenv("ENSEMBLE_PATH")) != NULL) {
		char	*copy = xstrdup(env), *dir, *save = NULL;

		for (dir = strtok_r(copy, ":", &save); dir != NULL;
		    dir = strtok_r(NULL, ":", &save)) {
			xasprintf(&path, "%s/%s", dir, name);
			if (access(path, R_OK) == 0) {
				free(copy);
				return path;
			}
			free(path);
		}
		free(copy);
	}
	xasprintf(&path, "%s/components/%s", PKGDATADIR, name);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

static void
include(struct parser *p, struct str *s, const struct loc *l)
{
	struct buf	 name;
	struct strpart	*sp;
	struct source	*src;
	struct incl	*in;
	struct stat	 st;
	char		*path, *cause;

	buf_init(&name);
	for (sp = s->parts; sp != NULL; sp = sp->next) {
		if (sp->text == NULL) {
			diag_error(p->diag, l, "an include file name cannot use '${...}'");
			buf_free(&name);
			return;
		}
		buf_adds(&name, sp->text);
	}
	if (p->total->stopped) {
		buf_free(&name);
		return;
	}
	if (p->opts != NULL && p->opts->no_includes) {
		diag_error(p->diag, l, "'include' is disabled here");
		buf_free(&name);
		return;
	}
	if (name.len == 0) {
		diag_error(p->diag, l, "empty include file name");
		buf_free(&name);
		return;
	}
	if (p->depth >= MAX_INCLUDE_DEPTH) {
		diag_error(p->diag, l, "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
		buf_free(&name);
		return;
	}
	if ((path = include_find(p, name.s)) == NULL) {
		diag_error(p->diag, l, "cannot find include file '%s'", name.s);
		if (name.s[0] != '/')
			diag_note(p->diag, l, "searched '%s' (beside the file that "
			    "includes it), -L directories, ENSEMBLE_PATH and '%s'",
			    p->x.src->dir, PKGDATADIR "/components");
		buf_free(&name);
		return;
	}
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		diag_error(p->diag, l, "cannot include '%s': not a regular file", name.s);
		free(path);
		buf_free(&name);
		return;
	}
	if (p->total->files >= MAX_INCLUDE_READS ||
	    (size_t)st.st_size > MAX_INCLUDE_BYTES - p->total->bytes) {
		if (p->total->files >= MAX_INCLUDE_READS)
			diag_error(p->diag, l, "includes read more than %d files "
			    "in all (a file included twice is read twice): stopped "
			    "at '%s'", MAX_INCLUDE_READS, name.s);
		else
			diag_error(p->diag, l, "the script and its includes are "
			    "more than 1 GiB in all: stopped at '%s'", name.s);
		p->total->stopped = 1;
		free(path);
		buf_free(&name);
		return;
	}
	if ((src = diag_load(p->diag, path, &cause)) == NULL) {
		diag_error(p->diag, l, "%s", cause);
		free(cause);
		free(path);
		buf_free(&name);
		return;
	}
	p->total->files++;
	p->total->bytes += src->len;
	for (in = p->stack; in != NULL; in = in->up) {
		if (strcmp(in->path, src->path) == 0) {
			if (in == p->stack)
				diag_error(p->diag, l, "'%s' includes itself", name.s);
			else
				diag_error(p->diag, l, "include cycle: '%s' is already "
				    "being read", name.s);
			free(path);
			buf_free(&name);
			return;
		}
	}
	src->from = p->x.src;
	src->from_line = l->first_line;
	src->from_column = l->first_column;
	parse_source(p, src);
	free(path);
	buf_free(&name);
}

/* Parse one source with a fresh scanner; an included file starts in the
 * includer's part and section, and leaves the includer's unchanged. */
static int
parse_source(struct parser *parent, const struct source *src)
{
	struct parser	 p;
	struct incl	 in;
	void		*scanner;
	YY_BUFFER_STATE	 bs;
	int		 rc;

	memset(&p, 0, sizeof(p));
	p.ast = parent->ast;
	p.diag = parent->diag;
	p.opts = parent->opts;
	p.part = parent->part;
	p.section = parent->section;
	p.depth = parent->depth + 1;
	p.total = parent->total;
	in.path = src->path;
	in.up = parent->stack;
	p.stack = &in;
	p.x.ast = p.ast;
	p.x.src = src;
	p.x.line = p.x.col = 1;
	if (pcg_yylex_init_extra(&p.x, &scanner) != 0) {
		diag_error(p.diag, NULL, "cannot start the scanner");
		return -1;
	}
	p.ast->cur = p.part == PART_BEHAVIOUR ? p.ast->keep : p.ast->lines;
	bs = pcg_yy_scan_bytes(src->text, (int)src->len, scanner);
	rc = pcg_yyparse(&p, scanner);
	pcg_yy_delete_buffer(bs, scanner);
	pcg_yylex_destroy(scanner);
	p.ast->cur = parent->part == PART_BEHAVIOUR ? p.ast->keep : p.ast->lines;
	return rc;
}

static struct ast *
parse_top(struct source *src, struct diag *d, const struct parse_opts *opts)
{
	struct parser		 root;
	struct incl_total	 total;
	struct ast		*ast = ast_new();

	memset(&root, 0, sizeof(root));
	memset(&total, 0, sizeof(total));
	total.bytes = src->len;
	root.total = &total;
	root.ast = ast;
	root.diag = d;
	root.opts = opts;
	root.depth = -1;
	ast->main = src;
	parse_source(&root, src);
	return ast;
}

struct ast *
parse_file(const char *path, struct diag *d, const struct parse_opts *opts)
{
	struct source	*src;
	char		*cause;

	if ((src = diag_load(d, path, &cause)) == NULL) {
		diag_error(d, NULL, "%s", cause);
		free(cause);
		return NULL;
	}
	if (src->len > INT_MAX) {
		diag_error(d, NULL, "'%s' is too large", path);
		return NULL;
	}
	return parse_top(src, d, opts);
}

struct item *
parse_more(struct ast *ast, const char *name, const char *text, size_t len,
    struct diag *d)
{
	struct parser		 root;
	struct incl_total	 total;
	struct parse_opts	 opts;
	struct item		*items;
	struct source		*src;

	if (len > INT_MAX)
		return NULL;
	src = diag_load_string(d, name, text, len);
	memset(&opts, 0, sizeof(opts));
	opts.no_includes = 1;
	memset(&root, 0, sizeof(root));
	memset(&total, 0, sizeof(total));
	total.bytes = len;
	root.total = &total;
	root.ast = ast;
	root.diag = d;
	root.opts = &opts;
	root.depth = -1;
	ast->items = NULL;
	ast->tail = &ast->items;
	parse_source(&root, src);
	items = ast->items;
	ast->items = NULL;
	ast->tail = &ast->items;
	ast->cur = ast->lines;
	return items;
}

struct ast *
parse_string(const char *name, const char *text, size_t len, struct diag *d,
    const struct parse_opts *opts)
{
	if (len > INT_MAX)
		return NULL;
	return parse_top(diag_load_string(d, name, text, len), d, opts);
}
