// Small string helpers shared by the CLI, device selection and readers.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ocl_sp {

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

inline std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// Byte counts for messages: "12.34 MiB", or "1.23 GiB" from 1 GiB on.
inline std::string format_bytes(double b) {
  char buf[48];
  if (b >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024.0 * 1024));
  return buf;
}

// Whole MiB, rounded up (what a request needs) or down (what a device has).
inline std::string mib_up(uint64_t b) { return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB"; }
inline std::string mib_down(uint64_t b) { return std::to_string(b >> 20) + " MiB"; }

inline bool contains_ci(const std::string& hay, const std::string& needle) {
  return lower(hay).find(lower(needle)) != std::string::npos;
}

}  // namespace ocl_sp
