/* plan.h -- what 'ensemble run' hands Open MPI and the processes, made
 * from the expanded script: the appfile that starts every process through
 * ensemble-exec, and the bundle of their port tables (runtime/wire.h).
 * This is the loader's work in the methodology's terms: MakePorts (each
 * process placed, with its executable, arguments and environment) and
 * SetInterface (each one's ports: peer ranks and tags). */
#ifndef ENS_PLAN_H
#define ENS_PLAN_H

#include "alloc.h"
#include "pcg.h"
#include "wire.h"

/* How the launcher's appfile says a line's host and environment entry:
 * Open MPI's "--host H" and "-x NAME=VALUE", MPICH's configfile's "-host
 * H" and "-env NAME VALUE" (each option ends in a space). */
struct plan_syntax {
	const char	 *host;		/* "--host " */
	const char	 *env;		/* "-x " */
	const char	 *env_sep;	/* "=": between NAME and VALUE */
	int		  plan;		/* a line is the trampoline's tokens
					 * alone, which every process's
					 * 'ensemble-exec --plan FILE' reads
					 * at its rank (wire.h): no host, the
					 * secrets in the launcher's
					 * environment */
};

/* A plan read at each process's rank (mpiexec's, srun's): its lines the
 * tokens alone. */
extern const struct plan_syntax plan_by_rank;

struct plan_opts {
	const struct plan_syntax *syntax;	/* NULL: Open MPI's */
	const char	 *exec;		/* ensemble-exec, an absolute path */
	char *const	 *paths;	/* each process's executable, absolute */
	int		  root;		/* the process that holds the tables */
	const char	 *tables_file;	/* where root's trampoline finds them
					 * (--tables-file); NULL: on its
					 * standard input (--tables) */
	int		  stdin_proc;	/* given our stdin on the launcher's,
					 * after the tables (--stdin); -1:
					 * none */
	const char	 *stdin_net;	/* where the processes given our stdin
					 * over the network connect for it
					 * (--stdin-net, fan.h); NULL: none */
	int		  stdin_net_proc;	/* ... the one that does; -1:
					 * every one (--stdin all) */
	const char	 *stdin_key;	/* ... and the key of its handshake */
	const char	 *relay;	/* the run's secret: the trampolines
					 * relay the output; NULL: not */
	const char	 *watch;	/* the deadlock watch's token (every
					 * process's --watch); NULL: none */
	int		  flags;	/* WIRE_CHECK_PROTOCOL, WIRE_TRACE */
	const char	 *origin;	/* WIRE_TRACE: "S.N" */
	const char	 *tracedir;	/* WIRE_TRACE: where the parts go */
	const struct alloc *alloc;	/* the slots the processes may use */
	const struct alloc_host *const *placed;	/* per process, its host in
					 * alloc; NULL: not placed, or alloc
					 * is this machine alone */
	int		  nplaced;	/* processes placed on a host */
};

/* Write the appfile to path (a new file only the user can read: it
 * holds the run's secrets) and the bundle to *bundle (empty before).  0,
 * or -1 and *cause (caller frees) when a process cannot be started so:
 * a host name or ensemble-exec's path Open MPI's appfile cannot hold, a
 * line too long for it, an index or tag out of range, a file that cannot
 * be written. */
int plan_make(const struct pcg *, const struct plan_opts *, const char *path,
    struct wire_buf *bundle, char **cause);

#endif
