// The paper's (min,+) squaring kernel (seeds/003): C = A (x) A, C(i,j) = min_k A(i,k) + A(k,j).
// Banded NDRange: global {D*WG, D*WG}, local {WG, WG}; the work-group (bx, by) owns
// the WG-high band of rows of A and the WG-wide band of columns of B = A, and walks
// them as a checkerboard of WG x WG tiles staged in __local As / Bs, stepping k by WG.
// Each work-item keeps its running minimum in a register and writes C once.
// The host pads n to a multiple of WG (isolated padded vertices), so no bounds checks.

#ifndef WG
#define WG 16 // work-group edge T (4, 8, 16 or 32): tiles are WG x WG, one work-item per C element
#endif

__kernel __attribute__((reqd_work_group_size(WG, WG, 1)))
void minplus_square(const int n,                  // padded order, a multiple of WG
                    __global const value_t* A,
                    __global value_t* C,
                    __global int* changed,        // changed[slot] = 1 if any C(i,j) != A(i,j)
                    const int slot) {
  __local value_t As[WG][WG];
  __local value_t Bs[WG][WG];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_group_id(0) * WG + tx;
  const int row = get_group_id(1) * WG + ty;
  __global const value_t* a_row = A + (size_t)row * n;  // this item's row of A
  __global const value_t* b_col = A + col;              // this item's column of B = A
  value_t best = INF;
  for (int k0 = 0; k0 < n; k0 += WG) {
    As[ty][tx] = a_row[k0 + tx];                // tile of the row band
    Bs[ty][tx] = b_col[(size_t)(k0 + ty) * n];  // tile of the column band
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < WG; ++k) best = min(best, As[ty][k] + Bs[k][tx]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  best = NORM(best);  // operands were stored normalised, so only the final value needs it
  C[(size_t)row * n + col] = best;
  if (best != a_row[col]) changed[slot] = 1;  // plain store: every writer writes the same 1
}
