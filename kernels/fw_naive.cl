// Naive Floyd-Warshall, one launch per k (the seeds' baseline):
// d(i,j) = min(d(i,j), d(i,k) + d(k,j)) in place. In place is exact because row k and
// column k do not change during step k while d(k,k) >= 0; with a negative cycle the
// result only has to show a negative diagonal, and NORM keeps every value safe.
// The global size is n rounded up to WG in each dimension; no padding of the matrix.

#ifndef WG
#define WG 16 // work-group edge: WG x WG work-items, one element each
#endif

__kernel __attribute__((reqd_work_group_size(WG, WG, 1)))
void fw_naive(const int n, const int k, __global value_t* d) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j >= n) return;
  const size_t ij = (size_t)i * n + j;
  const value_t s = d[(size_t)i * n + k] + d[(size_t)k * n + j];
  if (s < d[ij]) d[ij] = NORM(s);
}
