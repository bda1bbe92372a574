/* nvrtc_names.c - what compiling several template instantiations in one NVRTC program
 * saves ("compile cost"): K instantiations of a templated kernel compiled as
 * K programs of one name expression each, then as one program of K name expressions,
 * on one thread, the cubin and every lowered name fetched as cutune does. Prints both
 * times and their ratio. Not a test: it asserts nothing.
 *
 *   nvrtc_names FILE.cu ARCH NAME_EXPRESSION...       e.g. reduce.cu sm_90 'reduce<64,0,1>' ... */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Exits with NVRTC's message when a call fails (a benchmark: nothing to recover). */
static void ck(nvrtcResult r, const char *what)
{
    if (r != NVRTC_SUCCESS) {
        fprintf(stderr, "nvrtc_names: %s: %s\n", what, nvrtcGetErrorString(r));
        exit(1);
    }
}

/* The whole file as a string (exits when it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(path);
        exit(1);
    }
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        exit(1);
    }
    b[n] = 0;
    fclose(f);
    return b;
}

/* One program with the k name expressions `names`, compiled to a cubin (with the
 * resource report, as cutune asks), every lowered name fetched. */
static void compile(const char *src, const char *file, const char *arch, char **names, int k)
{
    char archopt[64];
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    const char *opts[] = {archopt, "-Xptxas", "-v"};
    nvrtcProgram p;
    ck(nvrtcCreateProgram(&p, src, file, 0, NULL, NULL), "nvrtcCreateProgram");
    for (int i = 0; i < k; i++)
        ck(nvrtcAddNameExpression(p, names[i]), "nvrtcAddNameExpression");
    ck(nvrtcCompileProgram(p, 3, opts), "nvrtcCompileProgram");
    size_t n;
    ck(nvrtcGetCUBINSize(p, &n), "nvrtcGetCUBINSize");
    char *cubin = malloc(n);
    if (!cubin)
        exit(1);
    ck(nvrtcGetCUBIN(p, cubin), "nvrtcGetCUBIN");
    for (int i = 0; i < k; i++) {
        const char *lowered;
        ck(nvrtcGetLoweredName(p, names[i], &lowered), "nvrtcGetLoweredName");
    }
    free(cubin);
    ck(nvrtcDestroyProgram(&p), "nvrtcDestroyProgram");
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: nvrtc_names FILE.cu ARCH NAME_EXPRESSION...\n");
        return 2;
    }
    char *src = slurp(argv[1]);
    char **names = argv + 3;
    int k = argc - 3;
    compile(src, argv[1], argv[2], names, 1); /* NVRTC's own start-up, not counted */
    double t = now();
    for (int i = 0; i < k; i++)
        compile(src, argv[1], argv[2], names + i, 1);
    double apart = now() - t;
    t = now();
    compile(src, argv[1], argv[2], names, k);
    double together = now() - t;
    printf("%s, %d instantiations on one thread: %d programs %.3f s (%.3f s each), one program %.3f s "
           "(%.3f s each): %.2fx less NVRTC time\n",
           argv[1], k, k, apart, apart / k, together, together / k, apart / together);
    free(src);
    return 0;
}
