/* cm_bcast_scatter in buffered mode: the MP net 'ensemble verify --exact' explores,
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
 * Each process is a proctype whose loop holds one atomic step per
 * transition of its group in the net: a synchronous send is one step
 * of sender and receiver together (a rendezvous), a collective all
 * take together one step of the first process.  pcP is where
 * process P is (an instruction of its program); qK holds the
 * messages of a channel direction, vK is any other place of the net.
 * Every loop is an end label: a process may rest anywhere, and no
 * end state is invalid by itself.  The proctype judge judges every
 * state, as ensemble verify does, with the rules of ensemble(1)
 * VERIFICATION (a process stuck while others go on for ever is a
 * violation, though that state is no end state), in one d_step on
 * hidden variables that changes nothing unless an assertion fails.
 * This judge reads every process's variables, which every step
 * writes, so SPIN's partial-order reduction removes nothing here.
 * (The form whose steps SPIN can reduce is written for a net whose
 * runs all end or that has one part looping for ever, bounded
 * channels and no collective; in a net with more parts looping
 * for ever SPIN's cycle proviso multiplies their loops anyway.)
 */

/* Set by the judge for pan's message: assertion violated
 * !(found_deadlock) */
hidden byte found_unwaited_request, found_unmatched_send, found_orphan_receive, found_deadlock, found_collective_mismatch, found_channel_full;

byte pc0 = 0;	/* a */
byte pc1 = 0;	/* b */
byte v5 = 1;	/* collective.none */
byte v6 = 0;	/* collective.open 'bcast from a' */
byte v7 = 0;	/* collective.open 'scatter from a' */
byte v8 = 0;	/* collective.left */
byte v9 = 1;	/* collective.left.free */
byte v10 = 0;	/* a.left */
byte v11 = 1;	/* a.in */
byte v12 = 0;	/* b.left */
byte v13 = 1;	/* b.in */

/* a */
active proctype p0()
{
end:
	do
	/* a: bcast from a @ tests/verify/cm-bcast-scatter.pcg:23:9 */
	:: atomic { 1 && pc0 == 0 && v5 >= 1 && v9 >= 1 && v11 >= 1; pc0 = 1; v5 = v5 - 1; v6 = v6 + 1; v8 = v8 + 1; v9 = v9 - 1; v10 = v10 + 1; v11 = v11 - 1 }
	/* a: bcast from a @ tests/verify/cm-bcast-scatter.pcg:23:9 */
	:: atomic { 1 && pc0 == 0 && v6 >= 1 && v9 >= 1 && v11 >= 1; pc0 = 1; v8 = v8 + 1; v9 = v9 - 1; v10 = v10 + 1; v11 = v11 - 1 }
	/* a: bcast from a @ tests/verify/cm-bcast-scatter.pcg:23:9 */
	:: atomic { 1 && pc0 == 0 && v6 >= 1 && v8 >= 1 && v11 >= 1 && v12 >= 1; pc0 = 1; v5 = v5 + 1; v6 = v6 - 1; v8 = v8 - 1; v9 = v9 + 1; v12 = v12 - 1; v13 = v13 + 1 }
	od
}

/* b */
active proctype p1()
{
end:
	do
	/* b: scatter from a @ tests/verify/cm-bcast-scatter.pcg:24:9 */
	:: atomic { 1 && pc1 == 0 && v7 >= 1 && v9 >= 1 && v10 >= 1 && v13 >= 1; pc1 = 1; v8 = v8 + 1; v9 = v9 - 1; v12 = v12 + 1; v13 = v13 - 1 }
	/* b: scatter from a @ tests/verify/cm-bcast-scatter.pcg:24:9 */
	:: atomic { 1 && pc1 == 0 && v7 >= 1 && v8 >= 1 && v10 >= 1 && v13 >= 1; pc1 = 1; v5 = v5 + 1; v7 = v7 - 1; v8 = v8 - 1; v9 = v9 + 1; v10 = v10 - 1; v11 = v11 + 1 }
	od
}

/* The judge's scratch, out of the state vector: per process
 * ended (and none of its requests can match), runs (a step of its
 * group can fire), blocked, stuck, in the
 * cycle search. */
hidden byte E[2], R[2], B[2], S[2], A[2];
hidden byte kind, nroots, sends, changed, rooted, idle;

/* The judge: in every state, the verdict of ensemble verify. */
active proctype judge()
{
end:
	do
	:: d_step {
		kind = 0; nroots = 0; sends = 0; idle = 0;
		E[0] = (0 || pc0 == 2);
		R[0] = (0 || (1 && pc0 == 0 && v5 >= 1 && v9 >= 1 && v11 >= 1) || (1 && pc0 == 0 && v6 >= 1 && v9 >= 1 && v11 >= 1) || (1 && pc0 == 0 && v6 >= 1 && v8 >= 1 && v11 >= 1 && v12 >= 1));
		E[0] = E[0] && !R[0];
		B[0] = !E[0] && !R[0];
		idle = idle || !R[0];
		E[1] = (0 || pc1 == 1);
		R[1] = (0 || (1 && pc1 == 0 && v7 >= 1 && v9 >= 1 && v10 >= 1 && v13 >= 1) || (1 && pc1 == 0 && v7 >= 1 && v8 >= 1 && v10 >= 1 && v13 >= 1));
		E[1] = E[1] && !R[1];
		B[1] = !E[1] && !R[1];
		idle = idle || !R[1];
		/* judged when some process is idle, unless a collective
		 * all take can fire */
		if :: !idle || (0) -> skip
		:: else ->
		/* lasting: ended with requests pending, messages to an ended
		 * process, an open collective an ended process did not leave */
		if :: (E[0] && v5 == 0 && v10 == 0) && kind < 5 -> kind = 5 :: else -> skip fi;
		if :: (E[1] && v5 == 0 && v12 == 0) && kind < 5 -> kind = 5 :: else -> skip fi;
		/* the stuck processes: blocked, and none that runs can give
		 * what they need; then none that is not stuck can */
		S[0] = B[0] && !(0 || (pc0 == 0 && (0 || (0 && R[0] && (!E[0] && (0 || pc0 == 0))) || ((!(v10 == 0 && v5 == 0 && v6 == 0) && v12 == 0) && R[1] && (!E[1] && (0))))) || (pc0 == 1 && (0 || (1 && R[1] && (!E[1] && (0))))));
		S[1] = B[1] && !(0 || (pc1 == 0 && (0 || ((!(v12 == 0 && v5 == 0 && v7 == 0) && 1) && R[0] && (!E[0] && (0))) || (0 && R[1] && (!E[1] && (0 || pc1 == 0))))));
		do
		:: changed = 0;
			if :: S[0] && (0 || (pc0 == 0 && (0 || (0 && !S[0] && (!E[0] && (0 || pc0 == 0))) || ((!(v10 == 0 && v5 == 0 && v6 == 0) && v12 == 0) && !S[1] && (!E[1] && (0))))) || (pc0 == 1 && (0 || (1 && !S[1] && (!E[1] && (0)))))) -> S[0] = 0; changed = 1
			:: else -> skip fi;
			if :: S[1] && (0 || (pc1 == 0 && (0 || ((!(v12 == 0 && v5 == 0 && v7 == 0) && 1) && !S[0] && (!E[0] && (0))) || (0 && !S[1] && (!E[1] && (0 || pc1 == 0)))))) -> S[1] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 || !(0 || S[0] || S[1]) -> skip
		:: else ->
		/* stuck processes at collectives that cannot happen */
		if :: (S[0] && pc0 == 0 && ((v10 == 0 && v5 == 0 && v6 == 0) || (E[1] && !(v12 == 1 && v10 == 0)) || (S[1] && pc1 == 0 && v10 == v12))) && kind < 5 -> kind = 5 :: else -> skip fi;
		if :: (S[1] && pc1 == 0 && ((v12 == 0 && v5 == 0 && v7 == 0) || (E[0] && !(v10 == 1 && v12 == 0)) || ((!(v12 == 0 && v5 == 0 && v7 == 0) && 1) && !E[0] && !(!E[0] && (0))))) && kind < 5 -> kind = 5 :: else -> skip fi;
		/* a cycle of waits among the stuck processes: take out
		 * those that wait for none left, until none goes */
		A[0] = S[0];
		A[1] = S[1];
		do
		:: changed = 0;
			if :: A[0] && !(0 || (pc0 == 0 && (0 || (0 && A[0]) || ((!(v10 == 0 && v5 == 0 && v6 == 0) && v12 == 0) && A[1]))) || (pc0 == 1 && (0 || (1 && A[1])))) -> A[0] = 0; changed = 1
			:: else -> skip fi;
			if :: A[1] && !(0 || (pc1 == 0 && (0 || ((!(v12 == 0 && v5 == 0 && v7 == 0) && 1) && A[0]) || (0 && A[1])))) -> A[1] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 -> skip
		:: (0 || A[0] || A[1]) -> if :: kind < 4 -> kind = 4 :: else -> skip fi
		:: else ->
			/* the stuck processes that wait in vain for all they
			 * need, and how many of them wait to send */
			rooted = S[0] && !(0 || (pc0 == 0 && (0 || (0 && (!E[0] && (0 || pc0 == 0))) || ((!(v10 == 0 && v5 == 0 && v6 == 0) && v12 == 0) && (!E[1] && (0))))) || (pc0 == 1 && (0 || (1 && (!E[1] && (0))))));
			if :: rooted -> nroots++; if :: (0) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[1] && !(0 || (pc1 == 0 && (0 || ((!(v12 == 0 && v5 == 0 && v7 == 0) && 1) && (!E[0] && (0))) || (0 && (!E[1] && (0 || pc1 == 0))))));
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
	od
}
