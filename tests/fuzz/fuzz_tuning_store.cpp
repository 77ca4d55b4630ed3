// libFuzzer harness for the tuning-store reader (host/tuning/tuning_store.cpp):
// the bytes are read as a tuning file from memory. The reader is lenient by
// contract: it never throws, a bad file or line becomes a warning
// "NAME:LINE: what". Written back and read again, the records must be stable
// (format(read(format(read(x)))) == format(read(x))): whatever a sweep reads it
// can store without changing another device's entry.
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "tuning/tuning_store.hpp"

using namespace ocl_sp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name = "fuzz-tuning.txt";
  std::istringstream in(ocl_sp_fuzz::bytes(data, size));
  std::vector<std::string> warnings;
  const std::vector<TunedRecord> records = read_tuning_file(in, name, &warnings);
  for (const auto& w : warnings) FUZZ_CHECK(w.rfind(name + ":", 0) == 0);
  for (const auto& r : records) {
    FUZZ_CHECK(!r.device_key.empty());
    FUZZ_CHECK(!r.params.empty() || to_string(r.params) == "-");
  }
  const std::string once = format_tuning_file(records);
  std::istringstream again(once);
  std::vector<std::string> warnings2;
  const std::vector<TunedRecord> records2 = read_tuning_file(again, name, &warnings2);
  if (!warnings2.empty())
    ocl_sp_fuzz::fuzz_fail("a written tuning file reads with warnings: " + warnings2[0]);
  FUZZ_CHECK(records2.size() == records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    FUZZ_CHECK(records2[i].algo == records[i].algo && records2[i].type == records[i].type);
    FUZZ_CHECK(records2[i].params == records[i].params && records2[i].n == records[i].n);
  }
  FUZZ_CHECK(format_tuning_file(records2) == once);
  return 0;
}
