/* pd_cycle in synchronous mode: the MP net 'ensemble verify --exact' explores,
 * written by 'ensemble net' for SPIN.
 *
 * Run: spin -a model.pml && cc -O2 -DSAFETY -o pan pan.c &&
 *      ./pan -m1000000 -e -c0
 * 'errors: 0': verified, as ensemble verify would say in this mode.
 * Otherwise each error is 'assertion violated !(found_KIND)', KIND
 * one of ensemble's violations: collective_mismatch, deadlock,
 * orphan_receive, unmatched_send, unwaited_request (the worst first:
 * ensemble verify reports the worst one it finds), or channel_full
 * (a channel without a bound outgrew the model's: incomplete).
 * spin -t -p model.pml replays the trail to the state judged.
 *
 * This net may run for ever, and only one of its parts (processes
 * joined by channels) loops for ever.  Each process is a proctype
 * whose labels are the places it can rest at, each a choice of
 * atomic steps, one per transition of its group in the net, that
 * read and write only the process's own variables (pcP: where
 * process P is, vK: its loop counters and requests, declared
 * 'local') and the channels it alone sends on (xs) or receives
 * from (xr), so SPIN's partial-order reduction may run one process
 * alone.  cD holds the messages of a channel direction; a
 * synchronous send puts a marker (1) there and waits for the
 * receiver's answer on aD.  Every label is an end label.  The
 * proctype judge judges every state (a process stuck while others
 * go on for ever is a violation, though that state is no end
 * state), with the rules of ensemble(1) VERIFICATION, in one d_step
 * on hidden variables that changes nothing: it judges the net's
 * state this state stands for (a sender whose marker was taken has
 * gone on).  What it finds stays true in every later state, so it
 * need judge only the states SPIN expands fully, which is where it
 * runs (its step writes hidden globals); XUSAFE keeps pan from
 * taking its reads for an xr or xs breach.
 */

c_decl {
\#define XUSAFE
}

/* Set by the judge for pan's message: assertion violated
 * !(found_deadlock) */
hidden byte found_unwaited_request, found_unmatched_send, found_orphan_receive, found_deadlock, found_collective_mismatch, found_channel_full;

local byte pc0 = 1;	/* a */
local byte pc1 = 1;	/* b */
local byte pc2 = 0;	/* c */
local byte pc3 = 0;	/* d */
chan c0 = [1] of { bit };	/* a.P[1]->b.P[1]: its synchronous sends' markers */
chan a0 = [1] of { bit };	/* the receiver's answer to the marker */
chan c1 = [1] of { bit };	/* b.P[1]->a.P[1]: its synchronous sends' markers */
chan a1 = [1] of { bit };	/* the receiver's answer to the marker */
chan c2 = [1] of { bit };	/* c.P[1]->d.P[1]: its synchronous sends' markers */
chan a2 = [1] of { bit };	/* the receiver's answer to the marker */
chan c3 = [1] of { bit };	/* d.P[1]->c.P[1]: its synchronous sends' markers */
chan a3 = [1] of { bit };	/* the receiver's answer to the marker */

/* a */
active proctype p0()
{
	xs c0;
	xr a0;
	xr c1;
	xs a1;
end1:
	if
	:: c0!1 -> goto end1w
	fi;
end1w:
	if
	:: atomic { nempty(a0) -> a0?_; pc0 = 2 }; goto end2
	fi;
end2:
	if
	:: atomic { nempty(c1) -> c1?1; a1!0; pc0 = 1 }; goto end1
	fi;
}

/* b */
active proctype p1()
{
	xr c0;
	xs a0;
	xs c1;
	xr a1;
end1:
	if
	:: atomic { nempty(c0) -> c0?1; a0!0; pc1 = 2 }; goto end2
	fi;
end2:
	if
	:: c1!1 -> goto end2w
	fi;
end2w:
	if
	:: atomic { nempty(a1) -> a1?_; pc1 = 1 }; goto end1
	fi;
}

/* c */
active proctype p2()
{
	xs c2;
	xr a2;
	xr c3;
	xs a3;
end0:
	if
	:: atomic { nempty(c3) -> c3?1; a3!0; pc2 = 1 }; goto end1
	fi;
end1:
	if
	:: c2!1 -> goto end1w
	fi;
end1w:
	if
	:: atomic { nempty(a2) -> a2?_; pc2 = 2 }; goto end2
	fi;
end2:
	false;
}

/* d */
active proctype p3()
{
	xr c2;
	xs a2;
	xs c3;
	xr a3;
end0:
	if
	:: atomic { nempty(c2) -> c2?1; a2!0; pc3 = 1 }; goto end1
	fi;
end1:
	if
	:: c3!1 -> goto end1w
	fi;
end1w:
	if
	:: atomic { nempty(a3) -> a3?_; pc3 = 2 }; goto end2
	fi;
end2:
	false;
}

/* The judge's scratch, out of the state vector: per process
 * ended (and none of its requests can match), runs (a step of its
 * group can fire), blocked, stuck, in the
 * cycle search. */
hidden byte E[4], R[4], B[4], S[4], A[4];
hidden byte kind, nroots, sends, changed, rooted, idle;
hidden int hpc0;
hidden int hpc1;
hidden int hpc2;
hidden int hpc3;

/* The judge: in every state, the verdict of ensemble verify
 * on the net's state it stands for (a sender whose receiver
 * took its marker has gone on there). */
active proctype judge()
{
end:
	do
	:: d_step {
		hpc0 = pc0;
		if
		:: len(a0) > 0 && pc0 == 1 -> pc0 = 2
		:: else -> skip
		fi;
		hpc1 = pc1;
		if
		:: len(a1) > 0 && pc1 == 2 -> pc1 = 1
		:: else -> skip
		fi;
		hpc2 = pc2;
		if
		:: len(a2) > 0 && pc2 == 1 -> pc2 = 2
		:: else -> skip
		fi;
		hpc3 = pc3;
		if
		:: len(a3) > 0 && pc3 == 1 -> pc3 = 2
		:: else -> skip
		fi;
		kind = 0; nroots = 0; sends = 0; idle = 0;
		E[0] = (0);
		R[0] = (0 || (1 && pc0 == 2 && pc1 == 2));
		E[0] = E[0] && !R[0];
		B[0] = !E[0] && !R[0];
		idle = idle || !R[0];
		E[1] = (0);
		R[1] = (0 || (1 && pc0 == 1 && pc1 == 1));
		E[1] = E[1] && !R[1];
		B[1] = !E[1] && !R[1];
		idle = idle || !R[1];
		E[2] = (0 || pc2 == 2);
		R[2] = (0 || (1 && pc2 == 0 && pc3 == 1));
		E[2] = E[2] && !R[2];
		B[2] = !E[2] && !R[2];
		idle = idle || !R[2];
		E[3] = (0 || pc3 == 2);
		R[3] = (0 || (1 && pc2 == 1 && pc3 == 0));
		E[3] = E[3] && !R[3];
		B[3] = !E[3] && !R[3];
		idle = idle || !R[3];
		/* judged when some process is idle, unless a collective
		 * all take can fire */
		if :: !idle || (0) -> skip
		:: else ->
		/* lasting: ended with requests pending, messages to an ended
		 * process, an open collective an ended process did not leave */
		/* the stuck processes: blocked, and none that runs can give
		 * what they need; then none that is not stuck can */
		S[0] = B[0] && !(0 || (pc0 == 1 && (0 || (1 && R[1] && (!E[1] && (0 || pc1 == 1 || pc1 == 2))))) || (pc0 == 2 && (0 || (1 && R[1] && (!E[1] && (0 || pc1 == 1 || pc1 == 2))))));
		S[1] = B[1] && !(0 || (pc1 == 1 && (0 || (1 && R[0] && (!E[0] && (0 || pc0 == 1 || pc0 == 2))))) || (pc1 == 2 && (0 || (1 && R[0] && (!E[0] && (0 || pc0 == 1 || pc0 == 2))))));
		S[2] = B[2] && !(0 || (pc2 == 0 && (0 || (1 && R[3] && (!E[3] && (0 || pc3 == 0 || pc3 == 1))))) || (pc2 == 1 && (0 || (1 && R[3] && (!E[3] && (0 || pc3 == 0))))));
		S[3] = B[3] && !(0 || (pc3 == 0 && (0 || (1 && R[2] && (!E[2] && (0 || pc2 == 0 || pc2 == 1))))) || (pc3 == 1 && (0 || (1 && R[2] && (!E[2] && (0 || pc2 == 0))))));
		do
		:: changed = 0;
			if :: S[0] && (0 || (pc0 == 1 && (0 || (1 && !S[1] && (!E[1] && (0 || pc1 == 1 || pc1 == 2))))) || (pc0 == 2 && (0 || (1 && !S[1] && (!E[1] && (0 || pc1 == 1 || pc1 == 2)))))) -> S[0] = 0; changed = 1
			:: else -> skip fi;
			if :: S[1] && (0 || (pc1 == 1 && (0 || (1 && !S[0] && (!E[0] && (0 || pc0 == 1 || pc0 == 2))))) || (pc1 == 2 && (0 || (1 && !S[0] && (!E[0] && (0 || pc0 == 1 || pc0 == 2)))))) -> S[1] = 0; changed = 1
			:: else -> skip fi;
			if :: S[2] && (0 || (pc2 == 0 && (0 || (1 && !S[3] && (!E[3] && (0 || pc3 == 0 || pc3 == 1))))) || (pc2 == 1 && (0 || (1 && !S[3] && (!E[3] && (0 || pc3 == 0)))))) -> S[2] = 0; changed = 1
			:: else -> skip fi;
			if :: S[3] && (0 || (pc3 == 0 && (0 || (1 && !S[2] && (!E[2] && (0 || pc2 == 0 || pc2 == 1))))) || (pc3 == 1 && (0 || (1 && !S[2] && (!E[2] && (0 || pc2 == 0)))))) -> S[3] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 || !(0 || S[0] || S[1] || S[2] || S[3]) -> skip
		:: else ->
		/* stuck processes at collectives that cannot happen */
		/* a cycle of waits among the stuck processes: take out
		 * those that wait for none left, until none goes */
		A[0] = S[0];
		A[1] = S[1];
		A[2] = S[2];
		A[3] = S[3];
		do
		:: changed = 0;
			if :: A[0] && !(0 || (pc0 == 1 && (0 || (1 && A[1]))) || (pc0 == 2 && (0 || (1 && A[1])))) -> A[0] = 0; changed = 1
			:: else -> skip fi;
			if :: A[1] && !(0 || (pc1 == 1 && (0 || (1 && A[0]))) || (pc1 == 2 && (0 || (1 && A[0])))) -> A[1] = 0; changed = 1
			:: else -> skip fi;
			if :: A[2] && !(0 || (pc2 == 0 && (0 || (1 && A[3]))) || (pc2 == 1 && (0 || (1 && A[3])))) -> A[2] = 0; changed = 1
			:: else -> skip fi;
			if :: A[3] && !(0 || (pc3 == 0 && (0 || (1 && A[2]))) || (pc3 == 1 && (0 || (1 && A[2])))) -> A[3] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 -> skip
		:: (0 || A[0] || A[1] || A[2] || A[3]) -> if :: kind < 4 -> kind = 4 :: else -> skip fi
		:: else ->
			/* the stuck processes that wait in vain for all they
			 * need, and how many of them wait to send */
			rooted = S[0] && !(0 || (pc0 == 1 && (0 || (1 && (!E[1] && (0 || pc1 == 1 || pc1 == 2))))) || (pc0 == 2 && (0 || (1 && (!E[1] && (0 || pc1 == 1 || pc1 == 2))))));
			if :: rooted -> nroots++; if :: (0 || pc0 == 1) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[1] && !(0 || (pc1 == 1 && (0 || (1 && (!E[0] && (0 || pc0 == 1 || pc0 == 2))))) || (pc1 == 2 && (0 || (1 && (!E[0] && (0 || pc0 == 1 || pc0 == 2))))));
			if :: rooted -> nroots++; if :: (0 || pc1 == 2) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[2] && !(0 || (pc2 == 0 && (0 || (1 && (!E[3] && (0 || pc3 == 0 || pc3 == 1))))) || (pc2 == 1 && (0 || (1 && (!E[3] && (0 || pc3 == 0))))));
			if :: rooted -> nroots++; if :: (0 || pc2 == 1) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[3] && !(0 || (pc3 == 0 && (0 || (1 && (!E[2] && (0 || pc2 == 0 || pc2 == 1))))) || (pc3 == 1 && (0 || (1 && (!E[2] && (0 || pc2 == 0))))));
			if :: rooted -> nroots++; if :: (0 || pc3 == 1) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			if
			:: nroots > 0 && sends == nroots && kind < 2 -> kind = 2
			:: nroots > 0 && sends != nroots && kind < 3 -> kind = 3
			:: else -> skip
			fi
		fi
		fi
		fi;
		pc0 = hpc0;
		pc1 = hpc1;
		pc2 = hpc2;
		pc3 = hpc3;
		/* the verdict, an assertion per kind */
		found_unwaited_request = kind == 1;
		assert(!found_unwaited_request);
		found_unmatched_send = kind == 2;
		assert(!found_unmatched_send);
		found_orphan_receive = kind == 3;
		assert(!found_orphan_receive);
		found_deadlock = kind == 4;
		assert(!found_deadlock);
		found_collective_mismatch = kind == 5;
		assert(!found_collective_mismatch);
		kind = 0
	   }
	od
}
