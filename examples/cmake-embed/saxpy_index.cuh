// saxpy_index.cuh - which elements a thread of saxpy handles (included by saxpy_kernel.cuh,
// so the tuning step depends on it too).
#ifndef SAXPY_INDEX_CUH
#define SAXPY_INDEX_CUH

// saxpy_element: the k-th of the `items` elements thread `t` of block `b` (of `threads`
// threads) handles; consecutive threads take consecutive elements, so loads coalesce.
__device__ __forceinline__ int saxpy_element(int b, int t, int threads, int items, int k)
{
    return b * threads * items + k * threads + t;
}

#endif
