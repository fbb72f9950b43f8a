/* fuzz-ir.c -- libFuzzer target for the reader of the thesis's CPN IR
 * (grammar/ir.c) and the explorer of its net (mpnet/irnet.c): every input
 * is read as an IR file; one that reads clean is explored in both send
 * modes up to 2000 states.  Run it with
 * FUZZER=tests/fuzz/fuzz-ir tests/fuzz/run.sh (seeds: tests/ir/).
 *
 * Besides the sanitizers' reports, these abort (a "crash"): a file read
 * with errors that returns a model, or one read clean that returns none. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "ir.h"
#include "irnet.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE			*null = fopen("/dev/null", "w");
	struct diag		*d = diag_new(null != NULL ? null : stderr);
	struct source		*src;
	struct ir		*ir;
	struct verify_opts	 vo = { 0 };
	struct verify_result	 r;
	struct irnet_thesis	 th[CHECK_MODES] = { { 0 } };
	int			 i;

	src = diag_load_string(d, "fuzz.ir", (const char *)data, size);
	ir = ir_parse(d, src);
	if ((ir == NULL) != (d->errors > 0))
		abort();
	if (ir != NULL) {
		vo.modes = 3;
		vo.max_states = 2000;
		vo.max_memory = 64 << 20;
		irnet_verify(ir, "fuzz", &vo, &r, th);
		for (i = 0; i < r.nmodes; i++)
			irnet_thesis_free(&th[i]);
		verify_result_free(&r);
		ir_free(ir);
	}
	diag_free(d);
	if (null != NULL)
		fclose(null);
	return 0;
}
