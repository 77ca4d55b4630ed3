// Graph readers (bin, DIMACS gr, Matrix Market mtx, edges text) and distance /
// path matrix writers (bin, npy, csv). Readers are strict: malformed input is a
// UsageError naming the file and the line (or byte offset). Writers are atomic.
#pragma once
#include <string>

#include "graph/graph.hpp"
#include "graph/matrix.hpp"

namespace ocl_sp {

enum class InputFormat { automatic, bin, gr, mtx, edges };
enum class OutputFormat { automatic, bin, npy, csv };

InputFormat parse_input_format(const std::string& s);    // UsageError if unknown
OutputFormat parse_output_format(const std::string& s);  // UsageError if unknown
InputFormat detect_input_format(const std::string& path);    // by extension
OutputFormat detect_output_format(const std::string& path);  // by extension

Graph read_graph(const std::string& path, InputFormat fmt = InputFormat::automatic);
void write_graph_bin(const Graph& g, const std::string& path);  // course format

// Distances: bin = n*n int32/float32 row-major with no header (the course output);
// npy = numpy array (n, n) of <i4 / <f4; csv = n lines of n comma-separated values
// (INF written as 1073741823 for int32, "inf" for float32).
template <typename T>
void write_matrix(const DistMatrix<T>& m, const std::string& path,
                  OutputFormat fmt = OutputFormat::automatic);
void write_int_matrix(const std::vector<int32_t>& a, int64_t n, const std::string& path,
                      OutputFormat fmt = OutputFormat::automatic);

}  // namespace ocl_sp
