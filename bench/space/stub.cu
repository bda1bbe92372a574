// stub.cu - an empty kernel: the space benchmarks count configurations and never
// compile anything, but a spec must name an existing kernel file.
extern "C" __global__ void stub() {}
