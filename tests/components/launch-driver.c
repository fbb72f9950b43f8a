/* launch-driver.c -- a workflow driver for launch-api.test: an MPI
 * program that starts applications with ens_launch one after another,
 * each line of FILE one launch ("SCRIPT OPTION..."), and prints what
 * each returned:
 *
 *	launch-driver FILE		(under mpirun -np 1)
 *	launch-driver --before		ens_launch before MPI_Init
 *	launch-driver --after		... and after MPI_Finalize
 *
 * For each launch: "launch K: CODE (ens_strerror), status S", then the
 * report's lines, each after "| "; with LAUNCH_DRIVER_TIME set (for
 * bench/launch.sh), "seconds T" first: the wall time of the call. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ensemble.h>

#include "asan.h"	/* it calls MPI_Init itself: Open MPI's leaks are not ours */

static void
show(int k, int rc, int status, const char *report)
{
	const char	*p, *nl;

	printf("launch %d: %d (%s), status %d\n", k, rc, ens_strerror(rc),
	    status);
	for (p = report; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		printf("| %.*s\n", (int)(nl - p), p);
		if (*nl == '\0')
			break;
	}
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	static char	 report[65536];
	char		 line[4096], *opt[64], *s;
	struct timespec	 t0, t1;
	FILE		*f;
	int		 k = 0, n, rc, status;

	if (argc == 2 && strcmp(argv[1], "--before") == 0) {
		rc = ens_launch("x.pcg", NULL, &status, report, sizeof(report));
		show(0, rc, status, report);
		return 0;
	}
	MPI_Init(&argc, &argv);
	if (argc == 2 && strcmp(argv[1], "--after") == 0) {
		MPI_Finalize();
		rc = ens_launch("x.pcg", NULL, &status, report, sizeof(report));
		show(0, rc, status, report);
		return 0;
	}
	if (argc != 2 || (f = fopen(argv[1], "r")) == NULL) {
		fprintf(stderr, "usage: launch-driver FILE\n");
		MPI_Finalize();
		return 2;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		n = 0;
		for (s = strtok(line, " "); s != NULL && n < 63;
		    s = strtok(NULL, " "))
			opt[n++] = s;
		if (n == 0)
			continue;
		opt[n] = NULL;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = ens_launch(opt[0], (const char *const *)opt + 1, &status,
		    report, sizeof(report));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (getenv("LAUNCH_DRIVER_TIME") != NULL)
			printf("seconds %.6f\n", (double)(t1.tv_sec - t0.tv_sec) +
			    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
		show(++k, rc, status, report);
	}
	fclose(f);
	MPI_Finalize();
	return 0;
}
