profile: graph (generation or reading, matrix) 73.8 ms
profile: context + queue (NVIDIA H100 80GB HBM3) 120.1 ms
profile: program sssp.cl (cache hit) 4.2 ms
note: compiling kernels for NVIDIA H100 80GB HBM3 (first run; cached afterwards)
profile: program sssp.cl (cache miss) 762.4 ms
profile: after the solve (verify, output, report) 0.1 ms
profile: solver released (context, buffers) 0.0 ms
profile: matrix freed 0.0 ms
