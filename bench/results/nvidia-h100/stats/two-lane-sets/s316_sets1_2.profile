profile: graph (generation or reading, matrix) 6.9 ms
profile: context + queue (NVIDIA H100 80GB HBM3) 121.8 ms
profile: program sssp.cl (cache hit) 3.2 ms
profile: after the solve (verify, output, report) 0.1 ms
profile: solver released (context, buffers) 0.0 ms
profile: matrix freed 0.0 ms
