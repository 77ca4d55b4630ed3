// Sessions started side by side in a fresh process (include/ocl_sp/ocl_sp.hpp:
// "Sessions on the same device may run side by side"): four threads each make an
// OpenCL Session and solve at once, so the first device enumerations overlap
// (PoCL initialises its devices at the first clGetDeviceIDs; a thread asking
// meanwhile got CL_DEVICE_NOT_FOUND, read as "no OpenCL platform found"). Its
// own executable: in the unit tests' process the devices are long initialised.
// Every result is compared with the serial backend's. Exit 0 when all match.
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "ocl_sp/ocl_sp.hpp"

int main() {
  const int64_t n = 40;
  std::vector<ocl_sp::Edge> edges;
  for (int64_t u = 0; u < n; ++u) {
    edges.push_back({u, (u + 1) % n, static_cast<double>(1 + u % 7)});
    edges.push_back({u, (u * 7 + 3) % n, static_cast<double>(2 + u % 5)});
  }
  ocl_sp::Options serial;
  serial.backend = "serial";
  const auto want = ocl_sp::all_pairs<int32_t>(n, edges, serial).distances;
  const int threads = 4;
  std::vector<std::string> failures(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        ocl_sp::Options o;
        o.backend = "opencl";
        o.device = "pocl";
        ocl_sp::Session s(o);
        if (s.all_pairs<int32_t>(n, edges).distances != want) failures[t] = "distances differ";
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  for (auto& t : pool) t.join();
  int bad = 0;
  for (int t = 0; t < threads; ++t)
    if (!failures[t].empty()) {
      std::fprintf(stderr, "thread %d: %s\n", t, failures[t].c_str());
      ++bad;
    }
  std::printf("%d of %d sessions side by side solved\n", threads - bad, threads);
  return bad ? 1 : 0;
}
