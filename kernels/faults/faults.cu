// faults.cu - a kernel that misbehaves on purpose, one way per value of FAULT, for the
// fault suite (examples/faults.tune, issue 5): a tuner must record each fault against
// its variant with the right cause and still choose a correct, fast variant.
//
//   FAULT 0  correct: y[i] = 2 * x[i]
//   FAULT 1  writes far outside y            -> illegal address (a sticky error)
//   FAULT 2  __trap()                        -> an illegal instruction / launch failure (sticky)
//   FAULT 3  never returns                   -> a hang: only a time limit ends it
//   FAULT 4  correct, but launched with more dynamic shared memory than an SM has
//                                            -> cannot launch (the spec asks for it)
//   FAULT 5  does not compile                -> a compile error
//   FAULT 6  off by one                      -> a wrong answer
//   FAULT 7  reads a float at an odd address -> misaligned address (sticky)
#ifndef FAULT
#define FAULT 0
#endif

#if FAULT == 5
#error "deliberate compile failure (FAULT == 5)"
#endif

extern "C" __global__ void faults(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
#if FAULT == 1
    y[i + (1 << 28)] = 2.0f * x[i];   // 1 GiB past the end of a 4 MiB buffer
#elif FAULT == 2
    if (i == n / 2)
        __trap();
    y[i] = 2.0f * x[i];
#elif FAULT == 3
    // Spins on memory nothing writes: y[n - 1] stays poisoned (-1 as int bits), never
    // 0x7fffffff. The read is volatile, so the compiler must keep the loop (a spin on a
    // volatile local was seen optimised away).
    while (*(volatile int *)&y[n - 1] != 0x7fffffff)
        ;
    y[i] = 2.0f * x[i];
#elif FAULT == 6
    y[i] = 2.0f * x[i] + (i == n - 1 ? 1.0f : 0.0f);
#elif FAULT == 7
    const float *odd = (const float *)((const char *)x + 1);
    y[i] = 2.0f * odd[i];
#else
    y[i] = 2.0f * x[i];
#endif
}
