// The simulation is checked against glibc's own loader: each scenario is
// built from tiny real ELF files and run through `ld.so --list` as well.

#include "loader/load_simulation.h"

#include "host/live_host.h"
#include "test_support/elf_builder.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

namespace {

constexpr const char* k_ld_so = "/lib64/ld-linux-x86-64.so.2";
using Map = std::map<std::string, std::string>;

// name -> path ("not found") as glibc's loader reports it.
Map glibc_view(const std::string& file, const std::string& ld_library_path) {
  std::vector<std::string> argv{"env", "-i"};
  if (!ld_library_path.empty()) argv.push_back("LD_LIBRARY_PATH=" + ld_library_path);
  argv.insert(argv.end(), {k_ld_so, "--list", file});
  const auto result = gd::run_child(argv, std::chrono::seconds(30));
  Map view;
  for (auto line : gd::lines(result.output)) {
    const auto arrow = line.find(" => ");
    if (arrow == std::string_view::npos) continue;
    auto path = line.substr(arrow + 4);
    path = path.substr(0, path.find(" ("));
    view[std::string(gd::trim(line.substr(0, arrow)))] = std::string(path);
  }
  return view;
}

struct Simulated {
  Map view;
  std::vector<gd::Resolution> resolutions;
};

Simulated simulate(const std::string& file, const std::string& ld_library_path,
                   const std::optional<std::string>& cwd = std::nullopt) {
  if (ld_library_path.empty()) ::unsetenv("LD_LIBRARY_PATH");
  else ::setenv("LD_LIBRARY_PATH", ld_library_path.c_str(), 1);
  ::unsetenv("LD_PRELOAD");
  gd::LiveHost host;
  const auto main = gd::read_elf(host, file);
  REQUIRE(main);
  auto config = gd::detect_loader_config(host, *main, 0755);
  config.cwd = cwd;
  gd::LoadSimulation simulation(host, std::move(config));
  REQUIRE(simulation.load_main(file));
  ::unsetenv("LD_LIBRARY_PATH");
  Simulated result{{}, simulation.resolutions()};
  for (const auto& resolution : simulation.resolutions())
    if (resolution.via != gd::LoadVia::already_loaded && !result.view.count(resolution.name))
      result.view[resolution.name] = resolution.path ? *resolution.path : "not found";
  return result;
}

const gd::Resolution& find(const Simulated& simulated, const std::string& name) {
  for (const auto& resolution : simulated.resolutions)
    if (resolution.name == name) return resolution;
  FAIL("no resolution for " << name);
  return simulated.resolutions.front();
}

struct Tree {
  gd::TempDir dir;
  std::string d1, d2;
  Tree() {
    dir.mkdir("d1");
    dir.mkdir("d2");
    dir.mkdir("bin");
    gd::build_elf(dir, {"d1/libdep.so.1", "libdep.so.1", {}, "", false});
    gd::build_elf(dir, {"d2/libdep.so.1", "libdep.so.1", {}, "", false});
    d1 = dir / "d1";
    d2 = dir / "d2";
  }
};

}  // namespace

TEST_CASE("RPATH beats LD_LIBRARY_PATH, which beats RUNPATH, as in glibc") {
  Tree tree;
  gd::build_elf(tree.dir, {"bin/rpath", "", {tree.d1 + "/libdep.so.1"}, tree.d1, false});
  gd::build_elf(tree.dir, {"bin/runpath", "", {tree.d1 + "/libdep.so.1"}, tree.d1, true});
  for (const auto& [file, ld_library_path] : std::vector<std::pair<std::string, std::string>>{
           {"bin/rpath", ""}, {"bin/rpath", tree.d2}, {"bin/runpath", ""}, {"bin/runpath", tree.d2}}) {
    CAPTURE(file);
    CAPTURE(ld_library_path);
    const auto simulated = simulate(tree.dir / file, ld_library_path);
    CHECK(simulated.view == glibc_view(tree.dir / file, ld_library_path));
  }
  const auto rpath_wins = simulate(tree.dir / "bin/rpath", tree.d2);
  CHECK(find(rpath_wins, "libdep.so.1").via == gd::LoadVia::rpath);
  const auto ld_wins = simulate(tree.dir / "bin/runpath", tree.d2);
  CHECK(find(ld_wins, "libdep.so.1").via == gd::LoadVia::ld_library_path);
  CHECK(find(ld_wins, "libdep.so.1").via_detail.starts_with("LD_LIBRARY_PATH entry 1"));
}

TEST_CASE("an RPATH is inherited by dependencies, a RUNPATH is not") {
  Tree tree;
  gd::build_elf(tree.dir, {"d2/libmid.so.1", "libmid.so.1", {tree.d1 + "/libdep.so.1"}, "", false});
  gd::build_elf(tree.dir, {"bin/inherits", "", {tree.d2 + "/libmid.so.1"}, tree.d1 + ":" + tree.d2, false});
  gd::build_elf(tree.dir, {"bin/blocks", "", {tree.d2 + "/libmid.so.1"}, tree.d1 + ":" + tree.d2, true});
  CHECK(simulate(tree.dir / "bin/inherits", "").view == glibc_view(tree.dir / "bin/inherits", ""));
  const auto blocked = simulate(tree.dir / "bin/blocks", "");
  CHECK_FALSE(find(blocked, "libdep.so.1").path);
  CHECK(find(blocked, "libdep.so.1").requested_by == tree.d2 + "/libmid.so.1");
  CHECK_FALSE(find(blocked, "libdep.so.1").tried.empty());
  // glibc prints nothing then: it fails, naming the library.
  const auto glibc = gd::run_child({"env", "-i", k_ld_so, "--list", tree.dir / "bin/blocks"}, std::chrono::seconds(30));
  CHECK(glibc.exit != 0);
  CHECK(gd::contains(glibc.error_output, "libdep.so.1: cannot open shared object file"));
}

TEST_CASE("$ORIGIN expands against the object's directory") {
  Tree tree;
  gd::build_elf(tree.dir, {"bin/origin", "", {tree.d1 + "/libdep.so.1"}, "$ORIGIN/../d2", false});
  const auto simulated = simulate(tree.dir / "bin/origin", "");
  CHECK(simulated.view == glibc_view(tree.dir / "bin/origin", ""));
  CHECK(find(simulated, "libdep.so.1").path == tree.dir / "bin/../d2/libdep.so.1");  // no ".." folding, like glibc
}

TEST_CASE("a library for another machine is passed over; a non-ELF file stops the load") {
  Tree tree;
  gd::build_elf(tree.dir, {"bin/app", "", {tree.d1 + "/libdep.so.1"}, "", true});
  tree.dir.mkdir("arm");
  std::filesystem::copy_file(tree.d1 + "/libdep.so.1", tree.dir / "arm/libdep.so.1");
  {
    std::fstream patch(tree.dir / "arm/libdep.so.1", std::ios::in | std::ios::out | std::ios::binary);
    patch.seekp(18);
    patch.put(static_cast<char>(183));  // e_machine = AArch64
    patch.put(0);
  }
  tree.dir.write("text/libdep.so.1", "not a library\n");
  const std::string wrong_arch = tree.dir / "arm" + ":" + tree.d2;
  const auto skipped = simulate(tree.dir / "bin/app", wrong_arch);
  CHECK(skipped.view == glibc_view(tree.dir / "bin/app", wrong_arch));
  CHECK(find(skipped, "libdep.so.1").path == tree.d2 + "/libdep.so.1");
  CHECK(find(skipped, "libdep.so.1").tried.front().outcome.find("aarch64") != std::string::npos);

  const std::string text_first = tree.dir / "text" + ":" + tree.d2;
  const auto aborted = simulate(tree.dir / "bin/app", text_first);
  CHECK(find(aborted, "libdep.so.1").fatal.has_value());
  CHECK_FALSE(find(aborted, "libdep.so.1").path);
  const auto glibc = gd::run_child({"env", "-i", "LD_LIBRARY_PATH=" + text_first, k_ld_so, "--list", tree.dir / "bin/app"},
                                     std::chrono::seconds(30));
  CHECK(glibc.exit != 0);  // glibc gives up too ("invalid ELF header")
}

TEST_CASE("the first object with a SONAME wins for every later request") {
  Tree tree;
  // libmid asks for libdep through its own RUNPATH (d2), but the program
  // loaded libdep from d1 first.
  gd::build_elf(tree.dir, {"d2/libmid.so.1", "libmid.so.1", {tree.d2 + "/libdep.so.1"}, tree.d2, true});
  gd::build_elf(tree.dir, {"bin/app", "", {tree.d1 + "/libdep.so.1", tree.d2 + "/libmid.so.1"}, tree.d1 + ":" + tree.d2, true});
  const auto simulated = simulate(tree.dir / "bin/app", "");
  CHECK(simulated.view == glibc_view(tree.dir / "bin/app", ""));
  int already = 0;
  for (const auto& resolution : simulated.resolutions)
    if (resolution.name == "libdep.so.1" && resolution.via == gd::LoadVia::already_loaded) ++already;
  CHECK(already == 1);
}

TEST_CASE("dlopen searches from the caller, as libcudart does for libcuda.so.1") {
  Tree tree;
  gd::build_elf(tree.dir, {"d2/libcaller.so.1", "libcaller.so.1", {}, tree.d2, true});
  gd::build_elf(tree.dir, {"bin/app", "", {tree.d2 + "/libcaller.so.1"}, tree.d2 + ":" + tree.d1, true});
  ::unsetenv("LD_LIBRARY_PATH");
  gd::LiveHost host;
  const auto main = gd::read_elf(host, tree.dir / "bin/app");
  gd::LoadSimulation simulation(host, gd::detect_loader_config(host, *main, 0755));
  REQUIRE(simulation.load_main(tree.dir / "bin/app"));
  const auto opened = simulation.dlopen("libdep.so.1", tree.d2 + "/libcaller.so.1");
  CHECK(opened.path == tree.d2 + "/libdep.so.1");
  CHECK(opened.via == gd::LoadVia::runpath);
  CHECK(opened.requested_by == tree.d2 + "/libcaller.so.1");
}

TEST_CASE("glibc-hwcaps subdirectories are preferred, as glibc prefers them") {
  Tree tree;
  tree.dir.mkdir("d1/glibc-hwcaps/x86-64-v2");
  gd::build_elf(tree.dir, {"d1/glibc-hwcaps/x86-64-v2/libdep.so.1", "libdep.so.1", {}, "", false});
  gd::build_elf(tree.dir, {"bin/app", "", {tree.d1 + "/libdep.so.1"}, tree.d1, true});
  const auto simulated = simulate(tree.dir / "bin/app", "");
  CHECK(simulated.view == glibc_view(tree.dir / "bin/app", ""));
  gd::LiveHost host;
  const auto cpuinfo = host.read_file("/proc/cpuinfo", 1 << 20);
  const auto levels = gd::x86_64_levels(cpuinfo ? *cpuinfo : std::string());
  if (std::find(levels.begin(), levels.end(), "x86-64-v2") != levels.end())
    CHECK(find(simulated, "libdep.so.1").path == tree.d1 + "/glibc-hwcaps/x86-64-v2/libdep.so.1");
}

TEST_CASE("musl: LD_LIBRARY_PATH first, RUNPATH inherited, the .path file, built-in libc") {
  Tree tree;
  // A root laid out like an Alpine system; the program names musl's loader.
  const gd::TempDir& root = tree.dir;
  root.mkdir("sys/lib");
  root.mkdir("etc");
  root.write("etc/ld-musl-x86_64.path", "/sys/lib\n");
  root.mkdir("lib");
  std::filesystem::copy_file(tree.d1 + "/libdep.so.1", root / "lib/ld-musl-x86_64.so.1");
  gd::build_elf(root, {"sys/lib/libmid.so.1", "libmid.so.1", {tree.d2 + "/libdep.so.1"}, "", false});
  gd::build_elf(root, {"bin/app", "", {root / "sys/lib/libmid.so.1"}, "/d1", true});
  {
    // Point PT_INTERP at musl's loader: patch the interpreter string in place.
    std::fstream patch(root / "bin/app", std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(patch)), {});
    const auto at = bytes.find("/lib64/ld-linux-x86-64.so.2");
    REQUIRE(at != std::string::npos);
    patch.seekp(static_cast<std::streamoff>(at));
    patch.write("/lib/ld-musl-x86_64.so.1\0\0\0", 27);
  }
  ::setenv("LD_LIBRARY_PATH", "/d2", 1);
  gd::LiveHost host(root.path());
  const auto main = gd::read_elf(host, "/bin/app");
  REQUIRE(main);
  REQUIRE(main->interpreter == "/lib/ld-musl-x86_64.so.1");
  const auto config = gd::detect_loader_config(host, *main, 0755);
  CHECK(config.libc == gd::Libc::musl);
  CHECK(config.default_dirs == std::vector<std::string>{"/sys/lib"});
  gd::LoadSimulation simulation(host, config);
  REQUIRE(simulation.load_main("/bin/app"));
  ::unsetenv("LD_LIBRARY_PATH");
  std::map<std::string, gd::Resolution> by_name;
  for (const auto& resolution : simulation.resolutions()) by_name.emplace(resolution.name, resolution);
  CHECK(by_name["libmid.so.1"].path == "/sys/lib/libmid.so.1");
  CHECK(by_name["libmid.so.1"].via == gd::LoadVia::default_dirs);
  // LD_LIBRARY_PATH (/d2) comes before the program's RUNPATH (/d1) in musl.
  CHECK(by_name["libdep.so.1"].path == "/d2/libdep.so.1");
  CHECK(by_name["libdep.so.1"].via == gd::LoadVia::ld_library_path);
  CHECK(by_name["libc.so.6"].path == "/lib/ld-musl-x86_64.so.1");
}

TEST_CASE("an empty path element is the current directory, as in NVIDIA's '$ORIGIN:' RUNPATHs") {
  Tree tree;
  gd::build_elf(tree.dir, {"bin/app", "", {tree.d2 + "/libdep.so.1"}, "/nonexistent:", true});
  const auto simulated = simulate(tree.dir / "bin/app", "", tree.d2);
  CHECK(find(simulated, "libdep.so.1").path == tree.d2 + "/libdep.so.1");
  // glibc finds it too; its path is then the bare name, which ld.so prints without "=>".
  const auto glibc = gd::run_child({"env", "-i", "--chdir=" + tree.d2, k_ld_so, "--list", tree.dir / "bin/app"},
                                     std::chrono::seconds(30));
  CHECK(glibc.exit == 0);
  CHECK(gd::contains(glibc.output, "\tlibdep.so.1 ("));
  const auto unknown = simulate(tree.dir / "bin/app", "");  // no cwd: reported, not searched
  CHECK_FALSE(find(unknown, "libdep.so.1").path);
  const auto& tried = find(unknown, "libdep.so.1").tried;
  CHECK(std::any_of(tried.begin(), tried.end(), [](const gd::TriedPath& t) { return gd::contains(t.outcome, "current directory"); }));
}

TEST_CASE("glibc before 2.37 still tries the legacy tls/ and platform subdirectories") {
  Tree tree;
  tree.dir.mkdir("d1/tls");
  gd::build_elf(tree.dir, {"d1/tls/libdep.so.1", "libdep.so.1", {}, "", false});
  gd::build_elf(tree.dir, {"bin/app", "", {tree.d1 + "/libdep.so.1"}, tree.d1, true});
  const auto simulated = simulate(tree.dir / "bin/app", "");
  CHECK(simulated.view == glibc_view(tree.dir / "bin/app", ""));  // whichever this system's glibc picks
}

TEST_CASE("a RUNPATH of 8,000 directories times 13 NEEDED names: each cap is reached and said") {
  gd::TempDir dir;
  dir.mkdir("d1");
  dir.mkdir("bin");
  std::vector<std::string> needed;
  for (int i = 0; i < 13; ++i) {
    const std::string name = "libn" + std::to_string(i) + ".so.1";
    gd::build_elf(dir, {"d1/" + name, name, {}, "", false});
    needed.push_back(dir / ("d1/" + name));
  }
  std::string runpath;
  for (int i = 0; i < 8000; ++i) runpath += (i ? ":/n/" : "/n/") + std::to_string(i);
  gd::build_elf(dir, {"bin/many", "", needed, runpath, true});
  std::filesystem::remove_all(dir / "d1");  // nothing is found: every name searches every directory
  const auto simulated = simulate(dir / "bin/many", "");
  const auto& first = find(simulated, "libn0.so.1");
  REQUIRE(first.tried.size() == gd::k_max_tried_listed);
  CHECK(gd::contains(first.tried[gd::k_max_tried_listed - 2].outcome, "not listed"));
  // 4,096 directories of the RUNPATH are used (the path-list cap), 13 times: past the search cap.
  const auto& last = find(simulated, "libn12.so.1");
  CHECK(last.tried.back().path == "(search stopped)");
  CHECK(gd::contains(last.tried.back().outcome, "50000 directory lookups"));
  CHECK_FALSE(last.path);
}

TEST_CASE("a library's NEEDED names are all searched through its RUNPATH parsed once, not once per name") {
  // CuPy's 257 extension modules, each with a long RUNPATH and 21 NEEDED,
  // took 10 s when each name parsed the list again.
  gd::TempDir dir;
  dir.mkdir("bin");
  std::vector<std::string> needed;
  for (int i = 0; i < 21; ++i) {
    const std::string name = "libn" + std::to_string(i) + ".so.1";
    gd::build_elf(dir, {"lib/" + name, name, {}, "", false});
    needed.push_back(dir / ("lib/" + name));
  }
  std::string runpath;
  for (int i = 0; i < 2000; ++i) runpath += "/n/" + std::to_string(i) + ":";
  runpath += dir / "lib";
  gd::build_elf(dir, {"bin/module", "", needed, runpath, true});
  gd::LiveHost host;
  const auto main = gd::read_elf(host, dir / "bin/module");
  REQUIRE(main);
  gd::LoadSimulation simulation(host, gd::detect_loader_config(host, *main, 0755));
  REQUIRE(simulation.load_main(dir / "bin/module"));
  std::size_t found = 0;
  for (const auto& resolution : simulation.resolutions())
    if (resolution.path && resolution.via == gd::LoadVia::runpath && gd::contains(resolution.via_detail, "RUNPATH of")) ++found;
  CHECK(found == 21);
  CHECK(simulation.lists_parsed() == 1);
}

TEST_CASE("a library whose RUNPATH passes gpudoctor's 64 KiB cap is found, and the cap is said, not called invalid") {
  gd::TempDir dir;
  dir.mkdir("lib");
  dir.mkdir("bin");
  std::string runpath;
  for (int i = 0; runpath.size() < 100000; ++i) runpath += (i ? ":/opt/d" : "/opt/d") + std::to_string(i);
  gd::build_elf(dir, {"lib/libwide.so.1", "libwide.so.1", {}, runpath, true});
  gd::build_elf(dir, {"bin/app", "", {dir / "lib/libwide.so.1"}, dir / "lib", true});
  const auto simulated = simulate(dir / "bin/app", "");
  const auto& wide = find(simulated, "libwide.so.1");
  REQUIRE(wide.path);
  CHECK_FALSE(wide.fatal);
  CHECK(wide.tried.back().outcome.starts_with("found (a dynamic string longer than 65536 bytes was cut there)"));
}
