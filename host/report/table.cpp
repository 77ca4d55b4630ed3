// Plain-text tables and CSV quoting (see table.hpp).
#include "report/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ocl_sp {

void TextTable::print(std::ostream& out) const {
  std::vector<size_t> w(header.size(), 0);
  auto widen = [&](const std::vector<std::string>& r) {
    if (r.size() > w.size()) w.resize(r.size(), 0);
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  };
  widen(header);
  for (const auto& r : rows) widen(r);
  auto line = [&](const std::vector<std::string>& r) {
    std::string s;
    for (size_t i = 0; i < w.size(); ++i) {
      const std::string cell = i < r.size() ? r[i] : "";
      const std::string pad(w[i] - cell.size(), ' ');
      if (i) s += "  ";
      s += i >= first_numeric ? pad + cell : cell + pad;
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << "\n";
  };
  if (!title.empty()) out << title << "\n";
  line(header);
  size_t total = 0;
  for (size_t i = 0; i < w.size(); ++i) total += w[i] + (i ? 2 : 0);
  out << std::string(total, '-') << "\n";
  for (const auto& r : rows) line(r);
  for (const auto& n : notes) out << "  " << n << "\n";
}

std::string TextTable::str() const {
  std::ostringstream o;
  print(o);
  return o.str();
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string s;
  for (size_t i = 0; i < fields.size(); ++i) s += (i ? "," : "") + csv_field(fields[i]);
  return s + "\n";
}

std::string format_number(double v, const char* fmt) {
  if (!std::isfinite(v)) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace ocl_sp
