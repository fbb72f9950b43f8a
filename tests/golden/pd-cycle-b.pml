/* pd_cycle in buffered mode: the MP net 'ensemble verify --exact' explores,
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

byte pc0 = 1;	/* a */
byte pc1 = 1;	/* b */
byte pc2 = 0;	/* c */
byte pc3 = 0;	/* d */
chan q10 = [8] of { bit };	/* a.P[1]->b.P[1]: no bound known (it is sent on in an endless loop); the model's is 8 */
chan q11 = [8] of { bit };	/* b.P[1]->a.P[1]: no bound known (it is sent on in an endless loop); the model's is 8 */
chan q12 = [1] of { bit };	/* c.P[1]->d.P[1]: the checker's bound, the most messages its sender sends in any run */
chan q13 = [1] of { bit };	/* d.P[1]->c.P[1]: the checker's bound, the most messages its sender sends in any run */

/* a */
active proctype p0()
{
end:
	do
	/* a: send P[1] @ tests/verify/pd-cycle.pcg:28:16 */
	:: atomic { 1 && pc0 == 1 && ( len(q10) > 7) ->
		found_channel_full = 1;
		assert(!found_channel_full) }
	:: atomic { 1 && pc0 == 1 && !( len(q10) > 7); pc0 = 2; q10!0 }
	/* a: recv P[1] @ tests/verify/pd-cycle.pcg:28:27 */
	:: atomic { 1 && pc0 == 2 && len(q11) >= 1; pc0 = 1; q11?_ }
	od
}

/* b */
active proctype p1()
{
end:
	do
	/* b: recv P[1] @ tests/verify/pd-cycle.pcg:29:16 */
	:: atomic { 1 && pc1 == 1 && len(q10) >= 1; pc1 = 2; q10?_ }
	/* b: send P[1] @ tests/verify/pd-cycle.pcg:29:27 */
	:: atomic { 1 && pc1 == 2 && ( len(q11) > 7) ->
		found_channel_full = 1;
		assert(!found_channel_full) }
	:: atomic { 1 && pc1 == 2 && !( len(q11) > 7); pc1 = 1; q11!0 }
	od
}

/* c */
active proctype p2()
{
end:
	do
	/* c: recv P[1] @ tests/verify/pd-cycle.pcg:30:9 */
	:: atomic { 1 && pc2 == 0 && len(q13) >= 1; pc2 = 1; q13?_ }
	/* c: send P[1] @ tests/verify/pd-cycle.pcg:30:20 */
	:: atomic { 1 && pc2 == 1; pc2 = 2; q12!0 }
	od
}

/* d */
active proctype p3()
{
end:
	do
	/* d: recv P[1] @ tests/verify/pd-cycle.pcg:31:9 */
	:: atomic { 1 && pc3 == 0 && len(q12) >= 1; pc3 = 1; q12?_ }
	/* d: send P[1] @ tests/verify/pd-cycle.pcg:31:20 */
	:: atomic { 1 && pc3 == 1; pc3 = 2; q13!0 }
	od
}

/* The judge's scratch, out of the state vector: per process
 * ended (and none of its requests can match), runs (a step of its
 * group can fire), blocked, stuck, in the
 * cycle search. */
hidden byte E[4], R[4], B[4], S[4], A[4];
hidden byte kind, nroots, sends, changed, rooted, idle;

/* The judge: in every state, the verdict of ensemble verify. */
active proctype judge()
{
end:
	do
	:: d_step {
		kind = 0; nroots = 0; sends = 0; idle = 0;
		E[0] = (0);
		R[0] = (0 || (1 && pc0 == 1) || (1 && pc0 == 2 && len(q11) >= 1));
		E[0] = E[0] && !R[0];
		B[0] = !E[0] && !R[0];
		idle = idle || !R[0];
		E[1] = (0);
		R[1] = (0 || (1 && pc1 == 1 && len(q10) >= 1) || (1 && pc1 == 2));
		E[1] = E[1] && !R[1];
		B[1] = !E[1] && !R[1];
		idle = idle || !R[1];
		E[2] = (0 || pc2 == 2);
		R[2] = (0 || (1 && pc2 == 0 && len(q13) >= 1) || (1 && pc2 == 1));
		E[2] = E[2] && !R[2];
		B[2] = !E[2] && !R[2];
		idle = idle || !R[2];
		E[3] = (0 || pc3 == 2);
		R[3] = (0 || (1 && pc3 == 0 && len(q12) >= 1) || (1 && pc3 == 1));
		E[3] = E[3] && !R[3];
		B[3] = !E[3] && !R[3];
		idle = idle || !R[3];
		/* judged when some process is idle, unless a collective
		 * all take can fire */
		if :: !idle || (0) -> skip
		:: else ->
		/* lasting: ended with requests pending, messages to an ended
		 * process, an open collective an ended process did not leave */
		if :: (E[1] && len(q10) > 0) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[0] && len(q11) > 0) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[3] && len(q12) > 0) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[2] && len(q13) > 0) && kind < 2 -> kind = 2 :: else -> skip fi;
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
