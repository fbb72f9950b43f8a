/* frontend.c -- the script's text to its AST, its model and its MP net in
 * one call (frontend.h): the one place the stages are chained. */
#include "config.h"

#include <string.h>

#include "frontend.h"
#include "parse.h"

int
frontend_compile(const struct frontend_src *src, const struct pcg_opts *o,
    enum frontend_stage upto, struct diag *d, struct frontend *fe)
{
	struct parse_opts	 po;

	memset(fe, 0, sizeof(*fe));
	memset(&po, 0, sizeof(po));
	po.dirs = o->dirs;
	po.ndirs = o->ndirs;
	po.no_includes = src->no_includes;
	if (src->path != NULL)
		fe->ast = parse_file(src->path, d, &po);
	else
		fe->ast = parse_string(src->name, src->text, src->len, d, &po);
	if (fe->ast == NULL)
		return src->path != NULL ? FRONTEND_READ : FRONTEND_PARSE;
	if (d->errors > 0) {
		/* Expanding a script that did not parse only adds noise. */
		ast_free(fe->ast);
		fe->ast = NULL;
		return FRONTEND_PARSE;
	}
	return frontend_resume(fe, o, upto, d);
}

int
frontend_resume(struct frontend *fe, const struct pcg_opts *o,
    enum frontend_stage upto, struct diag *d)
{
	if (upto >= FRONTEND_EXPAND && fe->pcg == NULL) {
		fe->pcg = pcg_expand(fe->ast, d, o);	/* takes the AST */
		fe->ast = NULL;
		if (fe->pcg == NULL || d->errors > 0) {
			pcg_free(fe->pcg);
			fe->pcg = NULL;
			return FRONTEND_EXPAND;
		}
	}
	if (upto >= FRONTEND_COMPILE && fe->net == NULL &&
	    (fe->net = mpnet_compile(fe->pcg)) == NULL)
		return FRONTEND_COMPILE;
	return 0;
}

void
frontend_free(struct frontend *fe)
{
	mpnet_free(fe->net);
	pcg_free(fe->pcg);
	ast_free(fe->ast);
	memset(fe, 0, sizeof(*fe));
}
