// --sources / --targets (row_select.hpp).
#include "cli/row_select.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

namespace {

// A decimal id in [0, n): UsageError naming the token and where it came from.
int64_t parse_id(const std::string& tok, int64_t n, const std::string& where) {
  const bool negative = !tok.empty() && tok[0] == '-';
  size_t i = negative ? 1 : 0;
  if (i == tok.size()) throw UsageError(where + ": '" + tok + "' is not a vertex id");
  int64_t v = 0;
  for (; i < tok.size(); ++i) {
    if (tok[i] < '0' || tok[i] > '9') throw UsageError(where + ": '" + tok + "' is not a vertex id");
    if (v > (int64_t{1} << 50)) break;  // certainly out of range: no overflow
    v = v * 10 + (tok[i] - '0');
  }
  if (negative) throw UsageError(where + ": vertex id '" + tok + "' is negative");
  if (i < tok.size() || v >= n)
    throw UsageError(where + ": vertex '" + tok + "' is out of range [0, " + std::to_string(n) + ")");
  return v;
}

void add_token(const std::string& raw, int64_t n, const std::string& where, std::vector<int64_t>& out) {
  const std::string tok = trim(raw);
  if (tok.empty()) throw UsageError(where + ": empty item");
  // A range a-b: the dash after the first character (a leading one is a sign).
  const auto dash = tok.find('-', 1);
  if (dash == std::string::npos) {
    out.push_back(parse_id(tok, n, where));
    return;
  }
  const std::string a = trim(tok.substr(0, dash)), b = trim(tok.substr(dash + 1));
  if (b.empty()) throw UsageError(where + ": '" + tok + "' is not a vertex id or range");
  const int64_t lo = parse_id(a, n, where), hi = parse_id(b, n, where);
  if (lo > hi) throw UsageError(where + ": range '" + tok + "' is reversed (" + a + " > " + b + ")");
  for (int64_t v = lo; v <= hi; ++v) out.push_back(v);
}

}  // namespace

std::vector<int64_t> parse_vertex_spec(const std::string& spec, int64_t n, const std::string& flag) {
  std::vector<int64_t> out;
  if (!spec.empty() && spec[0] == '@') {
    const std::string path = spec.substr(1);
    std::ifstream in(path);
    if (!in) throw UsageError(flag + ": cannot open '" + path + "': " + std::strerror(errno));
    std::string line;
    for (int64_t no = 1; std::getline(in, line); ++no) {
      const auto hash = line.find('#');
      const std::string t = trim(hash == std::string::npos ? line : line.substr(0, hash));
      if (!t.empty()) out.push_back(parse_id(t, n, flag + " " + path + ": line " + std::to_string(no)));
    }
    if (out.empty()) throw UsageError(flag + ": '" + path + "' lists no vertex");
    return out;
  }
  if (trim(spec).empty()) throw UsageError(flag + ": empty vertex list");
  size_t start = 0;
  for (;;) {
    const auto comma = spec.find(',', start);
    add_token(spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start), n,
              flag, out);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace ocl_sp
