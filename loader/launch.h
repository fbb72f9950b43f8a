/* launch.h -- the side of 'ensemble run' that starts ensemble-loader under
 * mpirun and watches the run: it hands the loader the annotated graph,
 * passes the components' output through, reads the marker lines the loader
 * and libensemble write (runtime/wire.h) and Open MPI's own reports, and
 * says in one place which process failed, how, and what it said last. */
#ifndef ENS_LAUNCH_H
#define ENS_LAUNCH_H

#include "graph.h"

struct launch_opts {
	const char	*mpirun;	/* the MPI launcher */
	const char	*loader;	/* ensemble-loader */
	const char	*pythondir;	/* put first on the components'
					 * PYTHONPATH; NULL: none */
	const char	*hostfile;	/* NULL: every process on this machine */
	double		 timeout;	/* seconds; 0: none */
	int		 check_protocol;
	const char	*trace;		/* --trace: the file (absolute); NULL */
	int		 verbose;	/* show mpirun's own messages too */
	int		 stdin_proc;	/* --stdin: the process (script order)
					 * given our stdin; -1: none */
	int		 tag_output;	/* "NAME: " before each line of a process */
	const char	*output_dir;	/* non-NULL: each process's output to
					 * DIR/NAME.out and DIR/NAME.err */
	/* Given to mpirun as they are, before the loader: */
	const char	**mca;		/* --mca: KEY, VALUE, KEY, VALUE... */
	size_t		 nmca;		/* its length (twice the pairs) */
	const char	**xenv;		/* -x VAR or VAR=VALUE */
	size_t		 nxenv;
	const char	**rest;		/* arguments after '--' */
	size_t		 nrest;
};

/* The graph the loader reads (common/pcgdot.h): pcg_graph's, with each
 * process's 'rank' (script order), 'path' (paths[i], its executable,
 * absolute) and 'behaviour_at' (statement locations), and the graph's
 * 'params' ("N=4 rounds=3").  Caller closes it with agclose. */
Agraph_t *launch_graph(const struct pcg *, char *const *paths);

/* Start the loader with G and wait for the run: 0 every component
 * succeeded; 1 the run failed (reported); 3 --timeout stopped it; 2 it could
 * not be started (reported). */
int launch_run(const struct pcg *, Agraph_t *G, const struct launch_opts *);

#endif
