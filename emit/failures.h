/* failures.h - where a run's failed variants lie in its space (prefix failures_), for
 * the account (account.c) and the report: when several variants did not compile, gave
 * wrong answers, or failed on the GPU, and they share values the others do not all
 * share, one line names those values. A region of the space that fails together points
 * at its cause (a kernel's bug for some tile shapes, a compiler's fault at some unroll
 * factors) before anyone reads the results file. */
#ifndef CUTUNE_EMIT_FAILURES_H
#define CUTUNE_EMIT_FAILURES_H

#include "../base/strbuf.h"
#include "../results/result.h"

/* failures_where: appends to `sb` a line for the variants of `r` that did not compile
 * (against every variant given to the compiler), one for those that ran wrong and one for
 * those that failed on the GPU (a launch error, a crash, a time-out, a module the driver
 * refused; both against every variant that ran), each only when there are two or more
 * and some param takes fewer values among them than among the others: "the 648 wrong
 * variants all have block_x 17 of its 32 values (32 to 576), stage 1, unroll 3 or 5; 648
 * of the 816 that ran with those values". Nothing else; out of memory, nothing (the
 * account goes on). */
void failures_where(strbuf *sb, const cutune_tune_result *r);

#endif
