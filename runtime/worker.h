/* worker.h - the GPU worker process: a child forked to do every CUDA call (CUDA does not
 * survive a fork, so the tuner and the device queries never initialise it themselves),
 * the pipes to it, deadlines, and the one codec of the messages it exchanges.
 *
 * Frames: a 32-bit length (at most WK_FRAME_MAX), then the fields in order: 64-bit
 * integers, doubles, length-prefixed strings and byte strings, native byte order (both
 * ends are the same binary on the same machine). Each message is a struct whose fields
 * are listed once, in a table in worker.c that both encoding and decoding walk.
 *
 * Two files: worker.c, the codec (frames built and read, the messages' tables);
 * worker_proc.c, the pipes and the processes (wk_send, wk_recv, from wk_start to
 * wk_release and wk_end). Knows nothing of specs or of CUDA: what the child does is the
 * caller's `wk_body`. */
#ifndef CUTUNE_RUNTIME_WORKER_H
#define CUTUNE_RUNTIME_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../base/arena.h"
#include "../base/strbuf.h"
#include "compile.h"
#include "outcome.h"

#define WK_FRAME_MAX (1u << 30) /* a frame longer than this is refused (1 GiB) */

/* A frame being written or read. Owns `buf`; wk_frame_free releases it. */
typedef struct wk_frame {
    strbuf buf;
    size_t at; /* read position */
    bool bad;  /* a read ran past the end, or a value was out of range */
} wk_frame;

#define WK_FRAME_INIT \
    { \
        STRBUF_INIT, 0, false \
    }

/* wk_frame_reset: empty, ready to be written or received into. */
void wk_frame_reset(wk_frame *f);
/* wk_frame_free: releases the buffer; the frame may be reused after wk_frame_reset. */
void wk_frame_free(wk_frame *f);

/* wk_send: writes the frame to fd. 0, or -1 (a write failed, the frame is longer than
 * WK_FRAME_MAX, or it ran out of memory while being built). */
int wk_send(int fd, const wk_frame *f);

/* wk_recv: reads one frame from fd by `deadline` (sys_seconds; 0: wait forever) into f
 * (reset first). 0; -1 on EOF, an error or a length over WK_FRAME_MAX; -2 on timeout. */
int wk_recv(int fd, wk_frame *f, double deadline);

/* ---- messages: encode appends to the frame; decode reads the whole frame, copying
 * strings and bytes into `a`, and returns 0, or -1 when the frame is short, has bytes
 * left over, or holds an array longer than its limit. */

/* A message is a struct described by a table of its fields, which wk_encode and
 * wk_decode both walk in order: each field's kind and offset (and, for an array or
 * bytes, the offset of its count). The messages below have their tables in worker.c;
 * a caller may describe its own (tuner/reply.c: the GPU worker's reply, made from the
 * one list of a measurement's fields). */
typedef enum wk_kind {
    WK_U64,     /* uint64_t */
    WK_I64,     /* int64_t */
    WK_INT,     /* int */
    WK_BOOL,    /* bool */
    WK_F64,     /* double */
    WK_OUTCOME, /* outcome: a number outside the enum decodes as OUTCOME_NOT_RUN */
    WK_STR,     /* const char * (NULL is sent as "") */
    WK_BYTES,   /* const unsigned char *, its size_t size at `n` */
    WK_STRS,    /* const char **, their int count at `n` */
    WK_F64S,    /* const double *, their int count at `n` */
    WK_VALUES,  /* const wk_value *, their int count at `n`: each its type, then its payload */
} wk_kind;

typedef struct wk_field {
    wk_kind k;
    size_t off, n;
} wk_field;

#define WK_F(k, type, member) \
    { \
        k, offsetof(type, member), 0 \
    }
#define WK_FN(k, type, member, count) \
    { \
        k, offsetof(type, member), offsetof(type, count) \
    }

/* wk_encode: appends msg's fields (the n of table fs) to the frame. wk_decode: reads
 * the whole frame into msg, strings and arrays copied into `a` (0 or -1, as above). */
void wk_encode(wk_frame *f, const wk_field *fs, size_t n, const void *msg);
int wk_decode(wk_frame *f, arena *a, const wk_field *fs, size_t n, void *msg);

/* The worker's answer to its start: set-up done (or why not). */
typedef struct wk_setup {
    bool ok;
    double ref_seconds;    /* GPU time the set-up spent (the reference's run) */
    const char *message;   /* why it failed ("" when ok) */
    const char *reference; /* what outputs are checked against ("" when nothing is) */
    int status;            /* when !ok: the caller's status for the failure, as the worker
                                  knows it (a device that would not open, a reference that
                                  failed); the tuner passes it up unchanged */
    /* where the set-up's time went, each step timed in the worker: the driver, device and
     * buffers opened; compiles (the resets', the checker's, the reference's kernels); the
     * inputs made; the reference's run otherwise (its outputs kept) */
    double device_s, compile_s, inputs_s, reference_s;
} wk_setup;

/* A param's value as a request carries it: typed, never as text (the runtime knows no
 * spec: the tuner's configuration made plain, tuner/gpu.c, and the worker's again,
 * tuner/gw_main.c). A decoded type is always one of the four. */
typedef struct wk_value {
    char type;     /* 'i' an integer, 'f' a double, 'b' a boolean, 's' a string */
    int64_t i;     /* 'i'; 'b': 0 or 1 */
    double f;      /* 'f' */
    const char *s; /* 's' */
} wk_value;

/* One binary to run, with its configuration. */
typedef struct wk_request {
    uint64_t ordinal;
    int64_t block[3], grid[3], smem_bytes;
    int nvalues; /* the configuration: each param's value, typed */
    const wk_value *values;
    const char *symbol;
    const unsigned char *cubin;
    size_t cubin_size;
    bool have_best; /* the best objective so far (early stopping) */
    double best_objective;
    bool final;   /* time it in full, no early stop (the run's final race) */
    bool profile; /* read its hardware counters instead (bench_profile): not
                                  verified, not timed; the reply (tuner/reply.h) has its counters */
    /* with final and have_best: after `samples` (> 0) warm samples, it stops, pruned,
     * when clearly behind best_objective, or pruned and tied when level with it, whose
     * own noise in the objective is best_range (the final race's screening; 0: never) */
    int samples;
    double best_range;
} wk_request;

#define WK_MAX_ARRAY 100000 /* the most strings or metrics a message may carry */

void wk_encode_setup(wk_frame *f, const wk_setup *m);
int wk_decode_setup(wk_frame *f, arena *a, wk_setup *m);
void wk_encode_request(wk_frame *f, const wk_request *m);
int wk_decode_request(wk_frame *f, arena *a, wk_request *m);

/* A compile job for a compile worker process (runtime/pool): compile_job's fields,
 * the options included. Decoded strings live in `a`. */
void wk_encode_compile_job(wk_frame *f, const compile_job *m);
int wk_decode_compile_job(wk_frame *f, arena *a, compile_job *m);

/* A compile worker's answer: whether NVRTC ran (compile_run's 0), its error when it did
 * not, and the output: ok, log, lowered name, cubin bytes, resources, seconds (`cached`
 * is not sent). Decoded strings and bytes live in `a`, not in compile_output's heap
 * storage: copy them out before compile_output_free could see them. */
typedef struct wk_compiled {
    bool nvrtc_ran;
    const char *error; /* "" when nvrtc_ran */
    compile_output out;
} wk_compiled;

void wk_encode_compiled(wk_frame *f, const wk_compiled *m);
int wk_decode_compiled(wk_frame *f, arena *a, wk_compiled *m);

/* An opaque block of `size` bytes (a struct of the same binary: the device query's
 * answer). Decoding copies it to out and fails unless the frame holds exactly that. */
void wk_encode_blob(wk_frame *f, const void *p, size_t size);
int wk_decode_blob(wk_frame *f, void *out, size_t size);

/* ---- the process ---------------------------------------------------------------- */

/* What the child runs: it reads requests from `in` and writes replies to `out`, and
 * returns its exit status (it then ends through wk_end; it never returns to the
 * caller). */
typedef int (*wk_body)(void *ctx, int in, int out);

/* A running worker; pid 0 when none. The tuner's end of the pipes is owned here. */
typedef struct wk_proc {
    pid_t pid;
    int to, from;
} wk_proc;

/* wk_start: forks a child that ignores SIGINT and SIGTERM (Ctrl-C, or a SIGTERM sent to
 * the process group by `timeout` or a batch scheduler, is the parent's to handle: it
 * finishes the variant in hand and ends its workers), has
 * SIGPIPE's default action and runs body(ctx, in, out), with the parent's ends of the
 * other workers' pipes closed (so each worker sees EOF when the parent closes its own
 * pipe, whatever it started since). Safe to call from several threads. The child inherits the caller's
 * memory as it is. 0, or -1 with err_last set (pipes or fork failed; nothing is left open). */
int wk_start(wk_proc *p, wk_body body, void *ctx);

/* wk_exchange: sends f to the worker and receives its reply into f within limit_s
 * seconds of the send (<= 0: no limit). 0, -1 (it died, or the pipe failed), -2 (no
 * reply in time). The worker is left running in every case. */
int wk_exchange(wk_proc *p, wk_frame *f, double limit_s);

/* wk_stop: closes the pipe to the worker (an idle one exits on EOF), kills it first when
 * `force`, and reaps it. Returns its wait status, or -1 when none ran. */
int wk_stop(wk_proc *p, bool force);

/* wk_ask_stop: wk_stop's first half: closes the pipe to the worker and kills it when
 * `force`, without waiting; its wk_stop then only reaps it. Several workers asked first
 * and reaped after end at once: each one's end (a GPU context torn down) is not
 * waited for behind another's. No-op when none runs or it was asked already. */
void wk_ask_stop(wk_proc *p, bool force);

/* wk_release: ends the worker without waiting for its end: the pipe to it closed (an
 * idle worker exits on EOF; killed first when `force`); unless forced, its own close of
 * the pipe from it awaited (wk_end: its standard streams are let go by then; at most
 * a second), then that pipe closed and its reaping handed to a thread of this process
 * that waits for it alone, so that the caller goes on at once and no zombie is left. A GPU worker's end is the driver
 * tearing its context down at its exit, a tenth of a second or more that nothing
 * measured depends on. Its wait status is not kept: release only a worker whose every
 * answer has been read (or one killed). When no thread can be started, it is reaped
 * here, as wk_stop would. No-op when none runs. */
void wk_release(wk_proc *p, bool force);

/* wk_wait_released: waits until every worker this process released has been reaped
 * (its end complete: a GPU's memory and context given back), so that what starts next
 * on its GPU never finds them still held. */
void wk_wait_released(void);

/* wk_released_pending: how many released workers are not yet reaped (for tests). */
int wk_released_pending(void);

/* wk_drop_stdio: points the calling process's standard input, output and error at
 * /dev/null. In a worker about to end: it then holds none of its caller's pipes, so that
 * whoever reads the caller's output (a shell's $(...), ctest, CMake) sees its end
 * without waiting for the worker's. */
void wk_drop_stdio(void);

/* wk_end: a worker's end, from inside it (out: its pipe to the caller): its standard
 * streams let go (wk_drop_stdio), then `out` closed, which tells wk_release that they
 * are, then _exit(status). Every worker ends through it (wk_start calls it when the body
 * returns; a body may call it itself). */
_Noreturn void wk_end(int out, int status);

/* wk_wait_any: waits until one of fds[0 .. n) (n <= 64; workers' `from` ends) has
 * something to read or has been closed, by `deadline` (sys_seconds; 0: for ever).
 * Returns its index (the first when several are), -2 at the deadline, -1 on an error. */
int wk_wait_any(const int *fds, int n, double deadline);

/* wk_describe: "signal N (name)" or "exit status N" for a wait status. */
void wk_describe(int status, char *buf, size_t size);

#endif
