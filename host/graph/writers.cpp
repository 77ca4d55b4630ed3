// Distance / path matrix writers (bin, npy, csv) and the course-format graph
// writer. Bytes are assembled little-endian by hand so files are identical on
// any host; every file goes through write_file_atomically.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>
#include <type_traits>

#include "graph/io.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

namespace {

void put_u32(char* dst, uint32_t v) {
  for (int k = 0; k < 4; ++k) dst[k] = static_cast<char>((v >> (8 * k)) & 0xff);
}

// The value's bits as an unsigned integer of its width.
template <typename T>
auto bits_of(T v) {
  std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> b;
  static_assert(sizeof b == sizeof v);
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// count values of a as little-endian bytes, handed to put(bytes, size, first
// value) at most kChunk values at a time: on a little-endian host straight from
// a's memory in one piece, elsewhere converted in chunks (a 1.6 GB matrix never
// needs a second copy).
template <typename T, typename Put>
void le_pieces(const T* a, size_t count, size_t chunk, Put&& put) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  (void)chunk;
  put(reinterpret_cast<const char*>(a), count * sizeof(T), size_t{0});
#else
  std::vector<char> buf(sizeof(T) * std::min(count, chunk));
  for (size_t done = 0; done < count;) {
    const size_t k = std::min(chunk, count - done);
    to_le(a + done, k, buf.data());
    put(buf.data(), k * sizeof(T), done);
    done += k;
  }
#endif
}

// Values little-endian into a stream (the stream's buffer passes large blocks
// through).
template <typename T>
void write_le(std::ostream& out, const T* a, size_t count) {
  le_pieces(a, count, size_t{1} << 16,
            [&](const char* p, size_t bytes, size_t) { out.write(p, static_cast<std::streamsize>(bytes)); });
}

// NumPy format 1.0: magic, version, uint16 header length, then a Python dict
// literal padded with spaces to make the data start 64-byte aligned.
std::string npy_header(const std::string& descr, const std::string& shape) {
  std::string dict = "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t prefix = 10;  // magic (6) + version (2) + header length (2)
  const size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>((dict.size() >> 8) & 0xff);
  return h + dict;
}

// Locale-independent text: to_chars gives the shortest string that reads back
// to the same float (and "inf" for +inf).
template <typename T>
void append_value(std::string& s, T v) {
  char buf[40];
  if constexpr (std::is_integral_v<T>) {
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
  } else {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
#else
    if (std::isinf(v)) {
      s += v > 0 ? "inf" : "-inf";
      return;
    }
    const int len = std::snprintf(buf, sizeof buf, sizeof(T) == 4 ? "%.9g" : "%.17g",
                                  static_cast<double>(v));
    s.append(buf, static_cast<size_t>(len));
#endif
  }
}

template <typename T>
void write_csv(std::ostream& out, const T* a, int64_t rows, int64_t n) {
  std::string line;
  for (int64_t i = 0; i < rows; ++i) {
    line.clear();
    for (int64_t j = 0; j < n; ++j) {
      if (j) line += ',';
      append_value(line, a[i * n + j]);
    }
    line += '\n';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  }
}

}  // namespace

template <typename T>
std::string matrix_file_header(OutputFormat fmt, int64_t rows, int64_t cols) {
  if (fmt != OutputFormat::npy) return std::string();
  const char* descr = std::is_floating_point_v<T> ? (sizeof(T) == 4 ? "'<f4'" : "'<f8'")
                                                  : (sizeof(T) == 4 ? "'<i4'" : "'<i8'");
  return npy_header(descr,
                    "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")");
}

std::string npy_record_header(const std::string& descr, int64_t rows) {
  return npy_header(descr, "(" + std::to_string(rows) + ",)");
}

namespace {

template <typename T>
void write_values(const T* a, int64_t rows, int64_t cols, const std::string& path,
                  OutputFormat fmt) {
  if (fmt == OutputFormat::automatic) fmt = detect_output_format(path);
  const size_t count = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  write_file_atomically_to(path, [&](AtomicOutput& out) {
    if (fmt == OutputFormat::csv) return write_csv(out.stream(), a, rows, cols);
    const std::string h = matrix_file_header<T>(fmt, rows, cols);
    out.stream().write(h.data(), static_cast<std::streamsize>(h.size()));
    if (out.positioned())  // a file: the values in large writes, no copy
      write_values_at(out, h.size(), a, count);
    else
      write_le(out.stream(), a, count);
  });
}

}  // namespace

template <typename T>
std::string matrix_file_header(OutputFormat fmt, int64_t n) {
  return matrix_file_header<T>(fmt, n, n);
}

template <typename T>
uint64_t matrix_file_bytes(OutputFormat fmt, int64_t rows, int64_t cols) {
  const uint64_t values = static_cast<uint64_t>(rows) * static_cast<uint64_t>(cols);
  // csv: at least one digit and a separator (comma or newline) per value.
  return matrix_file_header<T>(fmt, rows, cols).size() + values * (fmt == OutputFormat::csv ? 2 : sizeof(T));
}

template <typename T>
void write_values_at(AtomicOutput& out, uint64_t off, const T* a, size_t count) {
  le_pieces(a, count, size_t{1} << 20,
            [&](const char* p, size_t bytes, size_t first) { out.write_at(off + first * sizeof(T), p, bytes); });
}
template void write_values_at<int32_t>(AtomicOutput&, uint64_t, const int32_t*, size_t);
template void write_values_at<float>(AtomicOutput&, uint64_t, const float*, size_t);
template void write_values_at<double>(AtomicOutput&, uint64_t, const double*, size_t);
template void write_values_at<int64_t>(AtomicOutput&, uint64_t, const int64_t*, size_t);

template <typename T>
void write_matrix_rows(std::ostream& out, OutputFormat fmt, const T* a, int64_t rows, int64_t n) {
  if (fmt == OutputFormat::csv)
    write_csv(out, a, rows, n);
  else
    write_le(out, a, static_cast<size_t>(rows) * static_cast<size_t>(n));
}

template std::string matrix_file_header<int32_t>(OutputFormat, int64_t);
template std::string matrix_file_header<int32_t>(OutputFormat, int64_t, int64_t);
template std::string matrix_file_header<float>(OutputFormat, int64_t, int64_t);
template std::string matrix_file_header<double>(OutputFormat, int64_t, int64_t);
template std::string matrix_file_header<int64_t>(OutputFormat, int64_t, int64_t);
template uint64_t matrix_file_bytes<int32_t>(OutputFormat, int64_t, int64_t);
template uint64_t matrix_file_bytes<float>(OutputFormat, int64_t, int64_t);
template uint64_t matrix_file_bytes<double>(OutputFormat, int64_t, int64_t);
template uint64_t matrix_file_bytes<int64_t>(OutputFormat, int64_t, int64_t);
template std::string matrix_file_header<float>(OutputFormat, int64_t);
template std::string matrix_file_header<double>(OutputFormat, int64_t);
template std::string matrix_file_header<int64_t>(OutputFormat, int64_t);
template void write_matrix_rows<int32_t>(std::ostream&, OutputFormat, const int32_t*, int64_t,
                                         int64_t);
template void write_matrix_rows<float>(std::ostream&, OutputFormat, const float*, int64_t, int64_t);
template void write_matrix_rows<double>(std::ostream&, OutputFormat, const double*, int64_t, int64_t);
template void write_matrix_rows<int64_t>(std::ostream&, OutputFormat, const int64_t*, int64_t, int64_t);

template <typename T>
void write_matrix(const DistMatrix<T>& m, const std::string& path, OutputFormat fmt) {
  write_values(m.data(), m.n(), m.n(), path, fmt);
}

template <typename T>
void write_rect_matrix(const T* a, int64_t rows, int64_t cols, const std::string& path,
                       OutputFormat fmt) {
  write_values(a, rows, cols, path, fmt);
}

template void write_rect_matrix<int32_t>(const int32_t*, int64_t, int64_t, const std::string&,
                                         OutputFormat);
template void write_rect_matrix<float>(const float*, int64_t, int64_t, const std::string&,
                                       OutputFormat);
template void write_rect_matrix<double>(const double*, int64_t, int64_t, const std::string&,
                                       OutputFormat);
template void write_rect_matrix<int64_t>(const int64_t*, int64_t, int64_t, const std::string&,
                                       OutputFormat);

template void write_matrix<int32_t>(const DistMatrix<int32_t>&, const std::string&, OutputFormat);
template void write_matrix<float>(const DistMatrix<float>&, const std::string&, OutputFormat);
template void write_matrix<double>(const DistMatrix<double>&, const std::string&, OutputFormat);
template void write_matrix<int64_t>(const DistMatrix<int64_t>&, const std::string&, OutputFormat);

void write_int_matrix(const std::vector<int32_t>& a, int64_t n, const std::string& path,
                      OutputFormat fmt) {
  if (n < 0 || a.size() != static_cast<size_t>(n) * static_cast<size_t>(n))
    throw RuntimeError("internal error: matrix for '" + path + "' has " +
                       std::to_string(a.size()) + " values, expected " + std::to_string(n) +
                       " x " + std::to_string(n));
  write_values(a.data(), n, n, path, fmt);
}

void write_graph_bin(const Graph& g, const std::string& path) {
  // Everything is checked before the file is opened: the format cannot hold it.
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  const std::string where = "cannot write '" + path + "' in bin format: ";
  if (g.n <= 0 || g.n > kMax)
    throw UsageError(where + "vertex count " + std::to_string(g.n) + " outside [1, 2^31)");
  if (g.edges.size() > static_cast<size_t>(kMax))
    throw UsageError(where + std::to_string(g.edges.size()) + " edges (at most 2^31 - 1)");
  for (const Edge& e : g.edges) {
    if (e.u < 0 || e.u >= g.n || e.v < 0 || e.v >= g.n)
      throw UsageError(where + "edge " + std::to_string(e.u) + " -> " + std::to_string(e.v) +
                       " has a vertex outside [0, " + std::to_string(g.n) + ")");
    if (!(std::floor(e.w) == e.w && std::fabs(e.w) <= static_cast<double>(kMax)))
      throw UsageError(where + "edge " + std::to_string(e.u) + " -> " + std::to_string(e.v) +
                       " has a weight that is not an int32 integer");
  }
  write_file_atomically(path, [&](std::ostream& out) {
    char head[8];
    put_u32(head, bits_of(static_cast<int32_t>(g.n)));
    put_u32(head + 4, bits_of(static_cast<int32_t>(g.edges.size())));
    out.write(head, 8);
    constexpr size_t kChunk = 1 << 14;
    std::vector<char> buf;
    buf.reserve(12 * kChunk);
    for (size_t done = 0; done < g.edges.size();) {
      const size_t k = std::min(kChunk, g.edges.size() - done);
      buf.resize(12 * k);
      for (size_t i = 0; i < k; ++i) {
        const Edge& e = g.edges[done + i];
        put_u32(&buf[12 * i], bits_of(static_cast<int32_t>(e.u)));
        put_u32(&buf[12 * i + 4], bits_of(static_cast<int32_t>(e.v)));
        put_u32(&buf[12 * i + 8], bits_of(static_cast<int32_t>(e.w)));
      }
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      done += k;
    }
  });
}

}  // namespace ocl_sp
