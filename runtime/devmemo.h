/* devmemo.h - the device query's answer kept on disk, for the next process on the
 * same machine.
 *
 * Why: the driver's start costs about 0.25 s per GPU it sees (cuInit, measured on H100s:
 * 0.2 s with one GPU visible, 1.0 s with four; docs/results/2026-11-27g-gpu.md), and
 * every run paid it once for the query (runtime/devices.c) before its workers paid it
 * again. What the query reads (names, compute capability, SM count, occupancy limits,
 * L2 size) does not change while the machine does not: the answer is kept under a key
 * that names the machine as seen without starting the driver, and is used again only
 * under the same key.
 *
 * The key (devmemo_key): the kernel driver's version text, the host's name (nodes that
 * share a home folder keep a memo each), every GPU's information file (model, UUID, bus,
 * exclusion) under /proc/driver/nvidia/gpus, the names under
 * /proc/driver/nvidia/capabilities (MIG instances appear there), and the environment
 * that changes which devices CUDA shows and in what order (CUDA_VISIBLE_DEVICES,
 * CUDA_DEVICE_ORDER). No key (no NVIDIA kernel driver here, or no GPU's information
 * file to read, as in some containers) means no memo.
 *
 * The file (devmemo_save, devmemo_load): JSON, `devices-<hash of the key>.json` in the
 * compile cache's folder, written atomically; the key is stored whole and compared, and
 * every field is checked when read (a damaged, edited or foreign file is a miss, never
 * an answer). Only answers in which the driver read every device are kept.
 *
 * The safety net: each GPU worker reads its own device's attributes after its driver
 * starts and compares them with the answer the run used (tuner/gw_main.c); a difference
 * stops the run and removes the memo (devmemo_forget).
 *
 * Runs in the calling process; nothing here starts the driver. */
#ifndef CUTUNE_RUNTIME_DEVMEMO_H
#define CUTUNE_RUNTIME_DEVMEMO_H

#include "../base/strbuf.h"
#include "devices.h"

/* devmemo_key: the machine's key (above) into *out, read under `proc` (the /proc
 * folder: "/proc", or a test's stand-in). Returns 0, or -1 when there is none: no
 * NVIDIA driver version file, no GPU information file, a file past 64 KiB, or out of
 * memory. */
int devmemo_key(const char *proc, strbuf *out);

/* devmemo_path: the memo file for `key` in folder `dir`, as a heap string (caller
 * frees); NULL when out of memory or the path would not fit PATH_MAX. */
char *devmemo_path(const char *dir, const char *key);

/* devmemo_save: keeps `answer` under `key` at `path` (atomically; the folder is
 * created). Only an answered query with every device read, at most DEVICES_ASKED
 * devices, is kept. Returns 0, or -1 (not kept: nothing to keep, or the file could not
 * be written; errno says which for the latter). */
int devmemo_save(const char *path, const char *key, const devices *answer);

/* devmemo_load: the answer kept at `path` under `key` into *out. Returns 0 when the
 * file holds an answer under exactly this key with every field in range; -1 otherwise
 * (no file, another key, not cutune's, damaged), *out then zeroed. */
int devmemo_load(const char *path, const char *key, devices *out);

/* devmemo_same_device: whether two answers for one device agree in every field the
 * query reads (name, compute capability, SM count, limits, L2). */
bool devmemo_same_device(const drv_device *a, const drv_device *b);

#endif
