// The int32 store rule (ValueTraits<int32_t>::norm) that every solver and kernel
// applies: INF stays INF under any sum with a stored value, and no sum overflows.
#include <doctest/doctest.h>

#include <climits>

#include "graph/matrix.hpp"

using ocl_sp::ValueTraits;

TEST_SUITE("values") {
  TEST_CASE("INF plus the lowest clamped value still normalises to INF") {
    using V = ValueTraits<int32_t>;
    const int32_t lowest = V::norm(INT_MIN / 2);  // what a runaway negative cycle stores
    CHECK(lowest == V::lowest);
    CHECK(V::norm(V::inf + lowest) == V::inf);  // was finite with a clamp at -2^29
    CHECK(V::norm(V::inf + V::inf) == V::inf);
    CHECK(V::norm(lowest + lowest) == lowest);
    // Every true finite value (|d| < 2^29) passes unchanged.
    CHECK(V::norm(V::finite_limit - 1) == V::finite_limit - 1);
    CHECK(V::norm(-(V::finite_limit - 1)) == -(V::finite_limit - 1));
    CHECK(V::norm(V::finite_limit) == V::inf);
  }
}
