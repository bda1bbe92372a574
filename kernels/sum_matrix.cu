// sum_matrix.cu - the seeds' 2-D matrix add (sumMatrix2D), C = A + B on an nx x ny
// row-major matrix, with each thread adding TILE_Y rows (work per thread).
//
// Tunables: the block shape comes from the launch (blockDim); TILE_Y is a -D macro.
// Thread (x, y) of block (bx, by) adds the elements at column bx*blockDim.x + x of
// rows (by*blockDim.y*TILE_Y + y) + t*blockDim.y for t in 0..TILE_Y-1, so a block covers
// blockDim.x columns and blockDim.y*TILE_Y rows; the grid is cdiv(nx, blockDim.x) by
// cdiv(ny, blockDim.y*TILE_Y). Consecutive threads touch consecutive addresses, so
// every access is coalesced whatever the tunables.
#ifndef TILE_Y
#define TILE_Y 1
#endif

extern "C" __global__ void sum_matrix(const float *__restrict__ A, const float *__restrict__ B,
                                      float *__restrict__ C, int nx, int ny)
{
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    const int iy0 = blockIdx.y * blockDim.y * TILE_Y + threadIdx.y;
    if (ix >= nx)
        return;
#pragma unroll
    for (int t = 0; t < TILE_Y; ++t) {
        const int iy = iy0 + t * (int)blockDim.y;
        if (iy < ny) {
            const size_t i = (size_t)iy * (size_t)nx + (size_t)ix;
            C[i] = A[i] + B[i];
        }
    }
}
