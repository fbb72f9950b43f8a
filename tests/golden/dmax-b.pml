/* dmax in buffered mode: the MP net 'ensemble verify --exact' explores,
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

local byte pc0 = 0;	/* terminal[1] */
local byte pc1 = 0;	/* terminal[2] */
local byte pc2 = 0;	/* terminal[3] */
local byte pc3 = 0;	/* terminal[4] */
local byte pc4 = 0;	/* terminal[5] */
local byte pc5 = 0;	/* relay[1] */
local byte pc6 = 0;	/* relay[2] */
local byte pc7 = 0;	/* relay[3] */
chan c0 = [1] of { bit };	/* terminal[1].Server[1]->relay[1].Client[1]: the checker's bound, the most messages its sender sends in any run */
chan c1 = [1] of { bit };	/* relay[1].Client[1]->terminal[1].Server[1]: the checker's bound, the most messages its sender sends in any run */
chan c2 = [1] of { bit };	/* terminal[2].Server[1]->relay[1].Client[2]: the checker's bound, the most messages its sender sends in any run */
chan c3 = [1] of { bit };	/* relay[1].Client[2]->terminal[2].Server[1]: the checker's bound, the most messages its sender sends in any run */
chan c4 = [1] of { bit };	/* terminal[3].Server[1]->relay[2].Client[1]: the checker's bound, the most messages its sender sends in any run */
chan c5 = [1] of { bit };	/* relay[2].Client[1]->terminal[3].Server[1]: the checker's bound, the most messages its sender sends in any run */
chan c6 = [1] of { bit };	/* terminal[4].Server[1]->relay[2].Client[2]: the checker's bound, the most messages its sender sends in any run */
chan c7 = [1] of { bit };	/* relay[2].Client[2]->terminal[4].Server[1]: the checker's bound, the most messages its sender sends in any run */
chan c8 = [1] of { bit };	/* terminal[5].Server[1]->relay[3].Client[1]: the checker's bound, the most messages its sender sends in any run */
chan c9 = [1] of { bit };	/* relay[3].Client[1]->terminal[5].Server[1]: the checker's bound, the most messages its sender sends in any run */
chan c10 = [1] of { bit };	/* relay[1].Prop[1]->relay[2].Prop[1]: the checker's bound, the most messages its sender sends in any run */
chan c11 = [1] of { bit };	/* relay[2].Prop[1]->relay[1].Prop[1]: the checker's bound, the most messages its sender sends in any run */
chan c12 = [1] of { bit };	/* relay[1].Prop[2]->relay[3].Prop[1]: the checker's bound, the most messages its sender sends in any run */
chan c13 = [1] of { bit };	/* relay[3].Prop[1]->relay[1].Prop[2]: the checker's bound, the most messages its sender sends in any run */
chan c14 = [1] of { bit };	/* relay[2].Prop[2]->relay[3].Prop[2]: the checker's bound, the most messages its sender sends in any run */
chan c15 = [1] of { bit };	/* relay[3].Prop[2]->relay[2].Prop[2]: the checker's bound, the most messages its sender sends in any run */

/* terminal[1] */
active proctype p0()
{
	xs c0;
	xr c1;
end0:
	if
	:: atomic { nfull(c0) -> c0!0; pc0 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c1) -> c1?0; pc0 = 2 }; goto end2
	fi;
end2:
	false;
}

/* terminal[2] */
active proctype p1()
{
	xs c2;
	xr c3;
end0:
	if
	:: atomic { nfull(c2) -> c2!0; pc1 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c3) -> c3?0; pc1 = 2 }; goto end2
	fi;
end2:
	false;
}

/* terminal[3] */
active proctype p2()
{
	xs c4;
	xr c5;
end0:
	if
	:: atomic { nfull(c4) -> c4!0; pc2 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c5) -> c5?0; pc2 = 2 }; goto end2
	fi;
end2:
	false;
}

/* terminal[4] */
active proctype p3()
{
	xs c6;
	xr c7;
end0:
	if
	:: atomic { nfull(c6) -> c6!0; pc3 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c7) -> c7?0; pc3 = 2 }; goto end2
	fi;
end2:
	false;
}

/* terminal[5] */
active proctype p4()
{
	xs c8;
	xr c9;
end0:
	if
	:: atomic { nfull(c8) -> c8!0; pc4 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c9) -> c9?0; pc4 = 2 }; goto end2
	fi;
end2:
	false;
}

/* relay[1] */
active proctype p5()
{
	xr c0;
	xs c1;
	xr c2;
	xs c3;
	xs c10;
	xr c11;
	xs c12;
	xr c13;
end0:
	if
	:: atomic { nempty(c0) -> c0?0; pc5 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c2) -> c2?0; pc5 = 2 }; goto end2
	fi;
end2:
	if
	:: atomic { nfull(c10) -> c10!0; pc5 = 3 }; goto end3
	fi;
end3:
	if
	:: atomic { nfull(c12) -> c12!0; pc5 = 4 }; goto end4
	fi;
end4:
	if
	:: atomic { nempty(c11) -> c11?0; pc5 = 5 }; goto end5
	fi;
end5:
	if
	:: atomic { nempty(c13) -> c13?0; pc5 = 6 }; goto end6
	fi;
end6:
	if
	:: atomic { nfull(c1) -> c1!0; pc5 = 7 }; goto end7
	fi;
end7:
	if
	:: atomic { nfull(c3) -> c3!0; pc5 = 8 }; goto end8
	fi;
end8:
	false;
}

/* relay[2] */
active proctype p6()
{
	xr c4;
	xs c5;
	xr c6;
	xs c7;
	xr c10;
	xs c11;
	xs c14;
	xr c15;
end0:
	if
	:: atomic { nempty(c4) -> c4?0; pc6 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nempty(c6) -> c6?0; pc6 = 2 }; goto end2
	fi;
end2:
	if
	:: atomic { nfull(c11) -> c11!0; pc6 = 3 }; goto end3
	fi;
end3:
	if
	:: atomic { nfull(c14) -> c14!0; pc6 = 4 }; goto end4
	fi;
end4:
	if
	:: atomic { nempty(c10) -> c10?0; pc6 = 5 }; goto end5
	fi;
end5:
	if
	:: atomic { nempty(c15) -> c15?0; pc6 = 6 }; goto end6
	fi;
end6:
	if
	:: atomic { nfull(c5) -> c5!0; pc6 = 7 }; goto end7
	fi;
end7:
	if
	:: atomic { nfull(c7) -> c7!0; pc6 = 8 }; goto end8
	fi;
end8:
	false;
}

/* relay[3] */
active proctype p7()
{
	xr c8;
	xs c9;
	xr c12;
	xs c13;
	xr c14;
	xs c15;
end0:
	if
	:: atomic { nempty(c8) -> c8?0; pc7 = 1 }; goto end1
	fi;
end1:
	if
	:: atomic { nfull(c13) -> c13!0; pc7 = 2 }; goto end2
	fi;
end2:
	if
	:: atomic { nfull(c15) -> c15!0; pc7 = 3 }; goto end3
	fi;
end3:
	if
	:: atomic { nempty(c12) -> c12?0; pc7 = 4 }; goto end4
	fi;
end4:
	if
	:: atomic { nempty(c14) -> c14?0; pc7 = 5 }; goto end5
	fi;
end5:
	if
	:: atomic { nfull(c9) -> c9!0; pc7 = 6 }; goto end6
	fi;
end6:
	false;
}

/* The judge's scratch, out of the state vector: per process
 * ended (and none of its requests can match), runs (a step of its
 * group can fire), blocked, stuck, in the
 * cycle search. */
hidden byte E[8], R[8], B[8], S[8], A[8];
hidden byte kind, nroots, sends, changed, rooted, idle;

/* The judge: in every end state (no process can move:
 * timeout), the verdict of ensemble verify. */
active proctype judge()
{
	timeout;
	d_step {
		kind = 0; nroots = 0; sends = 0; idle = 0;
		E[0] = (0 || pc0 == 2);
		R[0] = (0);
		E[0] = E[0] && !R[0];
		B[0] = !E[0] && !R[0];
		idle = idle || !R[0];
		E[1] = (0 || pc1 == 2);
		R[1] = (0);
		E[1] = E[1] && !R[1];
		B[1] = !E[1] && !R[1];
		idle = idle || !R[1];
		E[2] = (0 || pc2 == 2);
		R[2] = (0);
		E[2] = E[2] && !R[2];
		B[2] = !E[2] && !R[2];
		idle = idle || !R[2];
		E[3] = (0 || pc3 == 2);
		R[3] = (0);
		E[3] = E[3] && !R[3];
		B[3] = !E[3] && !R[3];
		idle = idle || !R[3];
		E[4] = (0 || pc4 == 2);
		R[4] = (0);
		E[4] = E[4] && !R[4];
		B[4] = !E[4] && !R[4];
		idle = idle || !R[4];
		E[5] = (0 || pc5 == 8);
		R[5] = (0);
		E[5] = E[5] && !R[5];
		B[5] = !E[5] && !R[5];
		idle = idle || !R[5];
		E[6] = (0 || pc6 == 8);
		R[6] = (0);
		E[6] = E[6] && !R[6];
		B[6] = !E[6] && !R[6];
		idle = idle || !R[6];
		E[7] = (0 || pc7 == 6);
		R[7] = (0);
		E[7] = E[7] && !R[7];
		B[7] = !E[7] && !R[7];
		idle = idle || !R[7];
		/* judged when some process is idle, unless a collective
		 * all take can fire */
		if :: !idle || (0) -> skip
		:: else ->
		/* lasting: ended with requests pending, messages to an ended
		 * process, an open collective an ended process did not leave */
		if :: (E[5] && len(c0) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[0] && len(c1) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[5] && len(c2) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[1] && len(c3) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[6] && len(c4) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[2] && len(c5) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[6] && len(c6) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[3] && len(c7) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[7] && len(c8) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[4] && len(c9) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[6] && len(c10) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[5] && len(c11) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[7] && len(c12) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[5] && len(c13) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[7] && len(c14) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		if :: (E[6] && len(c15) > (0)) && kind < 2 -> kind = 2 :: else -> skip fi;
		/* the stuck processes: blocked, and none that runs can give
		 * what they need; then none that is not stuck can */
		S[0] = B[0] && !(0 || (pc0 == 0 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0))))) || (pc0 == 1 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5 || pc5 == 6))))));
		S[1] = B[1] && !(0 || (pc1 == 0 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1))))) || (pc1 == 1 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5 || pc5 == 6 || pc5 == 7))))));
		S[2] = B[2] && !(0 || (pc2 == 0 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0))))) || (pc2 == 1 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5 || pc6 == 6))))));
		S[3] = B[3] && !(0 || (pc3 == 0 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1))))) || (pc3 == 1 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5 || pc6 == 6 || pc6 == 7))))));
		S[4] = B[4] && !(0 || (pc4 == 0 && (0 || (1 && R[7] && (!E[7] && (0 || pc7 == 0))))) || (pc4 == 1 && (0 || (1 && R[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3 || pc7 == 4 || pc7 == 5))))));
		S[5] = B[5] && !(0 || (pc5 == 0 && (0 || (1 && R[0] && (!E[0] && (0 || pc0 == 0))))) || (pc5 == 1 && (0 || (1 && R[1] && (!E[1] && (0 || pc1 == 0))))) || (pc5 == 2 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4))))) || (pc5 == 3 && (0 || (1 && R[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3))))) || (pc5 == 4 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2))))) || (pc5 == 5 && (0 || (1 && R[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1))))) || (pc5 == 6 && (0 || (1 && R[0] && (!E[0] && (0 || pc0 == 0 || pc0 == 1))))) || (pc5 == 7 && (0 || (1 && R[1] && (!E[1] && (0 || pc1 == 0 || pc1 == 1))))));
		S[6] = B[6] && !(0 || (pc6 == 0 && (0 || (1 && R[2] && (!E[2] && (0 || pc2 == 0))))) || (pc6 == 1 && (0 || (1 && R[3] && (!E[3] && (0 || pc3 == 0))))) || (pc6 == 2 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4))))) || (pc6 == 3 && (0 || (1 && R[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3 || pc7 == 4))))) || (pc6 == 4 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2))))) || (pc6 == 5 && (0 || (1 && R[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2))))) || (pc6 == 6 && (0 || (1 && R[2] && (!E[2] && (0 || pc2 == 0 || pc2 == 1))))) || (pc6 == 7 && (0 || (1 && R[3] && (!E[3] && (0 || pc3 == 0 || pc3 == 1))))));
		S[7] = B[7] && !(0 || (pc7 == 0 && (0 || (1 && R[4] && (!E[4] && (0 || pc4 == 0))))) || (pc7 == 1 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5))))) || (pc7 == 2 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5))))) || (pc7 == 3 && (0 || (1 && R[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3))))) || (pc7 == 4 && (0 || (1 && R[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3))))) || (pc7 == 5 && (0 || (1 && R[4] && (!E[4] && (0 || pc4 == 0 || pc4 == 1))))));
		do
		:: changed = 0;
			if :: S[0] && (0 || (pc0 == 0 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0))))) || (pc0 == 1 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5 || pc5 == 6)))))) -> S[0] = 0; changed = 1
			:: else -> skip fi;
			if :: S[1] && (0 || (pc1 == 0 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1))))) || (pc1 == 1 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5 || pc5 == 6 || pc5 == 7)))))) -> S[1] = 0; changed = 1
			:: else -> skip fi;
			if :: S[2] && (0 || (pc2 == 0 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0))))) || (pc2 == 1 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5 || pc6 == 6)))))) -> S[2] = 0; changed = 1
			:: else -> skip fi;
			if :: S[3] && (0 || (pc3 == 0 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1))))) || (pc3 == 1 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5 || pc6 == 6 || pc6 == 7)))))) -> S[3] = 0; changed = 1
			:: else -> skip fi;
			if :: S[4] && (0 || (pc4 == 0 && (0 || (1 && !S[7] && (!E[7] && (0 || pc7 == 0))))) || (pc4 == 1 && (0 || (1 && !S[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3 || pc7 == 4 || pc7 == 5)))))) -> S[4] = 0; changed = 1
			:: else -> skip fi;
			if :: S[5] && (0 || (pc5 == 0 && (0 || (1 && !S[0] && (!E[0] && (0 || pc0 == 0))))) || (pc5 == 1 && (0 || (1 && !S[1] && (!E[1] && (0 || pc1 == 0))))) || (pc5 == 2 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4))))) || (pc5 == 3 && (0 || (1 && !S[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3))))) || (pc5 == 4 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2))))) || (pc5 == 5 && (0 || (1 && !S[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1))))) || (pc5 == 6 && (0 || (1 && !S[0] && (!E[0] && (0 || pc0 == 0 || pc0 == 1))))) || (pc5 == 7 && (0 || (1 && !S[1] && (!E[1] && (0 || pc1 == 0 || pc1 == 1)))))) -> S[5] = 0; changed = 1
			:: else -> skip fi;
			if :: S[6] && (0 || (pc6 == 0 && (0 || (1 && !S[2] && (!E[2] && (0 || pc2 == 0))))) || (pc6 == 1 && (0 || (1 && !S[3] && (!E[3] && (0 || pc3 == 0))))) || (pc6 == 2 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4))))) || (pc6 == 3 && (0 || (1 && !S[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3 || pc7 == 4))))) || (pc6 == 4 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2))))) || (pc6 == 5 && (0 || (1 && !S[7] && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2))))) || (pc6 == 6 && (0 || (1 && !S[2] && (!E[2] && (0 || pc2 == 0 || pc2 == 1))))) || (pc6 == 7 && (0 || (1 && !S[3] && (!E[3] && (0 || pc3 == 0 || pc3 == 1)))))) -> S[6] = 0; changed = 1
			:: else -> skip fi;
			if :: S[7] && (0 || (pc7 == 0 && (0 || (1 && !S[4] && (!E[4] && (0 || pc4 == 0))))) || (pc7 == 1 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5))))) || (pc7 == 2 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5))))) || (pc7 == 3 && (0 || (1 && !S[5] && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3))))) || (pc7 == 4 && (0 || (1 && !S[6] && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3))))) || (pc7 == 5 && (0 || (1 && !S[4] && (!E[4] && (0 || pc4 == 0 || pc4 == 1)))))) -> S[7] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 || !(0 || S[0] || S[1] || S[2] || S[3] || S[4] || S[5] || S[6] || S[7]) -> skip
		:: else ->
		/* stuck processes at collectives that cannot happen */
		/* a cycle of waits among the stuck processes: take out
		 * those that wait for none left, until none goes */
		A[0] = S[0];
		A[1] = S[1];
		A[2] = S[2];
		A[3] = S[3];
		A[4] = S[4];
		A[5] = S[5];
		A[6] = S[6];
		A[7] = S[7];
		do
		:: changed = 0;
			if :: A[0] && !(0 || (pc0 == 0 && (0 || (1 && A[5]))) || (pc0 == 1 && (0 || (1 && A[5])))) -> A[0] = 0; changed = 1
			:: else -> skip fi;
			if :: A[1] && !(0 || (pc1 == 0 && (0 || (1 && A[5]))) || (pc1 == 1 && (0 || (1 && A[5])))) -> A[1] = 0; changed = 1
			:: else -> skip fi;
			if :: A[2] && !(0 || (pc2 == 0 && (0 || (1 && A[6]))) || (pc2 == 1 && (0 || (1 && A[6])))) -> A[2] = 0; changed = 1
			:: else -> skip fi;
			if :: A[3] && !(0 || (pc3 == 0 && (0 || (1 && A[6]))) || (pc3 == 1 && (0 || (1 && A[6])))) -> A[3] = 0; changed = 1
			:: else -> skip fi;
			if :: A[4] && !(0 || (pc4 == 0 && (0 || (1 && A[7]))) || (pc4 == 1 && (0 || (1 && A[7])))) -> A[4] = 0; changed = 1
			:: else -> skip fi;
			if :: A[5] && !(0 || (pc5 == 0 && (0 || (1 && A[0]))) || (pc5 == 1 && (0 || (1 && A[1]))) || (pc5 == 2 && (0 || (1 && A[6]))) || (pc5 == 3 && (0 || (1 && A[7]))) || (pc5 == 4 && (0 || (1 && A[6]))) || (pc5 == 5 && (0 || (1 && A[7]))) || (pc5 == 6 && (0 || (1 && A[0]))) || (pc5 == 7 && (0 || (1 && A[1])))) -> A[5] = 0; changed = 1
			:: else -> skip fi;
			if :: A[6] && !(0 || (pc6 == 0 && (0 || (1 && A[2]))) || (pc6 == 1 && (0 || (1 && A[3]))) || (pc6 == 2 && (0 || (1 && A[5]))) || (pc6 == 3 && (0 || (1 && A[7]))) || (pc6 == 4 && (0 || (1 && A[5]))) || (pc6 == 5 && (0 || (1 && A[7]))) || (pc6 == 6 && (0 || (1 && A[2]))) || (pc6 == 7 && (0 || (1 && A[3])))) -> A[6] = 0; changed = 1
			:: else -> skip fi;
			if :: A[7] && !(0 || (pc7 == 0 && (0 || (1 && A[4]))) || (pc7 == 1 && (0 || (1 && A[5]))) || (pc7 == 2 && (0 || (1 && A[6]))) || (pc7 == 3 && (0 || (1 && A[5]))) || (pc7 == 4 && (0 || (1 && A[6]))) || (pc7 == 5 && (0 || (1 && A[4])))) -> A[7] = 0; changed = 1
			:: else -> skip fi;
			if :: !changed -> break :: else -> skip fi
		od;
		if
		:: kind >= 5 -> skip
		:: (0 || A[0] || A[1] || A[2] || A[3] || A[4] || A[5] || A[6] || A[7]) -> if :: kind < 4 -> kind = 4 :: else -> skip fi
		:: else ->
			/* the stuck processes that wait in vain for all they
			 * need, and how many of them wait to send */
			rooted = S[0] && !(0 || (pc0 == 0 && (0 || (1 && (!E[5] && (0 || pc5 == 0))))) || (pc0 == 1 && (0 || (1 && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5 || pc5 == 6))))));
			if :: rooted -> nroots++; if :: (0 || pc0 == 0) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[1] && !(0 || (pc1 == 0 && (0 || (1 && (!E[5] && (0 || pc5 == 0 || pc5 == 1))))) || (pc1 == 1 && (0 || (1 && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5 || pc5 == 6 || pc5 == 7))))));
			if :: rooted -> nroots++; if :: (0 || pc1 == 0) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[2] && !(0 || (pc2 == 0 && (0 || (1 && (!E[6] && (0 || pc6 == 0))))) || (pc2 == 1 && (0 || (1 && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5 || pc6 == 6))))));
			if :: rooted -> nroots++; if :: (0 || pc2 == 0) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[3] && !(0 || (pc3 == 0 && (0 || (1 && (!E[6] && (0 || pc6 == 0 || pc6 == 1))))) || (pc3 == 1 && (0 || (1 && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5 || pc6 == 6 || pc6 == 7))))));
			if :: rooted -> nroots++; if :: (0 || pc3 == 0) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[4] && !(0 || (pc4 == 0 && (0 || (1 && (!E[7] && (0 || pc7 == 0))))) || (pc4 == 1 && (0 || (1 && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3 || pc7 == 4 || pc7 == 5))))));
			if :: rooted -> nroots++; if :: (0 || pc4 == 0) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[5] && !(0 || (pc5 == 0 && (0 || (1 && (!E[0] && (0 || pc0 == 0))))) || (pc5 == 1 && (0 || (1 && (!E[1] && (0 || pc1 == 0))))) || (pc5 == 2 && (0 || (1 && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4))))) || (pc5 == 3 && (0 || (1 && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3))))) || (pc5 == 4 && (0 || (1 && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2))))) || (pc5 == 5 && (0 || (1 && (!E[7] && (0 || pc7 == 0 || pc7 == 1))))) || (pc5 == 6 && (0 || (1 && (!E[0] && (0 || pc0 == 0 || pc0 == 1))))) || (pc5 == 7 && (0 || (1 && (!E[1] && (0 || pc1 == 0 || pc1 == 1))))));
			if :: rooted -> nroots++; if :: (0 || pc5 == 2 || pc5 == 3 || pc5 == 6 || pc5 == 7) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[6] && !(0 || (pc6 == 0 && (0 || (1 && (!E[2] && (0 || pc2 == 0))))) || (pc6 == 1 && (0 || (1 && (!E[3] && (0 || pc3 == 0))))) || (pc6 == 2 && (0 || (1 && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4))))) || (pc6 == 3 && (0 || (1 && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2 || pc7 == 3 || pc7 == 4))))) || (pc6 == 4 && (0 || (1 && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2))))) || (pc6 == 5 && (0 || (1 && (!E[7] && (0 || pc7 == 0 || pc7 == 1 || pc7 == 2))))) || (pc6 == 6 && (0 || (1 && (!E[2] && (0 || pc2 == 0 || pc2 == 1))))) || (pc6 == 7 && (0 || (1 && (!E[3] && (0 || pc3 == 0 || pc3 == 1))))));
			if :: rooted -> nroots++; if :: (0 || pc6 == 2 || pc6 == 3 || pc6 == 6 || pc6 == 7) -> sends++ :: else -> skip fi
			:: else -> skip fi;
			rooted = S[7] && !(0 || (pc7 == 0 && (0 || (1 && (!E[4] && (0 || pc4 == 0))))) || (pc7 == 1 && (0 || (1 && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3 || pc5 == 4 || pc5 == 5))))) || (pc7 == 2 && (0 || (1 && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3 || pc6 == 4 || pc6 == 5))))) || (pc7 == 3 && (0 || (1 && (!E[5] && (0 || pc5 == 0 || pc5 == 1 || pc5 == 2 || pc5 == 3))))) || (pc7 == 4 && (0 || (1 && (!E[6] && (0 || pc6 == 0 || pc6 == 1 || pc6 == 2 || pc6 == 3))))) || (pc7 == 5 && (0 || (1 && (!E[4] && (0 || pc4 == 0 || pc4 == 1))))));
			if :: rooted -> nroots++; if :: (0 || pc7 == 1 || pc7 == 2 || pc7 == 5) -> sends++ :: else -> skip fi
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
