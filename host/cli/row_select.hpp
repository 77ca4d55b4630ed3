// --sources / --targets (DESIGN.md "Sparse graphs and rows"): vertex lists from a
// SPEC, and the |S| x |T| slice of a dense result in that order.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/matrix.hpp"

namespace ocl_sp {

// SPEC is `3,7,10-19` (0-based ids and inclusive ranges, order kept, repeats
// allowed) or `@FILE` (one id a line; blank lines and '#' comments skipped).
// UsageError naming `flag` and the bad token for an id >= n, a negative id, a
// reversed range, anything else that is not an id, an empty list, a missing file.
std::vector<int64_t> parse_vertex_spec(const std::string& spec, int64_t n, const std::string& flag);

// d's rows `rows` and columns `cols` (all when empty), row-major |rows| x |cols|.
template <typename T>
std::vector<T> select_block(const DistMatrix<T>& d, const std::vector<int64_t>& rows,
                            const std::vector<int64_t>& cols);

}  // namespace ocl_sp
