// --sources / --targets (DESIGN.md "Sparse graphs and rows"): vertex lists from a
// SPEC (the |S| x |T| slice itself: sparse/row_sink.hpp hand_rows and the file
// sink's columns).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ocl_sp {

// SPEC is `3,7,10-19` (0-based ids and inclusive ranges, order kept, repeats
// allowed) or `@FILE` (one id a line; blank lines and '#' comments skipped).
// UsageError naming `flag` and the bad token for an id >= n, a negative id, a
// reversed range, anything else that is not an id, an empty list, a missing file.
std::vector<int64_t> parse_vertex_spec(const std::string& spec, int64_t n, const std::string& flag);

}  // namespace ocl_sp
