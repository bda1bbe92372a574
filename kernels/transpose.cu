// transpose.cu - matrix transpose, naive and through a shared-memory tile with and
// without padding (seed 002: shared memory banks, bank conflicts, padding).
//
// `in` is ny rows of nx floats (row-major); `out` is nx rows of ny floats, and
// out[x * ny + y] = in[y * nx + x]. A block of (TILE, ROWS) threads handles a TILE x TILE
// tile, each thread TILE / ROWS elements ROWS rows apart; the grid is
// (cdiv(nx, TILE), cdiv(ny, TILE)).
//
// Template arguments:
//   VARIANT 0 naive_row  reads rows of `in` (coalesced), writes columns of `out` (ny floats apart)
//           1 naive_col  reads columns of `in` (nx floats apart), writes rows of `out` (coalesced)
//           2 shared     reads rows into a shared tile, writes rows of `out` from the tile's
//                        columns: both global accesses coalesced
//   TILE    the tile's side: 16, 32 or 64
//   ROWS    the block's rows (threads in y): TILE / ROWS elements per thread
//   PAD     columns of padding in the shared tile (0 or 1; used by VARIANT 2 only). Without
//           it, the TILE threads of a warp reading one tile column hit addresses TILE floats
//           apart, in the same bank when TILE is a multiple of 32 (a 32-way conflict); with
//           one extra column they fall in different banks.
template <int VARIANT, int TILE, int ROWS, int PAD>
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    static_assert(TILE % ROWS == 0, "ROWS must divide TILE");
    const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
    const int tx = threadIdx.x, ty = threadIdx.y;

    if (VARIANT == 0) {
        const int x = bx + tx;
#pragma unroll
        for (int k = 0; k < TILE; k += ROWS) {
            const int y = by + ty + k;
            if (x < nx && y < ny)
                out[(size_t)x * ny + y] = in[(size_t)y * nx + x];
        }
    } else if (VARIANT == 1) {
        const int y = by + tx;
#pragma unroll
        for (int k = 0; k < TILE; k += ROWS) {
            const int x = bx + ty + k;
            if (x < nx && y < ny)
                out[(size_t)x * ny + y] = in[(size_t)y * nx + x];
        }
    } else {
        __shared__ float tile[TILE][TILE + PAD];
        {
            const int x = bx + tx;
#pragma unroll
            for (int k = 0; k < TILE; k += ROWS) {
                const int y = by + ty + k;
                if (x < nx && y < ny)
                    tile[ty + k][tx] = in[(size_t)y * nx + x];
            }
        }
        __syncthreads();
        {
            const int y = by + tx; // a column of `out`
#pragma unroll
            for (int k = 0; k < TILE; k += ROWS) {
                const int x = bx + ty + k; // a row of `out`
                if (x < nx && y < ny)
                    out[(size_t)x * ny + y] = tile[tx][ty + k];
            }
        }
    }
}

// The reference: one element per thread, block (32, 8), grid (cdiv(nx, 32), cdiv(ny, 8)).
// Written for obviousness, not speed.
extern "C" __global__ void transpose_reference(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (x < nx && y < ny)
        out[(size_t)x * ny + y] = in[(size_t)y * nx + x];
}
