// Tests of the tuning space (configurations, named constraints) and the tuning
// store: round trip, replacement, other devices/drivers/types not matching,
// corrupt files ignored with a warning, the cache-folder rule.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "cl/device.hpp"
#include "tuning/tuning_space.hpp"
#include "tuning/tuning_store.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

// Sets an environment variable for the lifetime of the object, then restores it.
class EnvVar {
 public:
  EnvVar(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~EnvVar() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh temporary folder, removed with everything in it afterwards.
struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/ocl_sp_tuning_test.XXXXXX";
    path = mkdtemp(t);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_SUITE("tuning") {
  TEST_CASE("squaring space: the paper's four work-group sizes, with named constraints") {
    const TuningSpace s = tuning_space(Algo::squaring);
    const auto cfgs = s.configurations();
    REQUIRE(cfgs.size() == 4);
    CHECK(cfgs[0].at("WG") == 4);
    CHECK(cfgs[3].at("WG") == 32);
    DeviceLimits gpu{1024, 48 * 1024};
    for (const auto& c : cfgs) CHECK_FALSE(s.rejects(c, gpu, 4).has_value());
    DeviceLimits small{256, 48 * 1024};
    const auto why = s.rejects({{"WG", 32}}, small, 4);
    REQUIRE(why.has_value());
    CHECK(why->find("WG*WG <= max work-group size") != std::string::npos);
    CHECK(why->find("1024 > 256") != std::string::npos);
    DeviceLimits tiny_local{4096, 4096};  // 2 * 32 * 32 * 4 = 8192 bytes needed
    const auto lm = s.rejects({{"WG", 32}}, tiny_local, 4);
    REQUIRE(lm.has_value());
    CHECK(lm->find("local memory") != std::string::npos);
    DeviceLimits unknown{};  // 0 = unknown limits: nothing rejected
    CHECK_FALSE(s.rejects({{"WG", 32}}, unknown, 4).has_value());
  }

  TEST_CASE("fw space: BLOCK x WPT product and its constraints") {
    const TuningSpace s = tuning_space(Algo::fw);
    REQUIRE(s.find("BLOCK"));
    REQUIRE(s.find("WPT"));
    CHECK(s.configurations().size() ==
          s.find("BLOCK")->values.size() * s.find("WPT")->values.size());
    DeviceLimits gpu{1024, 48 * 1024};
    CHECK_FALSE(s.rejects({{"BLOCK", 32}, {"WPT", 1}}, gpu, 4).has_value());
    auto wg = s.rejects({{"BLOCK", 64}, {"WPT", 1}}, gpu, 4);  // 4096 items
    REQUIRE(wg.has_value());
    CHECK(wg->find("max work-group size") != std::string::npos);
    CHECK_FALSE(s.rejects({{"BLOCK", 64}, {"WPT", 4}}, gpu, 4).has_value());  // 1024 items
    auto div = s.rejects({{"BLOCK", 8}, {"WPT", 16}}, gpu, 4);
    REQUIRE(div.has_value());
    CHECK(div->find("WPT divides BLOCK") != std::string::npos);
    DeviceLimits small_local{4096, 16 * 1024};  // 2 * 64 * 64 * 4 = 32 KiB
    CHECK(s.rejects({{"BLOCK", 64}, {"WPT", 1}}, small_local, 4).has_value());
  }

  TEST_CASE("set_values replaces a list or adds a further tunable") {
    TuningSpace s = tuning_space(Algo::squaring);
    s.set_values("WG", {8, 16});
    CHECK(s.configurations().size() == 2);
    s.set_values("KC", {4, 8, 16});
    const auto c = s.configurations();
    CHECK(c.size() == 6);
    CHECK(c.front().at("WG") == 8);
    CHECK(c.front().at("KC") == 4);
    CHECK_THROWS_AS(s.set_values("WG", {}), UsageError);
    CHECK_THROWS_AS(s.set_values("WG", {0}), UsageError);
  }

  TEST_CASE("sweep selection: --wg alone sweeps only the families that take WG") {
    const std::vector<std::string> all{"paper", "tiled", "cpu"};
    auto names = [](const std::vector<TuningSpace>& v) {
      std::vector<std::string> out;
      for (const auto& s : v) out.push_back(std::string(to_string(s.algo)) + "/" + s.family);
      return out;
    };
    auto configs = [](const std::vector<TuningSpace>& v) {
      size_t n = 0;
      for (const auto& s : v) n += s.configurations().size();
      return n;
    };
    const std::vector<Algo> def{Algo::squaring, Algo::fw};
    // Nothing given: every family of both (the default sweep).
    const auto every = select_tuning_spaces(def, false, all, false, {});
    CHECK(names(every) == std::vector<std::string>{"squaring/paper", "squaring/tiled", "fw/paper",
                                                   "fw/tiled", "fw/cpu"});
    // `sweep --wg 4,8,16` swept 32 fw configurations besides squaring's.
    const GivenTunable wg{"WG", std::nullopt, "--wg"};
    const auto paper = select_tuning_spaces(def, false, all, false, {wg});
    CHECK(names(paper) == std::vector<std::string>{"squaring/paper"});
    CHECK(configs(paper) == 4);  // before the values (4, 8, 16) are applied
    // fw-naive named with --algos: its paper kernel takes WG too.
    CHECK(names(select_tuning_spaces({Algo::squaring, Algo::fw_naive}, true, all, false, {wg})) ==
          std::vector<std::string>{"squaring/paper", "fw-naive/paper"});
    // --families given: exactly what it names, WG or not.
    CHECK(names(select_tuning_spaces(def, false, {"paper", "tiled"}, true, {wg})) ==
          std::vector<std::string>{"squaring/paper", "squaring/tiled", "fw/paper", "fw/tiled"});
    // --algos fw with --wg: nothing of fw takes WG — said, not silently ignored.
    std::string msg;
    try {
      select_tuning_spaces({Algo::fw}, true, all, false, {wg});
    } catch (const UsageError& e) {
      msg = e.what();
    }
    CHECK(msg.find("no kernel family of fw takes --wg (WG)") != std::string::npos);
    CHECK_THROWS_AS(select_tuning_spaces({Algo::fw}, true, {"paper"}, true, {wg}), UsageError);
    // With squaring among the algorithms, fw named with --algos but not taking
    // --wg is said too (not swept in full behind the user's back).
    msg.clear();
    try {
      select_tuning_spaces({Algo::squaring, Algo::fw}, true, all, false, {wg});
    } catch (const UsageError& e) {
      msg = e.what();
    }
    CHECK(msg.find("no kernel family of fw takes --wg") != std::string::npos);
    CHECK(msg.find("--families") != std::string::npos);
    // --block: every family with a BLOCK (not the paper's squaring).
    const GivenTunable block{"BLOCK", std::nullopt, "--block"};
    CHECK(names(select_tuning_spaces(def, false, all, false, {block})) ==
          std::vector<std::string>{"squaring/tiled", "fw/paper", "fw/tiled", "fw/cpu"});
    // Both: the union.
    CHECK(names(select_tuning_spaces(def, false, all, false, {wg, block})).size() == 5);
    // --param scoped to one algorithm narrows with it; the other algorithm is
    // dropped (it was not named with --algos).
    const GivenTunable kc{"KC", Algo::squaring, "--param KC"};
    CHECK(names(select_tuning_spaces(def, false, all, false, {kc})) ==
          std::vector<std::string>{"squaring/tiled"});
    // A macro no family lists does not narrow (it is added to every space).
    const GivenTunable other{"UNROLL", std::nullopt, "--param UNROLL"};
    CHECK(names(select_tuning_spaces(def, false, all, false, {other})).size() == 5);
    CHECK(names(select_tuning_spaces(def, false, all, false, {other, wg})) ==
          std::vector<std::string>{"squaring/paper"});
    // Duplicated algorithms count once; families naming nothing are an error.
    CHECK(select_tuning_spaces({Algo::squaring, Algo::squaring}, true, {"paper"}, true, {}).size() == 1);
    CHECK_THROWS_AS(select_tuning_spaces({Algo::fw_naive}, true, {"cpu"}, true, {}), UsageError);
  }

  TEST_CASE("parse_int_list") {
    CHECK(parse_int_list("4,8, 16", "--wg") == std::vector<int>{4, 8, 16});
    CHECK_THROWS_AS(parse_int_list("4,x", "--wg"), UsageError);
    CHECK_THROWS_AS(parse_int_list("4,,8", "--wg"), UsageError);
    CHECK_THROWS_AS(parse_int_list("16k", "--wg"), UsageError);
  }

  TEST_CASE("device_tuning_key: platform | device | driver, tabs cleaned") {
    DeviceEntry d;
    d.platform_name = "Portable Computing Language";
    d.name = "cpu-haswell\tX";
    d.driver_version = "5.0";
    CHECK(device_tuning_key(d) == "Portable Computing Language | cpu-haswell X | 5.0");
  }

  TEST_CASE("cache folder rule: OCL_SP_CACHE_DIR, else XDG_CACHE_HOME/ocl_sp, else ~/.cache") {
    {
      EnvVar a("OCL_SP_CACHE_DIR", std::string("/tmp/x1"));
      CHECK(tuning_dir() == "/tmp/x1");
      CHECK(tuning_file() == "/tmp/x1/tuning.txt");
    }
    {
      EnvVar a("OCL_SP_CACHE_DIR", std::nullopt);
      EnvVar b("XDG_CACHE_HOME", std::string("/tmp/xdg"));
      CHECK(tuning_dir() == "/tmp/xdg/ocl_sp");
    }
    {
      EnvVar a("OCL_SP_CACHE_DIR", std::nullopt);
      EnvVar b("XDG_CACHE_HOME", std::nullopt);
      EnvVar c("HOME", std::string("/home/someone"));
      CHECK(tuning_dir() == "/home/someone/.cache/ocl_sp");
    }
  }

  TEST_CASE("store and look up: round trip, replacement, no hit for another driver or type") {
    TempDir tmp;
    EnvVar cache("OCL_SP_CACHE_DIR", tmp.path + "/sub");  // created on first store
    const std::string key = device_tuning_key("NVIDIA CUDA", "NVIDIA H200", "580.65");
    CHECK_FALSE(lookup_tuned(key, Algo::squaring, ValueType::int32).has_value());

    TunedRecord r;
    r.device_key = key;
    r.algo = Algo::squaring;
    r.type = ValueType::int32;
    r.params = {{"WG", 16}};
    r.n = 5000;
    r.seconds = 0.85;
    const std::string path = store_tuned(r);
    CHECK(path == tmp.path + "/sub/tuning.txt");
    r.algo = Algo::fw;
    r.params = {{"BLOCK", 64}, {"WPT", 4}};
    store_tuned(r);

    std::string where;
    auto hit = lookup_tuned(key, Algo::squaring, ValueType::int32, &where);
    REQUIRE(hit.has_value());
    CHECK(*hit == Tunables{{"WG", 16}});
    CHECK(where.find(path) == 0);
    CHECK(where.find("n = 5000") != std::string::npos);
    auto fw = lookup_tuned(key, Algo::fw, ValueType::int32);
    REQUIRE(fw.has_value());
    CHECK(*fw == Tunables{{"BLOCK", 64}, {"WPT", 4}});

    // Another driver version, device or type: no hit.
    CHECK_FALSE(lookup_tuned(device_tuning_key("NVIDIA CUDA", "NVIDIA H200", "590.10"),
                             Algo::squaring, ValueType::int32)
                    .has_value());
    CHECK_FALSE(lookup_tuned(device_tuning_key("NVIDIA CUDA", "NVIDIA H100", "580.65"),
                             Algo::squaring, ValueType::int32)
                    .has_value());
    CHECK_FALSE(lookup_tuned(key, Algo::squaring, ValueType::float32).has_value());
    CHECK_FALSE(lookup_tuned(key, Algo::fw_naive, ValueType::int32).has_value());

    // Storing the same (device, algo, type) again replaces, keeping the others.
    r.algo = Algo::squaring;
    r.params = {{"WG", 8}};
    store_tuned(r);
    std::vector<std::string> warnings;
    const auto all = read_tuning_file(path, &warnings);
    CHECK(warnings.empty());
    CHECK(all.size() == 2);
    CHECK(*lookup_tuned(key, Algo::squaring, ValueType::int32) == Tunables{{"WG", 8}});
    CHECK(*lookup_tuned(key, Algo::fw, ValueType::int32) == Tunables{{"BLOCK", 64}, {"WPT", 4}});
    // No temporary files are left behind.
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp.path + "/sub")) {
      (void)e;
      ++files;
    }
    CHECK(files == 1);
  }

  TEST_CASE("a corrupt tuning file is ignored with a warning, never fatal") {
    TempDir tmp;
    EnvVar cache("OCL_SP_CACHE_DIR", tmp.path);
    const std::string path = tmp.path + "/tuning.txt";
    write_text(path, "\x01\x02garbage{{{\nnot a tuning file\n");
    std::vector<std::string> warnings;
    CHECK(read_tuning_file(path, &warnings).empty());
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find(path + ":1:") == 0);
    const std::string key = device_tuning_key("P", "D", "1");
    CHECK_FALSE(lookup_tuned(key, Algo::fw, ValueType::int32).has_value());
    // Storing over it rewrites a valid file.
    TunedRecord r;
    r.device_key = key;
    r.params = {{"BLOCK", 32}};
    store_tuned(r);
    warnings.clear();
    CHECK(read_tuning_file(path, &warnings).size() == 1);
    CHECK(warnings.empty());
    CHECK(*lookup_tuned(key, Algo::fw, ValueType::int32) == Tunables{{"BLOCK", 32}});
  }

  TEST_CASE("malformed record lines are skipped, good ones kept") {
    TempDir tmp;
    const std::string path = tmp.path + "/tuning.txt";
    write_text(path,
               "# comment\nocl_sp-tuning 1\n"
               "fw\tint32\tBLOCK=32\t2000\t0.5\t2026-01-01T00:00:00Z\tP | D | 1\n"
               "fw\tint16\tBLOCK=32\t2000\t0.5\t-\tP | D | 1\n"    // bad type
               "squaring\tint32\tWG=x\t2000\t0.5\t-\tP | D | 1\n"  // bad value
               "squaring\tint32\tWG=8\t2000\n"                     // too few fields
               "bogus\tint32\tWG=8\t2000\t0.5\t-\tP | D | 1\n"     // bad algorithm
               "squaring\tfloat32\tWG=8\t100\t1e-3\t-\tP | D | 1\n");
    std::vector<std::string> warnings;
    const auto recs = read_tuning_file(path, &warnings);
    REQUIRE(recs.size() == 2);
    CHECK(recs[0].algo == Algo::fw);
    CHECK(recs[0].params.at("BLOCK") == 32);
    CHECK(recs[1].type == ValueType::float32);
    CHECK(recs[1].seconds == doctest::Approx(1e-3));
    CHECK(warnings.size() == 4);
    CHECK(warnings[0].find(":4:") != std::string::npos);
  }

  TEST_CASE("format and read are inverse") {
    TunedRecord a;
    a.device_key = "A | B | C";
    a.algo = Algo::fw_naive;
    a.type = ValueType::float32;
    a.params = {{"WG", 16}};
    a.n = 77;
    a.seconds = 0.125;
    a.date = "2026-11-22T00:00:00Z";
    TempDir tmp;
    const std::string path = tmp.path + "/t.txt";
    write_tuning_file(path, {a});
    std::vector<std::string> w;
    const auto back = read_tuning_file(path, &w);
    REQUIRE(back.size() == 1);
    CHECK(w.empty());
    CHECK(back[0].device_key == a.device_key);
    CHECK(back[0].algo == a.algo);
    CHECK(back[0].type == a.type);
    CHECK(back[0].params == a.params);
    CHECK(back[0].n == 77);
    CHECK(back[0].seconds == doctest::Approx(0.125));
    CHECK(back[0].date == a.date);
  }
  // Found by tests/fuzz/fuzz_tuning_store (regressions/tuning_store/blank_date.txt):
  // a record whose date is blank was written with an empty field, and the file
  // changed again on the next read and write.
  TEST_CASE("a blank date is written as '-', and a read-write round is stable") {
    std::istringstream in(
        "ocl_sp-tuning 1\n"
        "fw-naive\tint32\t-\t64\t0.001\t \t P | D | 1 \n"
        "fw\tint32\tBLOCK=32\t9\t1\t\x01\r\tP | D | 1\r\n");
    std::vector<std::string> w;
    const auto recs = read_tuning_file(in, "mem.txt", &w);
    REQUIRE(recs.size() == 2);
    CHECK(w.empty());
    const std::string once = format_tuning_file(recs);
    CHECK(once.find("\t-\tP | D | 1\n") != std::string::npos);
    CHECK(once.find("\t\tP") == std::string::npos);  // no empty field
    std::istringstream again(once);
    const auto recs2 = read_tuning_file(again, "mem.txt", &w);
    CHECK(w.empty());
    REQUIRE(recs2.size() == 2);
    CHECK(recs2[0].date == "-");
    CHECK(recs2[0].device_key == "P | D | 1");
    CHECK(format_tuning_file(recs2) == once);
  }

  TEST_CASE("read_tuning_file from a stream names the stream in warnings") {
    std::istringstream in("ocl_sp-tuning 1\nfw\tint32\n");
    std::vector<std::string> w;
    CHECK(read_tuning_file(in, "mem.txt", &w).empty());
    REQUIRE(w.size() == 1);
    CHECK(w[0] == "mem.txt:2: malformed record skipped");
  }
}
