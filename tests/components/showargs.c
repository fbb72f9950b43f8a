/* showargs.c -- a component for tests/args.test that writes what it was
 * started with to the file 'showargs.out' in its working directory, each
 * item followed by a NUL byte, so that any byte can be compared: "cwd" and
 * its working directory, then "arg" and each argument, then "env" and
 * each environment entry whose name starts with ENS_T_ or OMPI_MCA_ens_t_
 * (an Open MPI parameter 'ens_t_...' given to 'ensemble run --mca'), in
 * byte order, then "param", the name and ens_param's value for each script
 * parameter named in SHOWARGS_PARAMS (names separated by spaces).  It has
 * no ports. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ensemble.h>

extern char **environ;

/* Order environment entries by their bytes. */
static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Write s and a NUL byte to f. */
static void
item(FILE *f, const char *s)
{
	fwrite(s, 1, strlen(s) + 1, f);
}

int
main(int argc, char **argv)
{
	char	  cwd[PATH_MAX], **env, *names, *w, *save = NULL;
	const char *v;
	FILE	 *f;
	size_t	  n = 0, i;

	ens_init(&argc, &argv);
	if (getcwd(cwd, sizeof(cwd)) == NULL || (f = fopen("showargs.out", "w")) == NULL) {
		perror("showargs");
		return 1;
	}
	item(f, "cwd");
	item(f, cwd);
	for (i = 1; i < (size_t)argc; i++) {
		item(f, "arg");
		item(f, argv[i]);
	}
	for (i = 0; environ[i] != NULL; i++)
		n++;
	env = calloc(n + 1, sizeof(*env));
	for (n = 0, i = 0; environ[i] != NULL; i++)
		if (strncmp(environ[i], "ENS_T_", 6) == 0 ||
		    strncmp(environ[i], "OMPI_MCA_ens_t_", 15) == 0)
			env[n++] = environ[i];
	qsort(env, n, sizeof(*env), cmp);
	for (i = 0; i < n; i++) {
		item(f, "env");
		item(f, env[i]);
	}
	free(env);
	if ((v = getenv("SHOWARGS_PARAMS")) != NULL) {
		if ((names = strdup(v)) == NULL) {
			perror("showargs");
			return 1;
		}
		for (w = strtok_r(names, " ", &save); w != NULL;
		    w = strtok_r(NULL, " ", &save)) {
			item(f, "param");
			item(f, w);
			v = ens_param(w);
			item(f, v != NULL ? v : "(none)");
		}
		free(names);
	}
	if (fclose(f) != 0) {
		perror("showargs");
		return 1;
	}
	ens_finalize();
	return 0;
}
