/* ring in buffered mode: the MP net 'ensemble verify --exact' explores,
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
 * Every run of this net ends.  Each process is a proctype whose
 * labels are the places it can rest at, each a choice of atomic
 * steps, one per transition of its group in the net, that read and
 * write only the process's own variables (pcP: where process P is,
 * vK: its loop counters and requests, declared 'local') and the
 * channels it alone sends on (xs) or receives from (xr), so SPIN's
 * partial-order reduction may run one process alone.  cD holds
 * the messages of a channel direction; a synchronous send puts a
 * marker (1) there and waits for the receiver's answer on aD.
 * Every label is an end label.  The proctype judge judges the end
 * states (timeout: no process can move), where ensemble verify
 * judges a net whose runs all end, with the rules of ensemble(1)
 * VERIFICATION, in one d_step on hidden variables.  It reads every
 * process's variables and channels; it moves only when no other
 * process can, so no step of theirs depends on it, and XUSAFE
 * keeps pan from taking its reads for an xr or xs breach.
 */

c_decl {
\#define XUSAFE
}

/* Set by the judge for pan's message: assertion violated
 * !(found_deadlock) */
hidden byte found_unwaited_request, found_unmatched_send, found_orphan_receive, found_deadlock, found_collective_mismatch, found_channel_full;

local byte pc0 = 2;	/* node[1] */
local byte pc1 = 2;	/* node[2] */
local byte pc2 = 2;	/* node[3] */
local byte v3 = 2;	/* node[1].ctr0 'loop 3' */
local byte v4 = 0;	/* node[1].ctr0.free */
local byte v8 = 2;	/* node[2].ctr0 'loop 3' */
local byte v9 = 0;	/* node[2].ctr0.free */
local byte v13 = 2;	/* node[3].ctr0 'loop 3' */
local byte v14 = 0;	/* node[3].ctr0.free */
chan c0 = [3] of { bit };	/* node[1].Right[1]->node[2].Left[1]: the checker's bound, the most messages its sender sends in any run */
chan c2 = [3] of { bit };	/* node[2].Right[1]->node[3].Left[1]: the checker's bound, the most messages its sender sends in any run */
chan c4 = [3] of { bit };	/* node[3].Right[1]->node[1].Left[1]: the checker's bound, the most messages its sender sends in any run */

/* node[1] */
active proctype p0()
{
	xs c0;
	xr c4;
end2:
	if
	:: atomic { nfull(c0) -> c0!0; pc0 = 3 }; goto end3
	fi;
end3:
	if
	:: atomic { nempty(c4) && v4 >= 2 -> c4?0; pc0 = 5 }; goto end5
	:: atomic { nempty(c4) && v3 >= 1 -> c4?0; v3 = v3 - 1; v4 = v4 + 1; pc0 = 2 }; goto end2
	fi;
end5:
	false;
}

/* node[2] */
active proctype p1()
{
	xr c0;
	xs c2;
end2:
	if
	:: atomic { nempty(c0) -> c0?0; pc1 = 3 }; goto end3
	fi;
end3:
	if
	:: atomic { v9 >= 2 && nfull(c2) -> c2!0; pc1 = 5 }; goto end5
	:: atomic { v8 >= 1 && nfull(c2) -> v8 = v8 - 1; v9 = v9 + 1; c2!0; pc1 = 2 }; goto end2
	fi;
end5:
	false;
}

/* node[3] */
active proctype p2()
{
	xr c2;
	xs c4;
end2:
	if
	:: atomic { nempty(c2) -> c2?0; pc2 = 3 }; goto end3
	fi;
end3:
	if
	:: atomic { v14 >= 2 && nfull(c4) -> c4!0; pc2 = 5 }; goto end5
	:: atomic { v13 >= 1 && nfull(c4) -> v13 = v13 - 1; v14 = v14 + 1; c4!0; pc2 = 2 }; goto end2
	fi;
end5:
	false;
}

/* The judge's scratch, out of the state vector: per process
 * ended (and none of its requests can match), runs (a step of its
 * group can fire), blocked, stuck, in the
 * cycle search. */
hidden byte E[3], R[3], B[3], S[3], A[3];
hidden byte kind, nroots, sends, changed, rooted, idle;

/* The judge: in every end state (no process can move:
 * timeout), the verdict of ensemble verify. */
active proctype judge()
{
	timeout;
	d_step {
		kind = 0; nroots = 0; sends = 0; idle = 0;
		E[0] = (0 || pc0 == 5);
		R[0] = (0);
		E[0] = E[0] && !R[0];
		B[0] = !E[0] && !R[0];
		idle = idle || !R[0];
		E[1] = (0 || pc1 == 5);
		R[1] = (0);
		E[1] = E[1] && !R[1];
		B[1] = !E[1] && !R[1];
		idle = idle || !R[1];
		E[2] = (0 || pc2 == 5);
		R[2] = (0);
		E[2] = E[2] && !R[2];
		B[2] = !E[2] && !R[2];
		idle = idle || !R[2];
		/* judged when some process is idle, unless a collective
		 * all take can fire */
		if :: !idle || (0) -> skip
		:: else ->
		/* lasting: ended with requests pending, messages to an ended
		 * process, an open collective an ended process did not leave */
		if :: (E[1] && len(c0) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[2] && len(c2) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[0] && len(c4) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		/* the stuck processes: blocked, and none that runs can give
		 * what they need; then none that is not stuck can */
		S[0] = B[0] && !(0 || (pc0 == 2 && (0 || (1 && R[1] && (!E[1] && (0 || pc1 == 2 || (pc1 == 3 && v8 > 0)))))) || (pc0 == 3 && (0 || (1 && R[2] && (!E[2] && (0 || pc2 == 2 || pc2 == 3))))));
		S[1] = B[1] && !(0 || (pc1 == 2 && (0 || (1 && R[0] && (!E[0] && (0 || pc0 == 2 || (pc0 == 3 && v3 > 0)))))) || (pc1 == 3 && (0 || (1 && R[2] && (!E[2] && (0 || pc2 == 2 || (pc2 == 3 && v13 > 0)))))));
		S[2] = B[2] && !(0 || (pc2 == 2 && (0 || (1 && R[1] && (!E[1] && (0 || pc1 == 2 || pc1 == 3))))) || (pc2 == 3 && (0 || (1 && R[0] && (!E[0] && (0 || pc0 == 2 || pc0 == 3))))));
		do
		:: changed = 0;
			if :: S[0] && (0 || (pc0 == 2 && (0 || (1 && !S[1] && (!E[1] && (0 || pc1 == 2 || (pc1 == 3 && v8 > 0)))))) || (pc0 == 3 && (0 || (1 && !S[2] && (!E[2] && (0 || pc2 == 2 || pc2 == 3)))))) -> S[0] = 0; changed = 1
			:: else -> skip fi;
			if :: S[1] && (0 || (pc1 == 2 && (0 || (1 && !S[0] && (!E[0] && (0 || pc0 == 2 || (pc0 == 3 && v3 > 0)))))) || (pc1 == 3 && (0 || (1 && !S[2] && (!E[2] && (0 || pc2 == 2 || (pc2 == 3 && v13 > 0))))))) -> S[1] = 0; changed = 1
			:: else -> skip fi;
			if :: S[2] && (0 || (pc2 == 2 && (0 || (1 && !S[1] && (!E[1] && (0 || pc1 == 2 || pc1 == 3))))) || (pc2 == 3 && (0 || (1 && !S[0] && (!E[0] && (0 || pc0 == 2 || pc0 == 3)))))) -> S[2] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 || !(0 || S[0] || S[1] || S[2]) -> skip
		:: else ->
		/* stuck processes at collectives that cannot happen */
		/* a cycle of waits among the stuck processes: take out
		 * those that wait for none left, until none goes */
		A[0] = S[0];
		A[1] = S[1];
		A[2] = S[2];
		do
		:: changed = 0;
			if :: A[0] && !(0 || (pc0 == 2 && (0 || (1 && A[1]))) || (pc0 == 3 && (0 || (1 && A[2])))) -> A[0] = 0; changed = 1
			:: else -> skip fi;
			if :: A[1] && !(0 || (pc1 == 2 && (0 || (1 && A[0]))) || (pc1 == 3 && (0 || (1 && A[2])))) -> A[1] = 0; changed = 1
			:: else -> skip fi;
			if :: A[2] && !(0 || (pc2 == 2 && (0 || (1 && A[1]))) || (pc2 == 3 && (0 || (1 && A[0])))) -> A[2] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 -> skip
		:: (0 || A[0] || A[1] || A[2]) -> if :: kind < 4 -> kind = 4 :: else -> skip fi
		:: else ->
			/* the stuck processes that wait in vain for all they
			 * need, and how many of them wait to send */
			rooted = S[0] && !(0 || (pc0 == 2 && (0 || (1 && (!E[1] && (0 || pc1 == 2 || (pc1 == 3 && v8 > 0)))))) || (pc0 == 3 && (0 || (1 && (!E[2] && (0 || pc2 == 2 || pc2 == 3))))));
			if :: rooted -> nroots++; if :: (0 || pc0 == 2) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[1] && !(0 || (pc1 == 2 && (0 || (1 && (!E[0] && (0 || pc0 == 2 || (pc0 == 3 && v3 > 0)))))) || (pc1 == 3 && (0 || (1 && (!E[2] && (0 || pc2 == 2 || (pc2 == 3 && v13 > 0)))))));
			if :: rooted -> nroots++; if :: (0 || pc1 == 3) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[2] && !(0 || (pc2 == 2 && (0 || (1 && (!E[1] && (0 || pc1 == 2 || pc1 == 3))))) || (pc2 == 3 && (0 || (1 && (!E[0] && (0 || pc0 == 2 || pc0 == 3))))));
			if :: rooted -> nroots++; if :: (0 || pc2 == 3) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			if
			:: nroots > 0 && sends == nroots && kind < 2 -> kind = 2
			:: nroots > 0 && sends != nroots && kind < 3 -> kind = 3
			:: else -> skip
			fi
		fi
		fi
		fi;
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
}
