/* code.c -- the nodes of a component's program as the inference reads it
 * (code.h). */
#include "config.h"

#include <string.h>

#include "code.h"
#include "xmalloc.h"

struct cnode *
code_node(struct cprog *p, enum cnode_kind k, const struct cloc *l)
{
	struct cnode	*n = arena_alloc(p->arena, sizeof(*n));

	n->k = k;
	if (l != NULL)
		n->loc = *l;
	return n;
}

struct cfunc *
code_func(const struct cprog *p, const char *key)
{
	struct cfunc	*f;

	if (key == NULL)
		return NULL;
	for (f = p->funcs; f != NULL; f = f->next)
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

void
code_append(struct cnode **head, struct cnode *n)
{
	while (*head != NULL)
		head = &(*head)->next;
	*head = n;
}

const char *
code_str(struct cprog *p, const char *s, size_t n)
{
	return arena_strndup(p->arena, s, n);
}
