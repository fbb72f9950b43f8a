/* xmalloc.c -- allocation helpers that never return NULL, string buffers and
 * arenas shared by every module. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "xmalloc.h"

static void __attribute__((noreturn))
oom(size_t n)
{
	fprintf(stderr, "ensemble: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void	*p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		oom(nmemb * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		oom(n);
	return p;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	size_t	n;

	if (__builtin_mul_overflow(nmemb, size, &n))
		oom(SIZE_MAX);
	return xrealloc(p, n);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int
xvasprintf(char **ret, const char *fmt, va_list ap)
{
	int	n = vasprintf(ret, fmt, ap);

	if (n < 0)
		oom(0);
	return n;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = xvasprintf(ret, fmt, ap);
	va_end(ap);
	return n;
}

void
xgrow_more(void *array, size_t *alloc, size_t need, size_t elt)
{
	void	**a = array;
	size_t	  n = *alloc ? *alloc : 8;

	if (need <= *alloc)
		return;
	while (n < need)
		n *= 2;
	*a = xreallocarray(*a, n, elt);
	*alloc = n;
}

void
buf_init(struct buf *b)
{
	b->s = NULL;
	b->len = b->alloc = 0;
}

void
buf_free(struct buf *b)
{
	free(b->s);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

void
buf_add(struct buf *b, const char *s, size_t n)
{
	xgrow(&b->s, &b->alloc, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	xgrow(&b->s, &b->alloc, b->len + n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

void
buf_add_quoted(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '"':  buf_adds(b, "\\\""); break;
		case '\\': buf_adds(b, "\\\\"); break;
		case '\n': buf_adds(b, "\\n"); break;
		case '\t': buf_adds(b, "\\t"); break;
		case '$':  buf_adds(b, "\\$"); break;
		default:   buf_addc(b, *s); break;
		}
	}
	buf_addc(b, '"');
}

char *
buf_steal(struct buf *b)
{
	char	*s = b->s != NULL ? b->s : xstrdup("");

	buf_init(b);
	return s;
}

/* Arena memory comes from mmap, zeroed by the kernel, and is never reused,
 * so nothing needs clearing.  A new arena's chunks start at 64 KiB and
 * double up to 2 MiB; from then on they are 2 MiB-aligned and the kernel
 * may back them with huge pages: a 100,000-process script touches hundreds
 * of MB, and page faults were most of its time.  Starting small matters to
 * the many runs that touch a few KB: a huge page is zeroed whole on its
 * first touch (2 MiB, a third of a small 'verify' when every arena began
 * with one). */
#define ARENA_FIRST	((size_t)64 << 10)
#define ARENA_ALIGN	((size_t)2 << 20)

struct chunk {
	struct chunk	*next;
	size_t		 used;
	size_t		 size;		/* of the mapping, this header included */
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct chunk	*head;
	size_t		 next;		/* the size of the next chunk */
};

struct arena *
arena_new(void)
{
	struct arena	*a = xcalloc(1, sizeof(struct arena));

	a->next = ARENA_FIRST;
	return a;
}

void
arena_free(struct arena *a)
{
	struct chunk	*c, *next;

	if (a == NULL)
		return;
	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		munmap(c, c->size);
	}
	free(a);
}

/* A mapping of size bytes: below ARENA_ALIGN a plain one (whole pages);
 * else a multiple of ARENA_ALIGN that starts on an ARENA_ALIGN boundary,
 * offered to the kernel for huge pages. */
static void *
map_chunk(size_t size)
{
	unsigned char	*p, *start;
	size_t		 head;

	if (size < ARENA_ALIGN) {
		if ((p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
			oom(size);
		return p;
	}
	p = mmap(NULL, size + ARENA_ALIGN, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		oom(size);
	start = (unsigned char *)(((uintptr_t)p + ARENA_ALIGN - 1) & ~(uintptr_t)(ARENA_ALIGN - 1));
	head = start - p;
	if (head > 0)
		munmap(p, head);
	if (ARENA_ALIGN - head > 0)
		munmap(start + size, ARENA_ALIGN - head);
#ifdef MADV_HUGEPAGE
	madvise(start, size, MADV_HUGEPAGE);
#endif
	return start;
}

void *
arena_alloc(struct arena *a, size_t n)
{
	struct chunk	*c = a->head;
	void		*p;

	n = (n + 15) & ~(size_t)15;
	if (c == NULL || c->size - sizeof(*c) - c->used < n) {
		size_t	size = sizeof(*c) + n;

		if (size <= a->next)
			size = a->next;
		else if (size < ARENA_ALIGN)
			size = (size + 4095) & ~(size_t)4095;
		else
			size = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
		c = map_chunk(size);
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
		if (a->next < ARENA_ALIGN)
			a->next *= 2;
	}
	p = c->data + c->used;
	c->used += n;
	return p;
}

char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char	*p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *
arena_asprintf(struct arena *a, const char *fmt, ...)
{
	va_list	 ap;
	char	*t, *r;

	va_start(ap, fmt);
	(void)xvasprintf(&t, fmt, ap);
	va_end(ap);
	r = arena_strdup(a, t);
	free(t);
	return r;
}
