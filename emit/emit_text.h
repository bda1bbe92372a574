/* emit_text.h - what `cutune list`, `analyze`, `simulate`, `check`, `occupancy` and
 * `devices` print on stdout in their CSV and JSON forms (emit_rows.c, emit_sim.c,
 * emit_summary.c), made here so that an
 * application gets the same text through the public API (cutune/emit.h, analyze.h,
 * simulate.h) as the CLI prints. The field lists are documented in docs/cli.md.
 *
 * CSV goes through the one CSV escaper (base/csv.h: RFC 4180 quoting, formula-safe);
 * a row is returned without its line end (the caller writes it). JSON is made with
 * jansson, keys in the order written here.
 *
 * Ownership: each returns a heap string in *out that the caller frees (free, or
 * cutune_free at the API); *out is NULL on failure. Every function returns CUTUNE_OK
 * or CUTUNE_ENOMEM; they set no error object (the API does). */
#ifndef CUTUNE_EMIT_EMIT_TEXT_H
#define CUTUNE_EMIT_EMIT_TEXT_H

#include "cutune.h"

/* emit_variant_json: variant v of `spec` as one compact JSON object: index, params
 * (named by the spec, typed), block, grid, smem_bytes, kernel, defines, options. */
int emit_variant_json(char **out, const cutune_spec *spec, const cutune_variant *v);

/* emit_variant_csv: v as one CSV row: index, a value per param, block.x .. z,
 * grid.x .. z, smem_bytes, kernel, defines, options (the last two space-separated);
 * v NULL: the header row, the params named by `spec`. */
int emit_variant_csv(char **out, const cutune_spec *spec, const cutune_variant *v);

/* emit_analysis_json: a's variant as emit_variant_json's object, then compiled, log,
 * the resources (when a has them), occupancy (when known), launchable, why,
 * compile_seconds, cached, duplicate. */
int emit_analysis_json(char **out, const cutune_spec *spec, const cutune_analysis *a);

/* emit_analysis_csv: a as one CSV row: emit_variant_csv's columns, then compiled,
 * registers, static_smem, local_bytes, spill_stores, spill_loads, blocks_per_sm,
 * occupancy, limiter, launchable, why, compile_seconds, cached, duplicate; a NULL:
 * the header row. */
int emit_analysis_csv(char **out, const cutune_spec *spec, const cutune_analysis *a);

/* emit_sim_json: the simulation report r as an indented JSON object (no line end):
 * the run's settings (`results_path` replayed, `threads` compile threads), the space,
 * the true best, a "runs" array and the "ratio" summary; a number that is not finite
 * is null. */
int emit_sim_json(char **out, const cutune_sim_report *r, const char *results_path, int threads);

/* emit_space_json: the spec's summary as `check --format json` prints it (indented):
 * spec, kernel, kernel_file, params (name, type, route, count), constraints, the counts
 * of `size` (counted in `count_seconds`), search, the device attributes it reads (when
 * any) and its problem sizes (when it has a size statement). */
int emit_space_json(char **out, const cutune_spec *spec, const cutune_space_size *size, double count_seconds);

/* emit_occupancy_json: the occupancy of a block of `threads` threads x `regs` registers
 * and `smem` bytes as `occupancy --format json` prints it (indented), with the GPU
 * number `device` (-1: none, an architecture was asked). */
int emit_occupancy_json(char **out, const cutune_occupancy *occ, int device, int regs, int threads, int64_t smem);

/* emit_devices_json: devs[0 .. n) as the indented JSON array `devices --format json`
 * prints. */
int emit_devices_json(char **out, const cutune_device *devs, int n);

/* The text forms (emit_plain.c), each line ending in a line feed. emit_occupancy_text:
 * `occupancy`'s lines for occ, a block of `threads` x `regs` and `smem` bytes.
 * emit_devices_text: a line per GPU of devs[0 .. n) ("" for none). emit_sim_text:
 * `simulate`'s report of r over `results_path` with `threads` compile threads. */
int emit_occupancy_text(char **out, const cutune_occupancy *occ, int regs, int threads, int64_t smem);
int emit_devices_text(char **out, const cutune_device *devs, int n);
int emit_sim_text(char **out, const cutune_sim_report *r, const char *results_path, int threads);

#endif
