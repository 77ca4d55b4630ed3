// Minimal streaming JSON writer (objects, arrays, strings, numbers, booleans) for
// --json reports and bench/sweep result files; no third-party dependency needed.
#pragma once
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace ocl_sp {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  JsonWriter& begin_object() { prefix(); out_ << '{'; stack_.push_back(true); return *this; }
  JsonWriter& end_object() { close('}'); return *this; }
  JsonWriter& begin_array() { prefix(); out_ << '['; stack_.push_back(true); return *this; }
  JsonWriter& end_array() { close(']'); return *this; }
  JsonWriter& key(const std::string& k) {
    prefix();
    write_string(k);
    out_ << ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(const std::string& s) { prefix(); write_string(s); return *this; }
  JsonWriter& value(const char* s) { return value(std::string(s)); }
  JsonWriter& value(bool b) { prefix(); out_ << (b ? "true" : "false"); return *this; }
  JsonWriter& value(double d) {
    prefix();
    if (!std::isfinite(d)) {
      out_ << "null";  // JSON has no inf/nan
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", d);
      out_ << buf;
    }
    return *this;
  }
  // A double that reads back to the same bits (17 significant digits; value()
  // keeps 9, enough for reports): data files' figures.
  JsonWriter& exact(double d) {
    prefix();
    if (!std::isfinite(d)) {
      out_ << "null";
    } else {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", d);
      out_ << buf;
    }
    return *this;
  }
  JsonWriter& value(long long i) { prefix(); out_ << i; return *this; }
  JsonWriter& value(int i) { return value(static_cast<long long>(i)); }
  JsonWriter& value(long i) { return value(static_cast<long long>(i)); }
  JsonWriter& null() { prefix(); out_ << "null"; return *this; }
  template <typename V>
  JsonWriter& field(const std::string& k, const V& v) { key(k); return value(v); }
  template <typename V>
  JsonWriter& array_field(const std::string& k, const std::vector<V>& v) {
    key(k).begin_array();
    for (const auto& x : v) value(x);
    return end_array();
  }

 private:
  void prefix() {
    if (after_key_) { after_key_ = false; return; }
    if (!stack_.empty()) {
      if (!stack_.back()) out_ << ',';
      stack_.back() = false;
    }
  }
  void close(char c) { stack_.pop_back(); out_ << c; }
  void write_string(const std::string& s) {
    out_ << '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\r': out_ << "\\r"; break;
        case '\t': out_ << "\\t"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out_ << buf;
          } else {
            out_ << c;
          }
      }
    }
    out_ << '"';
  }
  std::ostream& out_;
  std::vector<bool> stack_;  // per open container: "no element written yet"
  bool after_key_ = false;
};

}  // namespace ocl_sp
