// Graph readers (bin, DIMACS gr, Matrix Market mtx, edges text) and distance /
// path matrix writers (bin, npy, csv). Readers are strict: malformed input is a
// UsageError naming the file and the line (or byte offset). Writers are atomic.
#pragma once
#include <cstdint>
#include <cstring>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/graph.hpp"
#include "graph/matrix.hpp"

namespace ocl_sp {

class AtomicOutput;

enum class InputFormat { automatic, bin, gr, mtx, edges };
enum class OutputFormat { automatic, bin, npy, csv };

InputFormat parse_input_format(const std::string& s);    // UsageError if unknown
OutputFormat parse_output_format(const std::string& s);  // UsageError if unknown
// By extension (case-insensitive): .bin, .gr, .mtx, .txt/.edges/.el; .bin, .npy,
// .csv. An unknown extension is a UsageError that suggests --format /
// --output-format.
InputFormat detect_input_format(const std::string& path);
OutputFormat detect_output_format(const std::string& path);
const char* to_string(InputFormat f);   // "auto", "bin", "gr", "mtx", "edges"
const char* to_string(OutputFormat f);  // "auto", "bin", "npy", "csv"

// Missing or unreadable file: UsageError "cannot open 'path': reason". Vertex
// counts above max_n are refused as malformed: kMaxVertices for a dense solve,
// kMaxSparseVertices when the solve never makes an n x n matrix of the input
// (memory is then planned from n and m before the CSR is built).
Graph read_graph(const std::string& path, InputFormat fmt = InputFormat::automatic,
                 int64_t max_n = kMaxVertices);
// The same readers on bytes already in memory (a stream, a buffer): `name` stands
// for the file in messages ("NAME: line 3: ...") and picks the format when `fmt` is
// automatic. No file is opened; used by the fuzz harnesses (tests/fuzz/).
Graph read_graph(std::istream& in, const std::string& name,
                 InputFormat fmt = InputFormat::automatic, int64_t max_n = kMaxVertices);
Graph parse_graph(const std::string& data, const std::string& name, InputFormat fmt,
                  int64_t max_n = kMaxVertices);
// Course format; UsageError (before anything is written) for weights that are
// not int32 integers or more than INT32_MAX edges.
void write_graph_bin(const Graph& g, const std::string& path);

// count values little-endian into dst (the bytes every writer emits).
template <typename T>
void to_le(const T* src, size_t count, char* dst) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(dst, src, count * sizeof(T));
#else
  for (size_t k = 0; k < count; ++k) {
    std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> v;
    std::memcpy(&v, src + k, sizeof v);
    for (size_t b = 0; b < sizeof v; ++b)
      dst[sizeof v * k + b] = static_cast<char>((v >> (8 * b)) & 0xff);
  }
#endif
}

// count values, little-endian, at byte offset off of a file output
// (AtomicOutput::positioned): straight from a's memory on a little-endian host,
// in large writes, with no copy (bin and npy values; util/atomic_file.hpp).
template <typename T>
void write_values_at(AtomicOutput& out, uint64_t off, const T* a, size_t count);

// Distances: bin = n*n int32/float32 row-major with no header (the course output);
// npy = numpy array (n, n) of <i4 / <f4; csv = n lines of n comma-separated values
// (INF written as 1073741823 for int32, "inf" for float32).
template <typename T>
void write_matrix(const DistMatrix<T>& m, const std::string& path,
                  OutputFormat fmt = OutputFormat::automatic);
void write_int_matrix(const std::vector<int32_t>& a, int64_t n, const std::string& path,
                      OutputFormat fmt = OutputFormat::automatic);
// The pieces of those files for writers that assemble one from row blocks (the
// distributed solve, host/mpi/): the bytes before the values (the npy header of
// an n x n matrix of T; nothing for bin and csv) and `rows` rows of n values in
// the format's encoding (bin/npy: little-endian; csv: one line per row).
template <typename T>
std::string matrix_file_header(OutputFormat fmt, int64_t n);
// A rows x cols matrix (--sources / --targets selections): the same encodings.
template <typename T>
std::string matrix_file_header(OutputFormat fmt, int64_t rows, int64_t cols);
template <typename T>
void write_rect_matrix(const T* a, int64_t rows, int64_t cols, const std::string& path,
                       OutputFormat fmt = OutputFormat::automatic);
// Bytes of such a file (csv: a lower bound, one digit and a separator a value),
// for the free-disk check before a solve.
template <typename T>
uint64_t matrix_file_bytes(OutputFormat fmt, int64_t rows, int64_t cols);
// The npy header of a 1-D array of `rows` records; descr is a Python literal
// ("'<f8'" or "[('a', '<i8'), ...]").
std::string npy_record_header(const std::string& descr, int64_t rows);
template <typename T>
void write_matrix_rows(std::ostream& out, OutputFormat fmt, const T* a, int64_t rows, int64_t n);

}  // namespace ocl_sp
