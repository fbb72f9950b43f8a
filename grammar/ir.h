/* ir.h -- the CPN intermediate representation of Krabbe's thesis
 * ("Modelling MPI Communication using Colored Petri Nets", 2023): one MPI
 * operation a line, `0x0001 MPI_Send(process=0, to=1, type='MPI_INT',
 * tag=0, next=0x0003)`.  ir_parse reads a file, checks it and resolves
 * every id, so the explorer (mpnet/irnet.c) takes it as it is. */
#ifndef ENS_IR_H
#define ENS_IR_H

#include <stdint.h>

#include "diag.h"

/* The operations, in the order of ir_kind_name's table. */
enum ir_kind {
	IR_INIT, IR_FINALIZE,
	IR_SEND, IR_BSEND, IR_SSEND, IR_RECV,
	IR_ISEND, IR_IBSEND, IR_ISSEND, IR_IRECV, IR_WAIT, IR_WAITALL,
	IR_BARRIER, IR_BCAST, IR_SCATTER, IR_GATHER, IR_REDUCE,
	IR_ALLGATHER, IR_ALLREDUCE,
	IR_NKINDS
};

/* The most processes, and non-blocking operations of one process. */
#define IR_MAX_PROCS	4096
#define IR_MAX_REQS	32
/* The most operations a file may hold. */
#define IR_MAX_OPS	65000

/* One operation (a line). */
struct ir_op {
	enum ir_kind	 kind;
	uint64_t	 id;
	int		 proc;		/* -1: MPI_Init and MPI_Finalize */
	int		 peer;		/* 'to' or 'from'; -1 none */
	int		 root;		/* rooted collectives; -1 none */
	int64_t		 tag;
	int		 type;		/* index in ir.types; -1 none */
	int		 next;		/* index in ir.ops; -1 none */
	int		 req;		/* MPI_Wait: the operation it waits for */
	int		 slot;		/* non-blocking: its request bit */
	struct loc	 loc;		/* the id */
	struct loc	 nameloc;	/* the operation's name */
	struct loc	 peerloc;	/* the values of 'to' or 'from', */
	struct loc	 rootloc;	/* 'root', */
	struct loc	 nextloc;	/* 'next' */
	struct loc	 reqloc;	/* and 'request' */
};

struct ir {
	const char	*file;		/* as named */
	struct ir_op	*ops;
	int		 nops;
	char		**types;	/* the distinct 'type' strings */
	int		 ntypes;
	int		 nprocs;	/* largest 'process' + 1 */
	int		*first;		/* per process: its first operation */
	int		 has_standard;	/* MPI_Send or MPI_Isend is used */
	int		 has_requests;	/* non-blocking operations are used */
};

/* Parse and check an IR file (the source is the diag's); NULL after
 * reporting every error found. */
struct ir *ir_parse(struct diag *, const struct source *);
void ir_free(struct ir *);
/* "MPI_Send". */
const char *ir_kind_name(enum ir_kind);
/* Whether the operation is a collective (MPI_Barrier ... MPI_Allreduce). */
int ir_is_coll(enum ir_kind);

#endif
