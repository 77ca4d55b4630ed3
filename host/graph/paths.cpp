// Path expansion and checking (see paths.hpp).
#include "graph/paths.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "util/errors.hpp"
#include "util/host_threads.hpp"

namespace ocl_sp {

void size_path_vector(std::vector<int32_t>& v, size_t nn) {
  if (v.capacity() < nn) {
    std::vector<int32_t>().swap(v);  // the old block goes first
    v.reserve(nn);
#ifdef MADV_HUGEPAGE
    constexpr uintptr_t kHuge = uintptr_t{2} << 20;
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(v.data()) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t end = reinterpret_cast<uintptr_t>(v.data() + nn) & ~(kHuge - 1);
    // A hint: where the kernel declines, 4 KiB pages are used as before.
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
  }
  v.resize(nn);
}

void size_path_matrix(PathMatrix& p, int64_t n, bool hops) {
  const size_t nn = static_cast<size_t>(n) * static_cast<size_t>(n);
  p.n = n;
  size_path_vector(p.via, nn);
  if (hops)
    size_path_vector(p.hops, nn);
  else
    std::vector<int32_t>().swap(p.hops);
}

template <typename T>
PathMatrix initial_paths(const DistMatrix<T>& d) {
  PathMatrix p;
  const int64_t n = d.n();
  size_path_matrix(p, n);
  const int threads = copy_threads(static_cast<size_t>(n) * static_cast<size_t>(n) * 12);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const size_t ij = static_cast<size_t>(i * n + j);
      p.via[ij] = -1;
      p.hops[ij] = i != j && d(i, j) != ValueTraits<T>::inf ? 1 : 0;
    }
  return p;
}

namespace {

// Where expansion found the matrix inconsistent: the segment (i, j) and its via.
struct Fault {
  int64_t i = 0, j = 0;
  int32_t k = 0;
};

// Vertices of u -> v into `out` (u first, v last; empty when unreachable), with
// `stack` as scratch: both are reused across calls so checking n^2 pairs does not
// allocate per pair. Returns false (and where) on a via that does not shorten the
// hop count, which is what would make a recursive expansion loop; without hops
// (PathMatrix::with_hops false) on a segment count past 2 n (a path of at most
// n - 1 edges splits into fewer segments than that).
template <typename T>
bool expand_into(const DistMatrix<T>& d, const PathMatrix& p, int64_t u, int64_t v,
                 std::vector<int64_t>& out, std::vector<std::pair<int64_t, int64_t>>& stack,
                 Fault& fault) {
  const int64_t n = d.n();
  out.clear();
  if (u == v) {
    out.push_back(u);
    return true;
  }
  if (d(u, v) == ValueTraits<T>::inf) return true;
  out.push_back(u);
  // Segments (i, j) still to expand, the leftmost on top.
  stack.assign(1, {u, v});
  const bool hops = !p.hops.empty();
  int64_t segments = 0;
  while (!stack.empty()) {
    const auto [i, j] = stack.back();
    stack.pop_back();
    const size_t ij = static_cast<size_t>(i * n + j);
    const int32_t k = p.via[ij];
    if (k < 0) {
      out.push_back(j);
      continue;
    }
    if (k >= n || (!hops && ++segments > 2 * n)) {
      fault = {i, j, k};
      return false;
    }
    const size_t ik = static_cast<size_t>(i * n + k), kj = static_cast<size_t>(k * n + j);
    if (hops && (p.hops[ik] < 1 || p.hops[kj] < 1 || p.hops[ik] >= p.hops[ij] || p.hops[kj] >= p.hops[ij])) {
      fault = {i, j, k};
      return false;
    }
    stack.push_back({k, j});
    stack.push_back({i, k});
  }
  return true;
}

std::string describe(const Fault& f) {
  std::ostringstream m;
  m << "inconsistent path matrix at (" << f.i << ", " << f.j << "): via " << f.k;
  return m.str();
}

}  // namespace

template <typename T>
std::vector<int64_t> expand_path(const DistMatrix<T>& d, const PathMatrix& p, int64_t u,
                                 int64_t v) {
  const int64_t n = d.n();
  if (u < 0 || v < 0 || u >= n || v >= n || p.n != n ||
      p.via.size() != static_cast<size_t>(n * n) || (!p.hops.empty() && p.hops.size() != p.via.size()))
    throw RuntimeError("path query outside the matrix");
  std::vector<int64_t> out;
  std::vector<std::pair<int64_t, int64_t>> stack;
  Fault f;
  if (!expand_into(d, p, u, v, out, stack, f)) throw RuntimeError(describe(f));
  return out;
}

template <typename T>
std::string check_paths(const DistMatrix<T>& w, const DistMatrix<T>& d, const PathMatrix& p) {
  const int64_t n = d.n();
  const size_t nn = static_cast<size_t>(n * n);
  if (w.n() != n || p.n != n || p.via.size() != nn || p.hops.size() != nn)
    return "path matrix of the wrong size";
  // Rows in parallel (n^2 expansions at n = 10000 are a few seconds); the problem of
  // the lowest failing row is reported, as a serial scan would.
  std::vector<std::string> problem(static_cast<size_t>(n));
  std::atomic<int64_t> first_bad{n};
#pragma omp parallel
  {
    std::vector<int64_t> path;
    std::vector<std::pair<int64_t, int64_t>> stack;
#pragma omp for schedule(dynamic, 16)
    for (int64_t i = 0; i < n; ++i) {
      if (i > first_bad.load(std::memory_order_relaxed)) continue;
      std::string& why = problem[static_cast<size_t>(i)];
      for (int64_t j = 0; j < n && why.empty(); ++j) {
        auto where = [&] {
          return "pair (" + std::to_string(i) + ", " + std::to_string(j) + "): ";
        };
        Fault f;
        if (!expand_into(d, p, i, j, path, stack, f)) {
          why = where() + describe(f);
          break;
        }
        if (d(i, j) == ValueTraits<T>::inf) {
          if (!path.empty()) why = where() + "a path for an unreachable pair";
          continue;
        }
        if (path.empty() || path.front() != i || path.back() != j) {
          why = where() + "no path";
          break;
        }
        // The solver's summation order is unknown: int32 must be exact, float32
        // within rounding of the path's length.
        double sum = 0;
        for (size_t e = 0; e + 1 < path.size(); ++e) {
          const T we = w(path[e], path[e + 1]);
          if (path[e] == path[e + 1] || we == ValueTraits<T>::inf) {
            why = where() + "edge " + std::to_string(path[e]) + " -> " +
                  std::to_string(path[e + 1]) + " is not in the graph";
            break;
          }
          sum += static_cast<double>(we);
        }
        if (!why.empty()) break;
        const double got = static_cast<double>(d(i, j));
        const bool ok = std::is_integral_v<T>
                            ? sum == got
                            : std::fabs(sum - got) <= 1e-4 * std::fmax(1.0, std::fabs(got));
        if (!ok) {
          std::ostringstream m;
          m << where() << "path length " << sum << " != distance " << got;
          why = m.str();
        }
      }
      if (!why.empty()) {
        int64_t cur = first_bad.load();
        while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
        }
      }
    }
  }
  const int64_t bad = first_bad.load();
  return bad < n ? problem[static_cast<size_t>(bad)] : "";
}

template <typename T>
int64_t repair_paths(const DistMatrix<T>& w, const DistMatrix<T>& d, PathMatrix& p) {
  const int64_t n = d.n();
  const size_t nn = static_cast<size_t>(n * n);
  if (w.n() != n || p.n != n || p.via.size() != nn || p.hops.size() != nn) return 0;
  const T inf = ValueTraits<T>::inf;
  auto at = [n](int64_t i, int64_t j) { return static_cast<size_t>(i * n + j); };
  // Fast check: every via splits into two pairs with fewer (and at least one) hops.
  bool sound = true;
#pragma omp parallel for reduction(&& : sound) schedule(static)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int32_t k = p.via[at(i, j)];
      if (k < 0) continue;
      const int32_t h = p.hops[at(i, j)], a = p.hops[at(i, k)], b = p.hops[at(k, j)];
      sound = sound && k < n && a >= 1 && b >= 1 && a < h && b < h;
    }
  if (sound) return 0;

  // Hop counts along via, depth first with an explicit stack; a pair met again
  // while its own expansion is open closes a cycle and is marked broken, as is
  // every pair whose expansion needs a broken one.
  enum : uint8_t { kNew, kOpen, kDone, kBroken };
  std::vector<uint8_t> state(nn, kNew);
  std::vector<int32_t> e(nn, 0);
  std::vector<std::pair<int64_t, int64_t>> stack;
  int64_t changed = 0;
  for (int64_t s0 = 0; s0 < n; ++s0)
    for (int64_t t0 = 0; t0 < n; ++t0) {
      if (state[at(s0, t0)] != kNew) continue;
      stack.assign(1, {s0, t0});
      while (!stack.empty()) {
        const auto [i, j] = stack.back();
        const size_t ij = at(i, j);
        const int32_t k = p.via[ij];
        if (state[ij] == kNew) {
          if (k < 0) {  // direct edge, diagonal or unreachable
            e[ij] = i == j || d(i, j) == inf ? 0 : 1;
            state[ij] = kDone;
            stack.pop_back();
            continue;
          }
          state[ij] = kOpen;
          for (const size_t half : {at(i, k), at(k, j)})
            if (state[half] == kNew) stack.push_back({half / n, half % n});
          continue;
        }
        stack.pop_back();
        if (state[ij] != kOpen) continue;  // finished through another parent
        const size_t a = at(i, k), b = at(k, j);
        const bool ok = state[a] == kDone && state[b] == kDone && e[a] >= 1 && e[b] >= 1;
        state[ij] = ok ? kDone : kBroken;
        e[ij] = ok ? e[a] + e[b] : 0;
      }
    }
  // Broken pairs take the direct edge or another k with sound halves whose lengths
  // add up to d(i,j) (float rounding allowed, relative to the operands), fewest hops
  // first; rounds until nothing moves, since a repaired pair can make another
  // repairable.
  auto close = [](double a, double b, double want) {
    const double scale =
        std::fmax(1.0, std::fmax(std::fabs(a), std::fmax(std::fabs(b), std::fabs(want))));
    return std::fabs(a + b - want) <= 1e-5 * scale;
  };
  std::vector<size_t> broken;
  for (size_t ij = 0; ij < nn; ++ij)
    if (state[ij] == kBroken) broken.push_back(ij);
  for (bool progress = true; progress && !broken.empty();) {
    progress = false;
    std::vector<size_t> left;
    for (const size_t ij : broken) {
      const int64_t i = static_cast<int64_t>(ij) / n, j = static_cast<int64_t>(ij) % n;
      const double want = static_cast<double>(d(i, j));
      int32_t best = -2;  // -1: the direct edge
      int32_t best_e = 0;
      if (w(i, j) != inf && close(static_cast<double>(w(i, j)), 0.0, want)) {
        best = -1;
        best_e = 1;
      }
      for (int64_t k = 0; k < n && best_e != 1; ++k) {
        if (k == i || k == j || d(i, k) == inf || d(k, j) == inf) continue;
        const size_t a = at(i, k), b = at(k, j);
        if (state[a] != kDone || state[b] != kDone || e[a] < 1 || e[b] < 1) continue;
        if (!close(static_cast<double>(d(i, k)), static_cast<double>(d(k, j)), want)) continue;
        if (best < -1 || e[a] + e[b] < best_e) {
          best = static_cast<int32_t>(k);
          best_e = e[a] + e[b];
        }
      }
      if (best < -1) {
        left.push_back(ij);
        continue;
      }
      p.via[ij] = best;
      e[ij] = best_e;
      state[ij] = kDone;
      progress = true;
    }
    broken.swap(left);
  }
  if (!broken.empty()) {
    std::ostringstream m;
    m << "path matrix: " << broken.size() << " pairs could not be made well-founded after "
      << "float rounding, first (" << broken[0] / static_cast<size_t>(n) << ", "
      << broken[0] % static_cast<size_t>(n) << ")";
    throw RuntimeError(m.str());
  }
  for (size_t ij = 0; ij < nn; ++ij)
    if (p.hops[ij] != e[ij]) {
      p.hops[ij] = e[ij];
      ++changed;
    }
  return changed;
}

template PathMatrix initial_paths(const DistMatrix<int32_t>&);
template PathMatrix initial_paths(const DistMatrix<float>&);
template PathMatrix initial_paths(const DistMatrix<double>&);
template PathMatrix initial_paths(const DistMatrix<int64_t>&);
template std::vector<int64_t> expand_path(const DistMatrix<int32_t>&, const PathMatrix&, int64_t,
                                          int64_t);
template std::vector<int64_t> expand_path(const DistMatrix<float>&, const PathMatrix&, int64_t,
                                          int64_t);
template std::vector<int64_t> expand_path(const DistMatrix<double>&, const PathMatrix&, int64_t,
                                          int64_t);
template std::vector<int64_t> expand_path(const DistMatrix<int64_t>&, const PathMatrix&, int64_t,
                                          int64_t);
template int64_t repair_paths(const DistMatrix<int32_t>&, const DistMatrix<int32_t>&, PathMatrix&);
template int64_t repair_paths(const DistMatrix<float>&, const DistMatrix<float>&, PathMatrix&);
template int64_t repair_paths(const DistMatrix<double>&, const DistMatrix<double>&, PathMatrix&);
template int64_t repair_paths(const DistMatrix<int64_t>&, const DistMatrix<int64_t>&, PathMatrix&);
template std::string check_paths(const DistMatrix<int32_t>&, const DistMatrix<int32_t>&,
                                 const PathMatrix&);
template std::string check_paths(const DistMatrix<float>&, const DistMatrix<float>&,
                                 const PathMatrix&);
template std::string check_paths(const DistMatrix<double>&, const DistMatrix<double>&,
                                 const PathMatrix&);
template std::string check_paths(const DistMatrix<int64_t>&, const DistMatrix<int64_t>&,
                                 const PathMatrix&);

}  // namespace ocl_sp
