/* lazylib.h -- a shared library opened when it is first needed.
 *
 * The ensemble command links no library that not every command needs:
 * Graphviz (drawing: pcg/graphviz.h) and OTF2 (one trace export) are
 * opened on first use, so that 'ensemble verify' starts as a program
 * linked with libc alone does.  Loading them at start-up cost every run
 * about 1 ms, as much as SPIN's pan takes to check a small model. */
#ifndef ENS_LAZYLIB_H
#define ENS_LAZYLIB_H

struct lazylib {
	const char	*what;		/* what it is, for messages: "Graphviz" */
	const char	*soname;	/* what dlopen opens: "libgvc.so.6" */
	void		*handle;	/* NULL until opened */
};

/* The address of symbol name in lib (or in a library it depends on),
 * opening lib first.  If lib cannot be opened or lacks the symbol, says
 * so on stderr and exits with status 2. */
void *lazy_sym(struct lazylib *lib, const char *name);

#endif
