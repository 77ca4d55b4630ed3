// Plain-text tables (aligned columns, a title and footnotes) and CSV field
// quoting, for the paper-style tables of `ocl_sp bench` and `ocl_sp sweep`.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace ocl_sp {

struct TextTable {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;  // printed under the table
  // Columns from this index on are right-aligned (numbers); the first ones
  // (labels) are left-aligned.
  size_t first_numeric = 1;
  void print(std::ostream& out) const;
  std::string str() const;
};

// RFC 4180: quoted when the field holds a comma, quote or line break.
std::string csv_field(const std::string& s);
// Joins fields with commas, quoting as needed, and ends the line.
std::string csv_line(const std::vector<std::string>& fields);

// Number formatting for tables and CSV: "%.4g" seconds, "-" for missing.
std::string format_number(double v, const char* fmt = "%.4g");

}  // namespace ocl_sp
