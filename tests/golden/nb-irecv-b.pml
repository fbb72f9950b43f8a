/* nb_irecv in buffered mode: the MP net 'ensemble verify --exact' explores,
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

local byte pc0 = 0;	/* a */
local byte pc1 = 0;	/* b */
local byte v5 = 0;	/* b.req0 */
local byte v6 = 1;	/* b.req0.free */
chan c0 = [1] of { bit };	/* a.P[1]->b.P[1]: the checker's bound, the most messages its sender sends in any run */

/* a */
active proctype p0()
{
	xs c0;
end0:
	if
	:: atomic { nfull(c0) -> c0!0; pc0 = 1 }; goto end1
	fi;
end1:
	false;
}

/* b */
active proctype p1()
{
	xr c0;
end0:
	if
	:: atomic { v6 >= 1 -> v6 = v6 - 1; v5 = v5 + 1; pc1 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c0) && v5 >= 1 -> c0?0; v5 = v5 - 1; v6 = v6 + 1 }; goto end1
	fi;
}

/* The judge's scratch, out of the state vector: per process
 * ended (and none of its requests can match), runs (a step of its
 * group can fire), blocked, stuck, in the
 * cycle search. */
hidden byte E[2], R[2], B[2], S[2], A[2];
hidden byte kind, nroots, sends, changed, rooted, idle;

/* The judge: in every end state (no process can move:
 * timeout), the verdict of ensemble verify. */
active proctype judge()
{
	timeout;
	d_step {
		kind = 0; nroots = 0; sends = 0; idle = 0;
		E[0] = (0 || pc0 == 1);
		R[0] = (0);
		E[0] = E[0] && !R[0];
		B[0] = !E[0] && !R[0];
		idle = idle || !R[0];
		E[1] = (0 || pc1 == 1);
		R[1] = (0);
		E[1] = E[1] && !R[1];
		B[1] = !E[1] && !R[1];
		idle = idle || !R[1];
		/* judged when some process is idle, unless a collective
		 * all take can fire */
		if :: !idle || (0) -> skip
		:: else ->
		/* lasting: ended with requests pending, messages to an ended
		 * process, an open collective an ended process did not leave */
		if :: (pc1 == 1) && kind < 1 -> kind = 1 :: else -> skip fi;
		if :: (E[1] && len(c0) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		/* the stuck processes: blocked, and none that runs can give
		 * what they need; then none that is not stuck can */
		S[0] = B[0] && !(0 || (pc0 == 0 && (0 || (1 && R[1] && (!E[1] && (0 || pc1 == 0 || (pc1 == 1 && v5 > 0)))))));
		S[1] = B[1] && !(0 || (pc1 == 0 && (0)));
		do
		:: changed = 0;
			if :: S[0] && (0 || (pc0 == 0 && (0 || (1 && !S[1] && (!E[1] && (0 || pc1 == 0 || (pc1 == 1 && v5 > 0))))))) -> S[0] = 0; changed = 1
			:: else -> skip fi;
			if :: S[1] && (0 || (pc1 == 0 && (0))) -> S[1] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 || !(0 || S[0] || S[1]) -> skip
		:: else ->
		/* stuck processes at collectives that cannot happen */
		/* a cycle of waits among the stuck processes: take out
		 * those that wait for none left, until none goes */
		A[0] = S[0];
		A[1] = S[1];
		do
		:: changed = 0;
			if :: A[0] && !(0 || (pc0 == 0 && (0 || (1 && A[1])))) -> A[0] = 0; changed = 1
			:: else -> skip fi;
			if :: A[1] && !(0 || (pc1 == 0 && (0))) -> A[1] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 -> skip
		:: (0 || A[0] || A[1]) -> if :: kind < 4 -> kind = 4 :: else -> skip fi
		:: else ->
			/* the stuck processes that wait in vain for all they
			 * need, and how many of them wait to send */
			rooted = S[0] && !(0 || (pc0 == 0 && (0 || (1 && (!E[1] && (0 || pc1 == 0 || (pc1 == 1 && v5 > 0)))))));
			if :: rooted -> nroots++; if :: (0 || pc0 == 0) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[1] && !(0 || (pc1 == 0 && (0)));
			if :: rooted -> nroots++; if :: (0) -> sends++ :: else -> skip fi
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
