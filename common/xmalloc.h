/* xmalloc.h -- allocation that aborts on out-of-memory, a growable string
 * buffer and a bump arena.  Callers never NULL-check these (HACKING.md, "Code"). */
#ifndef ENS_XMALLOC_H
#define ENS_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t);
void *xcalloc(size_t, size_t);
void *xrealloc(void *, size_t);
void *xreallocarray(void *, size_t, size_t);
char *xstrdup(const char *);
char *xstrndup(const char *, size_t);
int xasprintf(char **, const char *, ...) __attribute__((format(printf, 2, 3)));
int xvasprintf(char **, const char *, va_list) __attribute__((format(printf, 2, 0)));

/* Grow *array (of *alloc elements of size elt) to hold at least need. */
void xgrow_more(void *array, size_t *alloc, size_t need, size_t elt);
static inline void
xgrow(void *array, size_t *alloc, size_t need, size_t elt)
{
	if (need > *alloc)	/* (most calls: nothing to do, no call) */
		xgrow_more(array, alloc, need, elt);
}

/* A growable NUL-terminated byte string. */
struct buf {
	char	*s;
	size_t	 len;
	size_t	 alloc;
};

void buf_init(struct buf *);
void buf_free(struct buf *);
void buf_reset(struct buf *);
void buf_add(struct buf *, const char *, size_t);
void buf_adds(struct buf *, const char *);
void buf_addc(struct buf *, char);
void buf_printf(struct buf *, const char *, ...) __attribute__((format(printf, 2, 3)));
/* Append s as a script string literal: quotes, with \" \\ \n \t \$ escaped. */
void buf_add_quoted(struct buf *, const char *);
/* Hand the string to the caller (who frees it) and reset the buffer. */
char *buf_steal(struct buf *);

/* A bump allocator: objects are never freed one by one, only the whole
 * arena (HACKING.md, "Code"). */
struct arena;
struct arena *arena_new(void);
void arena_free(struct arena *);
void *arena_alloc(struct arena *, size_t);	/* zeroed, 16-byte aligned */
char *arena_strdup(struct arena *, const char *);
char *arena_asprintf(struct arena *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_strndup(struct arena *, const char *, size_t);

#endif
