/* trace.h - a timeline of a run across all its processes (prefix trace_): when the
 * environment variable CUTUNE_TRACE names a file, each event is one line of Chrome's
 * Trace Event Format appended to it, which Perfetto (https://ui.perfetto.dev) and
 * chrome://tracing open as it is:
 *
 *   [
 *   {"name":"driver open","cat":"cutune","ph":"B","ts":1234.567,"pid":42,"tid":42},
 *   {"name":"driver open","cat":"cutune","ph":"E","ts":1300.002,"pid":42,"tid":42},
 *
 * "B"/"E" begin and end a span on the calling thread's track, "i" is an instant (with
 * "args":{"detail":...}), "M" names a process or a track; ts is microseconds on CLOCK_MONOTONIC, the one clock every
 * process of the machine shares, so the tuner's, the GPU workers' and the compile
 * workers' events line up. The process that creates the file writes "[" first; the
 * closing "]" is never written (the format allows it to be missing, and a run killed
 * half-way leaves a file that still opens). Each line is one write() of at most
 * TRACE_LINE_MAX bytes on a descriptor opened with O_APPEND, so the lines of several
 * processes never mix inside a line.
 *
 * Unset (or empty), every call is a branch on a flag and returns: nothing is formatted,
 * nothing written. The variable is read once per process (the first call of any
 * trace_ function); a forked child shares its parent's descriptor and writes its own pid.
 * Library code never prints: a write that fails is counted (trace_failures) and
 * otherwise ignored, and a file that cannot be opened is kept as a message
 * (trace_open_error) for the caller to report.
 *
 * Knows nothing of cutune's events: their names are the callers'. State: one descriptor
 * and flag per process, set once (pthread_once), then only read; thread-safe. */
#ifndef CUTUNE_BASE_TRACE_H
#define CUTUNE_BASE_TRACE_H

#include <stdbool.h>

/* The longest line written, in bytes (under PIPE_BUF: one write, never split). */
#define TRACE_LINE_MAX 1024

/* A track of its own, for a span that is no thread's (a GPU's variants, seen from the
 * tuner): TRACE_TRACK + n is shown as thread n + TRACE_TRACK of the calling process. */
#define TRACE_TRACK 1000

/* trace_open_from_env: reads CUTUNE_TRACE (once per process; later calls only answer)
 * and opens the file it names: O_WRONLY|O_APPEND|O_CREAT|O_CLOEXEC, mode 0644, "[" and
 * a newline written first by the process that creates it (or finds it empty). Returns
 * whether events are written. */
bool trace_open_from_env(void);

/* trace_on: whether events are written (trace_open_from_env's answer): for a caller
 * that must prepare an event's text first. */
bool trace_on(void);

/* trace_begin, trace_end: a span on the calling thread's track begins, ends (its name
 * again: the viewer pairs a track's B and E in order, the name is for the reader). */
void trace_begin(const char *name);
void trace_end(const char *name);

/* trace_instant: a moment on the calling thread's track, with a detail (NULL: none). */
void trace_instant(const char *name, const char *detail);

/* trace_event: any of them: phase 'B', 'E' or 'i'; track 0 for the calling thread's,
 * else a track of its own (TRACE_TRACK + n); detail NULL or a text shown as
 * args.detail; the name formatted as printf does. Name and detail are cut to fit the
 * line (whole characters, every byte escaped as JSON requires). */
void trace_event(char phase, int track, const char *detail, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* trace_name_process, trace_name_track: the name the viewer shows for the calling
 * process ("tuner", "GPU 0 worker"), and for a track (0: the calling thread's; else
 * TRACE_TRACK + n) of it: a metadata event ("ph":"M"). */
void trace_name_process(const char *name);
void trace_name_track(int track, const char *name);

/* trace_reopen: for a forked child that closed descriptors it did not know of (a
 * compile worker): opens the file again by its name when the inherited descriptor is
 * gone. Nothing when tracing is off. */
void trace_reopen(void);

/* trace_failures: how many events this process could not write. */
unsigned long trace_failures(void);

/* trace_open_error: why the file CUTUNE_TRACE names could not be opened ("" when it
 * was, or when tracing is off). */
const char *trace_open_error(void);

#endif
