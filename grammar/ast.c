/* ast.c -- the arena that holds a script's syntax tree, and the name table
 * that interns identifiers so later passes compare pointers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "xmalloc.h"

struct symtab {
	const char	**slots;
	size_t		  cap;		/* a power of two */
	size_t		  count;
};

static uint64_t
hash_bytes(const char *s, size_t n)
{
	uint64_t	h = 1469598103934665603ULL;	/* FNV-1a */
	size_t		i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

struct ast *
ast_new(void)
{
	struct ast	*ast = xcalloc(1, sizeof(*ast));

	ast->lines = arena_new();
	ast->keep = arena_new();
	ast->cur = ast->lines;
	ast->syms = xcalloc(1, sizeof(*ast->syms));
	ast->syms->cap = 256;
	ast->syms->slots = xcalloc(ast->syms->cap, sizeof(char *));
	ast->tail = &ast->items;
	return ast;
}

void
ast_free(struct ast *ast)
{
	if (ast == NULL)
		return;
	free(ast->syms->slots);
	free(ast->syms);
	arena_free(ast->lines);
	arena_free(ast->keep);
	free(ast);
}

void *
ast_alloc(struct ast *ast, size_t n)
{
	return arena_alloc(ast->cur, n);
}

char *
ast_strdup(struct ast *ast, const char *s)
{
	return arena_strdup(ast->cur, s);
}

void
ast_release_lines(struct ast *ast)
{
	arena_free(ast->lines);
	ast->lines = arena_new();
	ast->cur = ast->lines;
	ast->items = NULL;
	ast->tail = &ast->items;
}

void
ast_append(struct ast *ast, struct item *it)
{
	*ast->tail = it;
	ast->tail = &it->next;
}

static void
symtab_grow(struct symtab *t)
{
	const char	**old = t->slots;
	size_t		  oldcap = t->cap, i;

	t->cap *= 2;
	t->slots = xcalloc(t->cap, sizeof(char *));
	for (i = 0; i < oldcap; i++) {
		size_t	j;

		if (old[i] == NULL)
			continue;
		j = hash_bytes(old[i], strlen(old[i])) & (t->cap - 1);
		while (t->slots[j] != NULL)
			j = (j + 1) & (t->cap - 1);
		t->slots[j] = old[i];
	}
	free(old);
}

const char *
ast_intern(struct ast *ast, const char *s, size_t n)
{
	struct symtab	*t = ast->syms;
	size_t		 j;

	if (2 * (t->count + 1) > t->cap)
		symtab_grow(t);
	j = hash_bytes(s, n) & (t->cap - 1);
	while (t->slots[j] != NULL) {
		if (strncmp(t->slots[j], s, n) == 0 && t->slots[j][n] == '\0')
			return t->slots[j];
		j = (j + 1) & (t->cap - 1);
	}
	t->slots[j] = arena_strndup(ast->keep, s, n);
	t->count++;
	return t->slots[j];
}
