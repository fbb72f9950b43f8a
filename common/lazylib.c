/* lazylib.c -- a shared library opened when it is first needed. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazylib.h"

void *
lazy_sym(struct lazylib *lib, const char *name)
{
	void	*p;

	if (lib->handle == NULL &&
	    (lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		fprintf(stderr, "ensemble: cannot open %s (%s): %s\n", lib->what,
		    lib->soname, dlerror());
		exit(2);
	}
	dlerror();
	if ((p = dlsym(lib->handle, name)) == NULL) {
		fprintf(stderr, "ensemble: %s (%s) has no '%s'\n", lib->what,
		    lib->soname, name);
		exit(2);
	}
	return p;
}
