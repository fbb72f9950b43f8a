/* ensemble.h -- libensemble, the library an ensemble component links: its
 * port interface, set by 'ensemble run' from the script, and communication
 * through it.  A component names ports by type and 1-based index as the
 * script does ("Prop", 1) and never knows ranks, tags or the topology.
 *
 *	#include <ensemble.h>		cc $(pkg-config --cflags --libs ensemble)
 *
 *	ens_init(&argc, &argv);
 *	for (i = 1; i <= ens_ports("Client"); i++)
 *		ens_recv("Client", i, &v, 1, MPI_INT);
 *	ens_finalize();
 *
 * Every call checks its arguments.  Misuse (an unknown port type, an index
 * out of range, a call before ens_init or after ens_finalize) and MPI errors
 * stop the application with a message naming the process and the call,
 * which 'ensemble run' reports; they never return an error code.  See
 * libensemble(3). */
#ifndef ENSEMBLE_H
#define ENSEMBLE_H

#include <stddef.h>

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A port as MPI sees it, for code that calls MPI directly: send to 'rank'
 * in 'comm' with 'tag', receive from it with 'recv_tag' (the same tag, but
 * on a channel from a process to itself, whose two directions differ).  The communicator holds every
 * process of the application (it is a duplicate of MPI_COMM_WORLD, so the
 * component's own MPI_COMM_WORLD traffic never meets port traffic). */
typedef struct {
	MPI_Comm	comm;
	int		rank;
	int		tag;
	int		recv_tag;
} ens_port_t;

/* Who this process is. */
typedef struct {
	const char	*name;		/* as in the script: "relay[2]", "master" */
	const char	*component;	/* "relay" */
	int		 index;		/* 2; 0 for an unindexed process */
	int		 rank;		/* in the application, 0-based, script order */
	int		 nprocs;	/* processes in the application */
	int		 indexed;	/* 1 when it has an index ("a[0]" too),
					   0 for an unindexed process */
} ens_self_t;

/* MPI_Init, then receive this process's port table ('ensemble run' made
 * every process's; collective over MPI_COMM_WORLD).  A program not
 * started by 'ensemble run' is told so and exits. */
void		 ens_init(int *argc, char ***argv);
/* Write this process's part of the trace (--trace), then MPI_Finalize. */
void		 ens_finalize(void);

/* Number of ports of a type; 0 for a type the process has none of (the
 * type must be one of the component's). */
int		 ens_ports(const char *type);
const ens_self_t *ens_self(void);
ens_port_t	 ens_port(const char *type, int index);

/* A script parameter's value ("rounds" -> "10"), or the process's k-th
 * argument from the script's 'args' when name is "1", "2", ...; NULL when
 * there is none. */
const char	*ens_param(const char *name);

/* A communicator of the processes of this process's component, ranked by
 * index (rank 0 the lowest), made in ens_init: for MPI inside a component
 * (a parallel solver).  Its traffic never meets port traffic; do not free
 * it.  Valid until ens_finalize. */
MPI_Comm	 ens_comm_component(void);

/* The communicator of a group of the script this process is in: a group
 * its Groups section declares, or a component (its name, every process
 * of it), named as the script names it: ("rows", 2) for rows[2], index 0
 * for a group without one ("workers", 0).  Ranks in the group's order
 * (its members as the script lists them; a component's by index); made in
 * ens_init; do not free it.  A group the process is not in stops the
 * application with both names. */
MPI_Comm	 ens_comm_group(const char *name, int index);

/* Point to point on one port: standard, synchronous and buffered sends
 * (ens_bsend attaches and grows a buffer as needed). */
void		 ens_send(const char *type, int index, const void *buf, int count,
		    MPI_Datatype);
void		 ens_ssend(const char *type, int index, const void *buf, int count,
		    MPI_Datatype);
void		 ens_bsend(const char *type, int index, const void *buf, int count,
		    MPI_Datatype);
void		 ens_recv(const char *type, int index, void *buf, int count,
		    MPI_Datatype);
/* Receive from whichever port of the type has a message (type NULL: any
 * port); returns that port's index. */
int		 ens_recv_any(const char *type, void *buf, int count, MPI_Datatype);

/* The same receives, filling an MPI_Status (NULL or MPI_STATUS_IGNORE:
 * none): MPI_Get_count says how much came, ens_port_of by which port. */
void		 ens_recv_status(const char *type, int index, void *buf, int count,
		    MPI_Datatype, MPI_Status *);
int		 ens_recv_any_status(const char *type, void *buf, int count,
		    MPI_Datatype, MPI_Status *);

/* Non-blocking, in MPI's standard, synchronous and buffered modes, and a
 * receive from any port (type NULL; or a type that holds every connected
 * port of the process); complete the requests with ens_waitall, or with
 * ens_waitall_status, which fills one status per request (NULL or
 * MPI_STATUSES_IGNORE: none). */
void		 ens_isend(const char *type, int index, const void *buf, int count,
		    MPI_Datatype, MPI_Request *);
void		 ens_issend(const char *type, int index, const void *buf, int count,
		    MPI_Datatype, MPI_Request *);
void		 ens_ibsend(const char *type, int index, const void *buf, int count,
		    MPI_Datatype, MPI_Request *);
void		 ens_irecv(const char *type, int index, void *buf, int count,
		    MPI_Datatype, MPI_Request *);
void		 ens_irecv_any(const char *type, void *buf, int count, MPI_Datatype,
		    MPI_Request *);
void		 ens_waitall(int n, MPI_Request *);
void		 ens_waitall_status(int n, MPI_Request *, MPI_Status *);

/* Send on one port and receive on another at once (MPI_Sendrecv), or in
 * one buffer (MPI_Sendrecv_replace); the status (NULL or
 * MPI_STATUS_IGNORE: none) is the receive's. */
void		 ens_sendrecv(const char *stype, int sindex, const void *sbuf,
		    int scount, MPI_Datatype, const char *rtype, int rindex,
		    void *rbuf, int rcount, MPI_Datatype, MPI_Status *);
void		 ens_sendrecv_replace(const char *stype, int sindex,
		    const char *rtype, int rindex, void *buf, int count,
		    MPI_Datatype, MPI_Status *);

/* Complete one request (ens_wait); ens_test completes it if it can and
 * returns 1, else 0; ens_waitany completes one of n and returns its index
 * (0-based; MPI_UNDEFINED when none is pending); ens_waitsome completes
 * every one it can, at least one, and returns how many (their indices in
 * indices, their statuses in statuses; MPI_UNDEFINED when none is
 * pending).  A status NULL or MPI_STATUS_IGNORE (MPI_STATUSES_IGNORE):
 * none. */
void		 ens_wait(MPI_Request *, MPI_Status *);
int		 ens_test(MPI_Request *, MPI_Status *);
int		 ens_waitany(int n, MPI_Request *, MPI_Status *);
int		 ens_waitsome(int n, MPI_Request *, int *indices,
		    MPI_Status *statuses);

/* Wait until a message can be received on a port (ens_probe) or on any
 * port of a type (NULL: any port; ens_probe_any returns its index)
 * without receiving it; its status says its size.  ens_iprobe and
 * ens_iprobe_any do not wait: 1 when there is one (*port its index), 0
 * when not. */
void		 ens_probe(const char *type, int index, MPI_Status *);
int		 ens_probe_any(const char *type, MPI_Status *);
int		 ens_iprobe(const char *type, int index, MPI_Status *);
int		 ens_iprobe_any(const char *type, int *port, MPI_Status *);

/* The port a received message came by: its index (1-based), and its type
 * in *type (borrowed, until ens_finalize) unless type is NULL; 0 and *type
 * NULL for a status of no port's message (a send's). */
int		 ens_port_of(const MPI_Status *, const char **type);

/* Collectives over every process of the application.  A root is a
 * process's name as in the script: "master", "relay[1]". */
void		 ens_barrier(void);
void		 ens_bcast(void *buf, int count, MPI_Datatype, const char *root);
void		 ens_reduce(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype, MPI_Op, const char *root);
void		 ens_allreduce(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype, MPI_Op);
void		 ens_gather(const void *sendbuf, int sendcount, MPI_Datatype,
		    void *recvbuf, int recvcount, MPI_Datatype, const char *root);
void		 ens_allgather(const void *sendbuf, int sendcount, MPI_Datatype,
		    void *recvbuf, int recvcount, MPI_Datatype);
void		 ens_scatter(const void *sendbuf, int sendcount, MPI_Datatype,
		    void *recvbuf, int recvcount, MPI_Datatype, const char *root);
void		 ens_alltoall(const void *sendbuf, int sendcount, MPI_Datatype,
		    void *recvbuf, int recvcount, MPI_Datatype);
/* Their v-forms: counts and displacements per process, in rank order. */
void		 ens_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype,
		    void *recvbuf, const int *recvcounts, const int *displs,
		    MPI_Datatype);
void		 ens_gatherv(const void *sendbuf, int sendcount, MPI_Datatype,
		    void *recvbuf, const int *recvcounts, const int *displs,
		    MPI_Datatype, const char *root);
void		 ens_scatterv(const void *sendbuf, const int *sendcounts,
		    const int *displs, MPI_Datatype, void *recvbuf, int recvcount,
		    MPI_Datatype, const char *root);
void		 ens_alltoallv(const void *sendbuf, const int *sendcounts,
		    const int *sdispls, MPI_Datatype, void *recvbuf,
		    const int *recvcounts, const int *rdispls, MPI_Datatype);
void		 ens_reduce_scatter(const void *sendbuf, void *recvbuf,
		    const int *recvcounts, MPI_Datatype, MPI_Op);

/* The same collectives over a group of the script ('over rows[2]'), the
 * group last as the script writes it: ("rows", 2), ("workers", 0).  The
 * root must be in the group; counts and displacements are per member, in
 * the group's rank order (ens_comm_group).  A group the process is not in
 * stops the application with the group's name and the process's. */
void		 ens_barrier_over(const char *group, int index);
void		 ens_bcast_over(void *buf, int count, MPI_Datatype,
		    const char *root, const char *group, int index);
void		 ens_reduce_over(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype, MPI_Op, const char *root, const char *group,
		    int index);
void		 ens_allreduce_over(const void *sendbuf, void *recvbuf,
		    int count, MPI_Datatype, MPI_Op, const char *group, int index);
void		 ens_gather_over(const void *sendbuf, int sendcount,
		    MPI_Datatype, void *recvbuf, int recvcount, MPI_Datatype,
		    const char *root, const char *group, int index);
void		 ens_allgather_over(const void *sendbuf, int sendcount,
		    MPI_Datatype, void *recvbuf, int recvcount, MPI_Datatype,
		    const char *group, int index);
void		 ens_scatter_over(const void *sendbuf, int sendcount,
		    MPI_Datatype, void *recvbuf, int recvcount, MPI_Datatype,
		    const char *root, const char *group, int index);
void		 ens_alltoall_over(const void *sendbuf, int sendcount,
		    MPI_Datatype, void *recvbuf, int recvcount, MPI_Datatype,
		    const char *group, int index);
void		 ens_allgatherv_over(const void *sendbuf, int sendcount,
		    MPI_Datatype, void *recvbuf, const int *recvcounts,
		    const int *displs, MPI_Datatype, const char *group, int index);
void		 ens_gatherv_over(const void *sendbuf, int sendcount,
		    MPI_Datatype, void *recvbuf, const int *recvcounts,
		    const int *displs, MPI_Datatype, const char *root,
		    const char *group, int index);
void		 ens_scatterv_over(const void *sendbuf, const int *sendcounts,
		    const int *displs, MPI_Datatype, void *recvbuf, int recvcount,
		    MPI_Datatype, const char *root, const char *group, int index);
void		 ens_alltoallv_over(const void *sendbuf, const int *sendcounts,
		    const int *sdispls, MPI_Datatype, void *recvbuf,
		    const int *recvcounts, const int *rdispls, MPI_Datatype,
		    const char *group, int index);
void		 ens_reduce_scatter_over(const void *sendbuf, void *recvbuf,
		    const int *recvcounts, MPI_Datatype, MPI_Op, const char *group,
		    int index);

/* ens_launch: from a running MPI program (between MPI_Init and
 * MPI_Finalize, under Open MPI's mpirun), verify and run the application
 * of 'script' as 'ensemble run --launcher spawn script options...' would,
 * its processes started with MPI_Comm_spawn_multiple inside the caller's
 * job (on a duplicate of MPI_COMM_SELF), and wait for it.  options: the
 * arguments of 'ensemble run' after the script, ending with NULL (NULL:
 * none).  *status: ensemble run's exit status (0 every process
 * succeeded; 1 the run failed; 2 refused; 3 --timeout; 4 a deadlock).
 * report: the last size - 1 bytes of what it wrote on its standard error
 * (the summary, a failure's report, the processes' standard error), with
 * a NUL; the processes' standard output is the caller's.  Returns ENS_OK,
 * or an ENS_ERR_* code (the report says why).  See libensemble(3). */
#define ENS_OK			0
#define ENS_ERR_ARG		1	/* no script, no status */
#define ENS_ERR_NOT_MPI		2	/* MPI not initialized, or finalized */
#define ENS_ERR_NO_SPAWN	3	/* no MPI_Comm_spawn here: MPICH, or
					   started by srun */
#define ENS_ERR_START		4	/* 'ensemble run' cannot be started */
#define ENS_ERR_SPAWN		5	/* MPI_Comm_spawn_multiple failed */
int		 ens_launch(const char *script, const char *const *options,
		    int *status, char *report, size_t size);
const char	*ens_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
