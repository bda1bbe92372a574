/* cubin.h - what a cubin's bytes say about how its kernels will run.
 *
 * Two variants that differ only in a compile option that does not bind (a register cap
 * above what the kernel uses, say) compile to cubins that are not byte-identical: the
 * toolkit's note records the command line, and each kernel's attributes record the cap
 * asked for. Their machine code, register counts, constant banks and shared memory are
 * the same, so, launched the same way, they are the same experiment. cubin_code_digest
 * tells such cubins apart from really different ones. */
#ifndef CUTUNE_RUNTIME_CUBIN_H
#define CUTUNE_RUNTIME_CUBIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct cubin_digest {
    uint64_t lo, hi; /* XXH3-128 */
} cubin_digest;

/* cubin_code_digest: a digest of everything in `cubin` that decides how its kernels
 * run: every section's name, type, flags, info, link and bytes (the code, the symbol
 * table, relocations, constant banks, shared-memory sections, the global and per-kernel
 * attributes), leaving out only (1) the section .note.nv.tkinfo, which records the tool
 * versions and the command line, and (2) inside .nv.info.* sections, the
 * EIATTR_MAXREG_COUNT attribute: the -maxrregcount cap asked for, a hint to ptxas that
 * is spent once the code is generated; the registers the code uses (EIATTR_REGCOUNT)
 * are kept. Equal digests: the same machine code with the same resources. 0, or -1 when
 * `cubin` is not a well-formed little-endian ELF64 whose section table and .nv.info
 * records lie inside it (then nothing may be assumed about it). Never reads outside
 * [cubin, cubin + size). */
int cubin_code_digest(const unsigned char *cubin, size_t size, cubin_digest *out);

#endif
