#include "probes/service_settings.h"

#include "host/host_paths.h"
#include "probes/engine_configs.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("a service's settings: ExecStart's words with continuations, Environment= and EnvironmentFile= variables (split as $NAME is), drop-ins") {
  gd::ProbeFixture f;
  f.host.file("/usr/lib/systemd/system/crio.service",
              "[Service]\n# ExecStart=/usr/bin/crio --default-runtime=commented\n"
              "EnvironmentFile=-/etc/sysconfig/crio\nEnvironmentFile=-/etc/sysconfig/gone\n"
              "Environment=GOTRACEBACK=crash \"CONTAINER_HOOKS_DIR=/opt/hooks d\"\n"
              "ExecStart=/usr/bin/crio \\\n    $CRIO_CONFIG_OPTIONS \\\n    --log-level 'info'\n");
  f.host.file("/etc/sysconfig/crio", "# comment\n#CRIO_NETWORK_OPTIONS=--x\nexport CRIO_CONFIG_OPTIONS=\"--config-dir /srv/crio.d\"\n");
  f.host.file("/etc/systemd/system/crio.service.d/10-flags.conf", "[Service]\nExecStart=\nExecStart=/usr/bin/crio -c /srv/crio.conf\n");
  f.host.file("/etc/systemd/system/crio.service.d/README", "ExecStart=/usr/bin/crio --not-a-drop-in\n");
  const auto settings = gd::read_service_settings(f.host, "crio.service");
  std::vector<std::string> words;
  for (const auto& word : settings.command_words()) words.push_back(word.text);
  // The drop-in's empty ExecStart= dropped the unit's command.
  CHECK(words == std::vector<std::string>{"/usr/bin/crio", "-c", "/srv/crio.conf", "crash", "/opt/hooks", "d", "--config-dir", "/srv/crio.d"});
  REQUIRE(settings.variables.size() == 3);
  CHECK(settings.variables[1].text == "CONTAINER_HOOKS_DIR=/opt/hooks d");
  CHECK(settings.variables[1].file == "/usr/lib/systemd/system/crio.service");
  CHECK(settings.variables[2].text == "CRIO_CONFIG_OPTIONS=--config-dir /srv/crio.d");
  CHECK(settings.variables[2].file == "/etc/sysconfig/crio");
  CHECK(gd::read_service_settings(f.host, "containerd.service").command_words().empty());  // not installed
}

TEST_CASE("a service's drop-ins: /etc, /run and /usr/lib, by file name, the first directory's file where two share a name; empty settings reset") {
  gd::ProbeFixture f;
  f.host.file("/lib/systemd/system/docker.service", "[Service]\nEnvironment=A=1\nEnvironmentFile=/etc/default/docker\nExecStart=/usr/bin/dockerd -H fd://\n");
  f.host.file("/etc/default/docker", "B=2\n");
  f.host.file("/usr/lib/systemd/system/docker.service.d/10-vendor.conf", "[Service]\nExecStart=\nExecStart=/usr/bin/dockerd --vendor\n");
  f.host.file("/etc/systemd/system/docker.service.d/20-site.conf", "[Service]\nEnvironment=\nEnvironment=C=3\n");
  f.host.file("/run/systemd/system/docker.service.d/20-site.conf", "[Service]\nExecStart=\nExecStart=/usr/bin/dockerd --hidden\n");
  f.host.file("/run/systemd/system/docker.service.d/30-runtime.conf", "[Service]\nEnvironmentFile=\n");
  const auto settings = gd::read_service_settings(f.host, "docker.service");
  std::vector<std::string> words, variables;
  for (const auto& word : settings.command_words()) words.push_back(word.text);
  for (const auto& variable : settings.variables) variables.push_back(variable.text);
  // /etc's 20-site.conf hides /run's (whose command never counts); 30-runtime.conf drops the environment file.
  CHECK(words == std::vector<std::string>{"/usr/bin/dockerd", "--vendor", "3"});
  CHECK(variables == std::vector<std::string>{"C=3"});
  CHECK(settings.command_words()[1].file == "/usr/lib/systemd/system/docker.service.d/10-vendor.conf");
}

TEST_CASE("a flag in a command word: alone or with =VALUE, never as a longer flag's start") {
  CHECK(gd::names_flag("--config", "--config"));
  CHECK(gd::names_flag("--config=/srv/crio.conf", "--config"));
  CHECK_FALSE(gd::names_flag("--config-dir=/srv", "--config"));
  CHECK_FALSE(gd::names_flag("--conf", "--config"));
  CHECK(gd::names_flag("-c=x", "-c"));
  CHECK_FALSE(gd::names_flag("-cx", "-c"));
}

TEST_CASE("a service's command line as systemd runs it: the program's prefixes dropped, $NAME split, ${NAME} in place; PATH") {
  gd::ProbeFixture f;
  f.host.file("/usr/local/lib/systemd/system/containerd.service",
              "[Service]\nEnvironment=\"OPTS=--log-level debug\" DIR=/srv/ctr PATH=/opt/bin:/usr/bin\n"
              "ExecStart=-/usr/local/bin/containerd $OPTS --config=${DIR}/config.toml $UNSET\n");
  auto settings = gd::read_service_settings(f.host, "containerd.service");
  CHECK(settings.command_line() == std::vector<std::string>{"/usr/local/bin/containerd", "--log-level", "debug", "--config=/srv/ctr/config.toml"});
  CHECK(settings.search_path() == "/opt/bin:/usr/bin");
  f.host.file("/usr/local/lib/systemd/system/containerd.service", "[Service]\nExecStart=@/usr/bin/containerd my-containerd -c /a.toml\n");
  settings = gd::read_service_settings(f.host, "containerd.service");
  CHECK(settings.command_line() == std::vector<std::string>{"/usr/bin/containerd", "-c", "/a.toml"});
  CHECK(settings.search_path() == gd::k_service_path);
  f.host.file("/etc/systemd/system/containerd.service.d/10-off.conf", "[Service]\nExecStart=\n");
  CHECK(gd::read_service_settings(f.host, "containerd.service").command_line().empty());
}

TEST_CASE("a Go flag's value: one or two dashes, = or the next word, the last one given; any of its names") {
  using Words = std::vector<std::string>;
  CHECK(gd::go_flag_value(Words{"containerd", "--config", "/a.toml"}, {"config", "c"}) == "/a.toml");
  CHECK(gd::go_flag_value(Words{"containerd", "-c=/b.toml", "--log-level", "info"}, {"config", "c"}) == "/b.toml");
  CHECK(gd::go_flag_value(Words{"containerd", "-config", "/a.toml", "--c", "/c.toml"}, {"config", "c"}) == "/c.toml");
  CHECK_FALSE(gd::go_flag_value(Words{"containerd", "--config-dir", "/d", "--cx=1", "-c"}, {"config", "c"}));
  CHECK_FALSE(gd::go_flag_value(Words{"--config", "/argv0-is-not-a-flag"}, {"config"}));
  CHECK_FALSE(gd::go_flag_value(Words{"containerd", "--", "--config", "/after-the-end"}, {"config"}));
}

TEST_CASE("a repeatable flag's values, each in order") {
  using Words = std::vector<std::string>;
  const Words containerd{"containerd", "-a", "/run/a.sock", "--address=/run/b.sock", "--address-x", "y"};
  CHECK(gd::go_flag_values(containerd, {"address", "a"}) == Words{"/run/a.sock", "/run/b.sock"});
  CHECK(gd::go_flag_values(Words{"containerd", "--config", "/p"}, {"address", "a"}).empty());
}

TEST_CASE("pflag, as dockerd reads its command line: two dashes for a long name, one letter joined, after = or the next word") {
  using Words = std::vector<std::string>;
  const Words dockerd{"dockerd", "-H", "fd://", "--host=unix:///run/a.sock", "--hostname", "x", "-Hunix:///run/b.sock", "-H=tcp://0.0.0.0:2375",
                      "--host", "unix:///run/c.sock"};
  CHECK(gd::pflag_values(dockerd, "host", 'H') == Words{"fd://", "unix:///run/a.sock", "unix:///run/b.sock", "tcp://0.0.0.0:2375", "unix:///run/c.sock"});
  // One dash and a long name is a cluster of letters to pflag, not the flag; -p is --pidfile's letter, not -pidfile's.
  CHECK_FALSE(gd::pflag_value(Words{"dockerd", "-pidfile", "/p"}, "pidfile"));
  CHECK(gd::pflag_value(Words{"dockerd", "-p/run/d.pid"}, "pidfile", 'p') == "/run/d.pid");
  CHECK(gd::pflag_value(Words{"dockerd", "--config-file", "/etc/d.json", "--config-file=/etc/e.json"}, "config-file") == "/etc/e.json");
  CHECK_FALSE(gd::pflag_value(Words{"dockerd", "--", "--config-file=/x"}, "config-file"));
  CHECK_FALSE(gd::pflag_value(Words{"dockerd", "-H"}, "host", 'H'));
  // Clusters: boolean letters take nothing; the first other letter takes the rest, or the next word.
  CHECK(gd::pflag_values(Words{"dockerd", "-DH", "unix:///run/d.sock", "-vDHtcp://h:1"}, "host", 'H', "Dvh") ==
        Words{"unix:///run/d.sock", "tcp://h:1"});
  // -l takes "-H" as its value (the next word), and -lH's H is -l's value: no host either way.
  CHECK(gd::pflag_values(Words{"dockerd", "-l", "-H", "-lH", "-Dl", "-H"}, "host", 'H', "Dvh").empty());
  CHECK(gd::pflag_values(Words{"dockerd", "-DH=fd://"}, "host", 'H', "Dvh") == Words{"fd://"});
  // Without the program's booleans, a cluster is read only where the letter comes first.
  CHECK(gd::pflag_values(Words{"dockerd", "-DH", "fd://"}, "host", 'H').empty());
}

TEST_CASE("CRI-O: flags and CONTAINER_* variables that set what its files would are said; those naming other files are followed") {
  auto command_line = [](const std::string& sysconfig) {
    gd::ProbeFixture f;
    f.host.file("/usr/bin/crio", "");
    f.host.file("/usr/lib/systemd/system/crio.service",
                "[Service]\nEnvironmentFile=-/etc/sysconfig/crio\nExecStart=/usr/bin/crio $CRIO_CONFIG_OPTIONS $CRIO_RUNTIME_OPTIONS\n");
    f.host.file("/etc/sysconfig/crio", sysconfig);
    gd::ProbeNotes notes;
    const auto crio = gd::read_crio_engine(f.host, notes);
    REQUIRE(crio);
    return crio->command_line;
  };
  auto sets = [](const std::string& sysconfig) {
    gd::ProbeFixture f;
    f.host.file("/usr/bin/crio", "");
    f.host.file("/usr/lib/systemd/system/crio.service", "[Service]\nEnvironmentFile=-/etc/sysconfig/crio\nExecStart=/usr/bin/crio $CRIO_RUNTIME_OPTIONS\n");
    f.host.file("/etc/sysconfig/crio", sysconfig);
    gd::ProbeNotes notes;
    const auto crio = gd::read_crio_engine(f.host, notes);
    REQUIRE(crio);
    return std::pair{crio->command_line_sets_runtimes, crio->command_line_sets_hooks};
  };
  // Each flag hides only what it sets: the rest is judged from the files.
  CHECK(sets("CRIO_RUNTIME_OPTIONS=--hooks-dir=/opt/hooks\n") == std::pair{false, true});
  CHECK(sets("CRIO_RUNTIME_OPTIONS=--default-runtime=nvidia\n") == std::pair{true, false});
  CHECK(sets("CONTAINER_RUNTIMES=x:/bin/x:/run/x\n") == std::pair{true, false});
  CHECK(sets("CRIO_RUNTIME_OPTIONS=--config=/srv/crio.conf\n") == std::pair{false, false});
  CHECK(command_line("#CRIO_METRICS_OPTIONS=\"--enable-metrics\"\n").empty());  // the package's file
  CHECK(command_line("CRIO_CONFIG_OPTIONS=\"--config-dir=/etc/crio/crio.conf.d -c /etc/crio/crio.conf\"\n").empty());
  CHECK(command_line("CRIO_RUNTIME_OPTIONS=--default-runtime nvidia\n") ==
        std::vector<std::string>{"--default-runtime=nvidia (/etc/sysconfig/crio)"});
  CHECK(command_line("CONTAINER_DEFAULT_RUNTIME=nvidia\n") == std::vector<std::string>{"--default-runtime=nvidia (/etc/sysconfig/crio)"});
  CHECK(command_line("CRIO_CONFIG_OPTIONS=-d /srv/crio.d\n").empty());
  CHECK(command_line("CRIO_RUNTIME_OPTIONS=\"--hooks-dir=/opt/hooks --runtimes=x:/bin/x:/run/x\"\n") ==
        std::vector<std::string>{"--hooks-dir=/opt/hooks (/etc/sysconfig/crio)", "--runtimes=x:/bin/x:/run/x (/etc/sysconfig/crio)"});
}

TEST_CASE("CRI-O reads the file and drop-ins its command line names, else those its CONTAINER_* variables name") {
  auto files = [](const std::string& sysconfig, const std::string& drop_in = {}) {
    gd::ProbeFixture f;
    f.host.file("/usr/bin/crio", "");
    f.host.file("/usr/lib/systemd/system/crio.service",
                "[Service]\nEnvironmentFile=-/etc/sysconfig/crio\nExecStart=/usr/bin/crio $CRIO_CONFIG_OPTIONS\n");
    if (!drop_in.empty()) f.host.file("/etc/systemd/system/crio.service.d/10.conf", drop_in);
    f.host.file("/etc/sysconfig/crio", sysconfig);
    for (const char* path : {"/etc/crio/crio.conf", "/etc/crio/crio.conf.d/10.conf", "/srv/crio.conf", "/srv/crio.d/10.conf", "/env/crio.d/10.conf"})
      f.host.file(path, "[crio.runtime]\n");
    gd::ProbeNotes notes;
    return gd::read_crio_engine(f.host, notes).value().files;
  };
  using Files = std::vector<std::string>;
  CHECK(files("") == Files{"/etc/crio/crio.conf", "/etc/crio/crio.conf.d/10.conf"});
  CHECK(files("CRIO_CONFIG_OPTIONS=\"-c /srv/crio.conf --config-dir=/srv/crio.d\"\n") == Files{"/srv/crio.conf", "/srv/crio.d/10.conf"});
  CHECK(files("CONTAINER_CONFIG_DIR=/env/crio.d\n") == Files{"/etc/crio/crio.conf", "/env/crio.d/10.conf"});
  // A flag before its variable (urfave/cli), wherever each is set.
  CHECK(files("CRIO_CONFIG_OPTIONS=-d /srv/crio.d\n", "[Service]\nEnvironment=CONTAINER_CONFIG_DIR=/env/crio.d\n") ==
        Files{"/etc/crio/crio.conf", "/srv/crio.d/10.conf"});
}

TEST_CASE("a unit's words as systemd splits them: C escapes in and out of quotes, quotes inside a word; a variable's value keeps the character after a backslash") {
  gd::ProbeFixture f;
  f.host.file("/lib/systemd/system/docker.service",
              "[Service]\n"
              "Environment=\"OPTS=--label a\\\\ b\" SEP=x\\ty\n"
              "ExecStart=/usr/bin/dockerd --data-root=\"/srv/my\\x20docker\" -H\\sfd:// \\\n"
              "  --label='it\\'s' --x=a\"b c\"d --bad=\\q --octal=\\101 --u=\\u00e9 --nul=\\x00 $OPTS\n"
              "ExecCondition=/bin/sh -c 'echo \\\\\\\\' \\\\\n");
  const auto settings = gd::read_service_settings(f.host, "docker.service");
  CHECK(settings.command_line() == std::vector<std::string>{"/usr/bin/dockerd", "--data-root=/srv/my docker", "-H fd://", "--label=it's",
                                                            "--x=ab cd", "--bad=\\q", "--octal=A", "--u=\xc3\xa9", "--nul=\\x00",
                                                            "--label", "a b"});
  REQUIRE(settings.variables.size() == 2);
  CHECK(settings.variables[1].text == "SEP=x\ty");
  // OPTS is `--label a\ b`, whose backslash keeps the space in $OPTS's word.
  // `\\` twice: two backslashes after unescaping; the line's last `\\` is an escaped backslash, no continuation.
  REQUIRE(settings.exec_conditions.size() == 1);
  CHECK(settings.exec_conditions[0] == std::vector<std::string>{"/bin/sh", "-c", "echo \\\\", "\\"});
}
