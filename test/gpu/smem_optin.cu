// smem_optin.cu - a block whose static and dynamic shared memory together pass 48 KiB:
// STATIC_KB KiB of static shared memory plus the launch's dynamic bytes. Each thread
// stages its element through both and writes it back doubled.
extern "C" __global__ void stage(int n, const float *x, float *y)
{
    __shared__ float fixed[STATIC_KB * 256];
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    fixed[threadIdx.x] = i < n ? x[i] : 0.0f;
    dyn[threadIdx.x] = fixed[threadIdx.x];
    __syncthreads();
    if (i < n)
        y[i] = 2.0f * dyn[threadIdx.x] + fixed[STATIC_KB * 256 - 1 - threadIdx.x] * 0.0f;
}
