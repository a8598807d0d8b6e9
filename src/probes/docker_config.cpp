// Docker's daemon.json read as dockerd reads it at start (moby
// daemon/config/config.go, daemon/runtime_unix.go): a file it refuses stops
// the daemon, and so does a default runtime it does not know.
#include "probes/engine_configs.h"

#include "host/host_paths.h"
#include "probes/process_scan.h"
#include "probes/service_settings.h"
#include "probes/systemd_units.h"
#include "util/path.h"
#include "util/text.h"

#include <boost/json.hpp>

#include <cerrno>

namespace gd {
namespace {

constexpr const char* k_daemon_json = "/etc/docker/daemon.json";
constexpr std::string_view k_byte_order_mark = "\xEF\xBB\xBF";  // dockerd (moby 23 and later) skips it
constexpr std::size_t k_max_runtimes = 32;

// dockerd accepts these as a default without configuring them: its own runc
// under both names, and any name shaped like a containerd shim's (io.containerd.runsc.v1).
bool stock_or_shim_name(std::string_view name) {
  if (name == "runc" || name == "io.containerd.runc.v2") return true;
  const auto dot = name.find('.');
  return dot != std::string_view::npos && dot > 0 && name.find('/') == std::string_view::npos;
}

bool only_blanks(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

// Where dockerd looks for a runtime's program given by a bare name: its
// PATH, unknown for a rootless daemon whose unit writes none.
using SearchPath = std::optional<std::string>;

// Reads the keys that decide GPU containers; the first thing dockerd would refuse is the problem.
void read_settings(Host& host, const boost::json::object& config, const SearchPath& search_path, DockerEngineFacts& facts) {
  auto refuse = [&facts](std::string why) {
    if (!facts.problem) facts.problem = std::move(why);
  };
  // The default first: each runtime is marked as it is read.
  std::string default_runtime = "runc";  // as written: names are compared before they are escaped for the report
  if (const auto* name = config.if_contains("default-runtime")) {
    if (!name->is_string()) return refuse("\"default-runtime\" is not a string");
    if (!name->as_string().empty()) default_runtime = name->as_string();
  }
  facts.default_runtime = printable(default_runtime, 60);
  facts.default_runtime_defined = stock_or_shim_name(default_runtime);
  if (const auto* runtimes = config.if_contains("runtimes")) {
    if (!runtimes->is_object()) return refuse("\"runtimes\" is not an object");
    for (const auto& [key, runtime] : runtimes->as_object()) {
      const std::string name = printable(key, 60);
      if (!runtime.is_object()) return refuse("runtime " + name + " is not an object");
      if (key == "runc") return refuse("runtime name 'runc' is reserved");
      const auto& fields = runtime.as_object();
      const auto* path = fields.if_contains("path");
      const auto* type = fields.if_contains("runtimeType");
      if ((path && !path->is_string()) || (type && !type->is_string())) return refuse("runtime " + name + ": path or runtimeType is not a string");
      const bool has_path = path && !path->as_string().empty(), has_type = type && !type->as_string().empty();
      if (!has_path && !has_type) return refuse("runtime " + name + ": either a runtimeType or a path must be configured");
      if (has_path && has_type) return refuse("runtime " + name + ": cannot configure both path and runtimeType for the same runtime");
      const bool is_default = key == default_runtime;
      facts.default_runtime_defined = facts.default_runtime_defined || is_default;
      if (facts.runtimes.size() == k_max_runtimes) continue;
      EngineRuntime entry{.name = name, .is_default = is_default};
      if (has_path) {
        const std::string program(path->as_string());
        entry.binary = printable(program, 200);
        if (search_path || program.find('/') != std::string::npos) entry.found = engine_program_found(host, program, search_path.value_or(""));
      }
      facts.runtimes.push_back(std::move(entry));
    }
  }
  if (const auto* features = config.if_contains("features")) {
    if (!features->is_object()) return refuse("\"features\" is not an object");
    for (const auto& [key, value] : features->as_object())
      if (!value.is_bool()) return refuse("feature " + printable(key, 60) + " is not true or false");
    if (const auto* cdi = features->as_object().if_contains("cdi")) facts.cdi = cdi->as_bool();
  }
  if (const auto* options = config.if_contains("exec-opts")) {
    if (!options->is_array()) return refuse("\"exec-opts\" is not a list");
    for (const auto& option : options->as_array()) {
      if (!option.is_string()) return refuse("an exec-opts entry is not a string");
      const std::string_view text = option.as_string();
      if (text.starts_with("native.cgroupdriver=")) facts.cgroup_driver = printable(text.substr(20), 40);
    }
  }
}

// dockerd's own flags can define runtimes (--add-runtime) and the default
// (--default-runtime) beside daemon.json: where docker.service's command line
// (its unit, drop-ins and environment) passes either, daemon.json alone does
// not say which runtimes there are.
bool passes_runtime_flags(const ServiceSettings& service) {
  for (const auto& word : service.command_words())
    for (const std::string_view flag : {"--add-runtime", "--default-runtime"})
      if (names_flag(word.text, flag)) return true;
  return false;
}

// A daemon.json read as dockerd reads it (an empty file and a byte order mark are fine).
void read_daemon_json(Host& host, const std::string& path, const EngineFile& file, const SearchPath& search_path, DockerEngineFacts& facts) {
  if (file.missing) return;
  facts.config = printable(path, 200);
  if (!file.text) return;  // there, but not read: noted
  std::string_view json = *file.text;
  if (json.starts_with(k_byte_order_mark)) json.remove_prefix(k_byte_order_mark.size());
  if (only_blanks(json)) return;  // dockerd starts with an empty file
  boost::system::error_code error;
  const auto document = boost::json::parse(json, error);
  if (error)
    facts.problem = "not JSON: " + printable(error.message(), 120);
  else if (!document.is_object())
    facts.problem = "not a JSON object";
  else
    read_settings(host, document.as_object(), search_path, facts);
}

// The dockerd that runs now: the process its pid file names, if that
// process is dockerd (a pid file outlives a daemon that crashed). A --root
// tree's pid file names none of this machine's processes.
std::optional<std::int64_t> running_dockerd(Host& host, const std::string& pid_file) {
  if (host.mode() == HostMode::root) return std::nullopt;
  const auto text = host.read_file(pid_file, 64);
  const auto pid = text ? parse_int(trim(*text)) : std::nullopt;
  if (!pid || *pid <= 0) return std::nullopt;
  const auto stat = host.read_file("/proc/" + std::to_string(*pid) + "/stat", k_small_file);
  const auto process = stat ? parse_proc_stat(*stat) : std::nullopt;
  if (!process || process->command != "dockerd") return std::nullopt;
  return pid;
}

// dockerd's one-letter boolean flags (cmd/dockerd: --debug, --version, --help),
// which a cluster such as -DH may hold before the flag read.
constexpr std::string_view k_dockerd_bool_shorthands = "Dvh";

// Its socket: the first unix one its -H flags name; docker.socket's
// (-H fd://) and dockerd's own default are both /var/run/docker.sock.
std::string dockerd_socket(const std::vector<std::string>& command) {
  for (const auto& host : pflag_values(command, "host", 'H', k_dockerd_bool_shorthands))
    if (host.starts_with("unix://") && host.size() > 7) return host.substr(7);
  return "/var/run/docker.sock";
}

}  // namespace

std::optional<RootlessDockerFacts> read_rootless_docker(Host& host, ProbeNotes& notes) {
  const auto config_dir = user_config_dir(host);
  if (!config_dir) return std::nullopt;
  const std::string unit = *config_dir + "/systemd/user/docker.service";
  // The rootless daemon's unit runs dockerd-rootless.sh (a user's other docker.service is not it).
  const auto settings = read_unit_settings(host, unit, {unit + ".d"});
  const auto command = settings.command_line();
  if (command.empty() || !base_name(command.front()).starts_with("dockerd-rootless")) return std::nullopt;
  RootlessDockerFacts facts{.unit = printable(unit, 200)};
  facts.enabled = host.exists(*config_dir + "/systemd/user/default.target.wants/docker.service");
  // dockerd-rootless-setuptool.sh writes the PATH it was run with into the unit.
  const SearchPath search_path = settings.variable("PATH");
  if (search_path) facts.path = printable(*search_path, 400);
  DockerEngineFacts daemon;
  const std::string daemon_json = *config_dir + "/docker/daemon.json";
  read_daemon_json(host, daemon_json, read_engine_file(host, daemon_json, notes), search_path, daemon);
  facts.config = daemon.config;
  facts.problem = daemon.problem;
  facts.default_runtime = daemon.default_runtime;
  facts.default_runtime_defined = daemon.default_runtime_defined;
  facts.runtimes = std::move(daemon.runtimes);
  // dockerd-rootless.sh starts it with its pid file and socket in $XDG_RUNTIME_DIR.
  if (const auto runtime_dir = host.env("XDG_RUNTIME_DIR"); runtime_dir && runtime_dir->starts_with('/')) {
    facts.pid = running_dockerd(host, *runtime_dir + "/docker.pid");
    if (facts.pid) facts.socket = printable(*runtime_dir + "/docker.sock", 200);
  }
  return facts;
}

std::optional<DockerEngineFacts> read_docker_engine(Host& host, ProbeNotes& notes) {
  DockerEngineFacts facts;
  facts.installed = find_on_path(host, "dockerd", k_service_path).has_value();
  // No Docker here: no unit is read (a daemon.json there but unreadable still names Docker).
  if (!facts.installed)
    if (const auto there = host.stat(k_daemon_json); !there && (there.error().value() == ENOENT || there.error().value() == ENOTDIR))
      return std::nullopt;
  // The rootful daemon starts at boot through docker.service or docker.socket;
  // a rootless one is a user's unit, with its own daemon.json.
  const auto unit = find_systemd_unit(host, "docker.service");
  const auto service = read_service_settings(host, "docker.service", unit);
  const auto command = service.command_line();
  // The file dockerd reads: --config-file on its command line, else the default.
  std::string daemon_json = k_daemon_json;
  const auto named = pflag_value(command, "config-file");
  if (named && !named->empty()) daemon_json = *named;
  const auto file = read_engine_file(host, daemon_json, notes);
  // dockerd starts without its default file, not without one its flag names.
  if (named && file.missing) {
    facts.config = printable(daemon_json, 200);
    facts.problem = "it does not exist (docker.service passes --config-file " + *facts.config + ")";
  }
  facts.rootful_service = unit.enabled || find_systemd_unit(host, "docker.socket").enabled;
  // dockerd looks for the hook (at start) and a runtime's bare program name on the PATH docker.service gives it.
  facts.runtime_flags = passes_runtime_flags(service);
  if (const auto path = service.variable("PATH")) facts.path = printable(*path, 400);
  const std::string search_path = service.search_path();
  facts.gpus_hook = find_on_path(host, "nvidia-container-runtime-hook", search_path).has_value();
  facts.cdi_hook = find_on_path(host, "nvidia-cdi-hook", search_path).has_value();
  read_daemon_json(host, daemon_json, file, search_path, facts);
  facts.pid = running_dockerd(host, pflag_value(command, "pidfile", 'p', k_dockerd_bool_shorthands).value_or("/var/run/docker.pid"));
  if (facts.pid) facts.socket = printable(dockerd_socket(command), 200);
  return facts;
}

}  // namespace gd
