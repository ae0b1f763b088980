// powersensor-read: the energy of a command, or a power trace, from whatever meters the machine
// has: a PowerSensor3 on USB, NVIDIA GPUs (NVML), CPU packages (RAPL).
//
//   powersensor-read -- dedisp obs.fil --lodm 0 --numdms 512    energy of one command
//   powersensor-read --dump trace.csv                           record until Ctrl-C
//   powersensor-read --replay pmt-nvml.log                      summarise a recorded trace
//
// Exit status: the command's (128 + signal if a signal ended it); 2 for bad usage; 1 when no
// meter could be read, or a meter failed during a run the command itself passed.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "power/command_runner.hpp"
#include "power/marker_fifo.hpp"
#include "power/power_report.hpp"
#include "power/power_sampler.hpp"
#include "power/power_source_factory.hpp"
#include "power/powersensor3_emulator.hpp"

namespace {

struct Settings {
  rapt::SourceSelection selection;
  double interval_ms = 100;
  double seconds = 0;  // --dump: stop after this long (0 = until a signal)
  std::string csv_path, json_path, dump_path, marker_fifo, replay_path;
  bool emulate = false;
  std::vector<std::string> command;
};

// Splits argv at the first "--": what follows is the command, never parsed as options.
std::vector<std::string> split_command(int& argc, char** argv) {
  std::vector<std::string> command;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) != "--") continue;
    for (int j = i + 1; j < argc; ++j) command.push_back(argv[j]);
    argc = i;
    break;
  }
  return command;
}

Settings read_settings(const rapt::ParsedOptions& args, std::vector<std::string> command) {
  const cxxopts::ParseResult& r = args.result;
  Settings settings;
  settings.selection.kinds.clear();
  for (const std::string& list : r["source"].as<std::vector<std::string>>()) {
    std::stringstream items(list);
    std::string kind;
    while (std::getline(items, kind, ',')) settings.selection.kinds.push_back(kind);
  }
  rapt::check_source_kinds(settings.selection.kinds);
  if (r.count("device")) settings.selection.device = r["device"].as<std::string>();
  settings.selection.sysfs_root = r["sysfs-root"].as<std::string>();
  settings.interval_ms = r["interval-ms"].as<double>();
  if (!(settings.interval_ms >= 1)) throw rapt::UsageError("--interval-ms must be >= 1");
  settings.seconds = r["seconds"].as<double>();
  if (!(settings.seconds >= 0)) throw rapt::UsageError("--seconds must be >= 0");
  if (r.count("csv")) settings.csv_path = r["csv"].as<std::string>();
  if (r.count("json")) settings.json_path = r["json"].as<std::string>();
  if (r.count("dump")) settings.dump_path = r["dump"].as<std::string>();
  if (r.count("marker-fifo")) settings.marker_fifo = r["marker-fifo"].as<std::string>();
  if (r.count("replay")) settings.replay_path = r["replay"].as<std::string>();
  settings.emulate = r.count("emulate") > 0;
  command.insert(command.begin(), args.positional.begin(), args.positional.end());
  settings.command = command;
  const int modes = !settings.command.empty() + !settings.dump_path.empty() +
                    !settings.replay_path.empty();
  if (modes != 1) {
    throw rapt::UsageError("give exactly one of: -- COMMAND..., --dump FILE, --replay FILE");
  }
  if (settings.seconds > 0 && settings.dump_path.empty()) {
    throw rapt::UsageError("--seconds goes with --dump");
  }
  // Two of them on one file (by name, or by two names for one existing file) would leave one
  // output (or the input) in place of the other.
  const std::pair<const char*, std::string> files[] = {
      {"--csv", settings.csv_path}, {"--json", settings.json_path == "-" ? "" : settings.json_path},
      {"--dump", settings.dump_path}, {"--replay", settings.replay_path},
      {"--marker-fifo", settings.marker_fifo}};
  for (size_t i = 0; i < std::size(files); ++i)
    for (size_t j = i + 1; j < std::size(files); ++j)
      if (!files[i].second.empty() && !files[j].second.empty() &&
          (files[i].second == files[j].second ||
           rapt::same_existing_file(files[i].second, files[j].second)))
        throw rapt::UsageError(std::string(files[i].first) + " and " + files[j].first +
                               " name the same file, " + files[i].second);
  if (settings.emulate) {
    if (!settings.selection.device.empty()) throw rapt::UsageError("--emulate replaces --device");
    if (settings.selection.kinds == std::vector<std::string>{"auto"}) {
      settings.selection.kinds = {"powersensor3"};
    }
  }
  return settings;
}

void write_outputs(const Settings& settings, const rapt::RunDescription& run,
                   const rapt::EnergyIntegrator& integrator, const rapt::Messages& messages,
                   bool force) {
  if (!settings.json_path.empty()) {
    const std::string json = rapt::summary_json(run, integrator);
    if (settings.json_path == "-") {
      std::fputs(json.c_str(), stdout);
    } else {
      rapt::write_file_atomically(settings.json_path, json, force);
    }
  }
  if (messages.verbosity >= 1) std::fputs(rapt::summary_text(run, integrator).c_str(), stderr);
}

int replay(const Settings& settings, const rapt::ParsedOptions& args) {
  std::ifstream in(settings.replay_path, std::ios::binary);
  if (!in) throw rapt::file_error(settings.replay_path, "cannot open: " + rapt::errno_text());
  std::stringstream text;
  text << in.rdbuf();
  const rapt::RecordedTrace trace = rapt::parse_recorded_trace(text.str(), settings.replay_path);
  rapt::EnergyIntegrator integrator(trace.sensors);
  rapt::replay_trace(trace, integrator);
  if (!settings.csv_path.empty()) {
    rapt::CsvTraceWriter csv(settings.csv_path, trace.sensors, args.force);
    rapt::replay_trace(trace, csv);
    csv.commit();
  }
  rapt::RunDescription run;
  run.sources = {"replay " + settings.replay_path};
  write_outputs(settings, run, integrator, args.messages, args.force);
  return 0;
}

// Waits for the command (or, for --dump, a signal or --seconds), passing markers and signals.
int supervise(const Settings& settings, rapt::SignalWaiter& signals, rapt::PowerSampler& sampler,
              pid_t child) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    bool from_terminal = false;
    const int signal = signals.wait(50, &from_terminal);
    if (signal == SIGUSR1) sampler.mark("SIGUSR1");
    if (child > 0) {
      // A Ctrl-C reached the command already, with the rest of the process group.
      const bool stop = signal == SIGINT || signal == SIGTERM || signal == SIGHUP;
      if (stop && !from_terminal) kill(child, signal);
      int status = 0;
      const pid_t done = waitpid(child, &status, WNOHANG);
      if (done == child) return rapt::exit_status_of(status);
      if (done < 0 && errno != EINTR) throw rapt::DataError("waitpid: " + rapt::errno_text());
      continue;
    }
    if (signal == SIGINT || signal == SIGTERM || signal == SIGHUP) return 0;
    if (!sampler.failure().empty()) return 0;
    const double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (settings.seconds > 0 && elapsed_s >= settings.seconds) return 0;
  }
}

// Opens the meters (the emulator first, with --emulate) and describes them in `run`.
std::vector<rapt::PowerSourcePtr> open_sources(
    const Settings& settings, const rapt::ParsedOptions& args,
    std::unique_ptr<rapt::PowerSensor3Emulator>& emulator, rapt::RunDescription& run) {
  rapt::SourceSelection selection = settings.selection;
  if (settings.emulate) {
    emulator = std::make_unique<rapt::PowerSensor3Emulator>();
    selection.device = emulator->device_path();
  }
  std::vector<std::string> skipped;
  std::vector<rapt::PowerSourcePtr> sources = rapt::open_power_sources(selection, skipped);
  for (const std::string& reason : skipped) args.messages.detail("skipped " + reason);
  for (const rapt::PowerSourcePtr& source : sources) {
    run.sources.push_back(source->name() + " " + source->device());
  }
  run.interval_ms = settings.interval_ms;
  run.command = settings.command;
  return sources;
}

int measure(const Settings& settings, const rapt::ParsedOptions& args) {
  // The JSON is written at the end: refuse a clash now, not after a long command.
  if (!settings.json_path.empty() && settings.json_path != "-" && !args.force &&
      rapt::path_exists(settings.json_path)) {
    throw rapt::file_error(settings.json_path, "already exists (use --force to overwrite)");
  }
  rapt::SignalWaiter signals;  // first: every thread started below inherits the mask
  std::unique_ptr<rapt::PowerSensor3Emulator> emulator;
  rapt::RunDescription run;
  const std::vector<rapt::PowerSourcePtr> sources = open_sources(settings, args, emulator, run);
  std::vector<rapt::PowerSource*> source_pointers;
  std::vector<rapt::PowerSensorInfo> sensors;
  for (const rapt::PowerSourcePtr& source : sources) {
    source_pointers.push_back(source.get());
    sensors.insert(sensors.end(), source->sensors().begin(), source->sensors().end());
  }
  rapt::EnergyIntegrator integrator(sensors);
  std::vector<std::unique_ptr<rapt::CsvTraceWriter>> writers;
  for (const std::string& path : {settings.csv_path, settings.dump_path}) {
    if (path.empty()) continue;
    writers.push_back(std::make_unique<rapt::CsvTraceWriter>(path, sensors, args.force));
  }
  std::vector<rapt::TraceSink*> sinks{&integrator};
  for (const auto& writer : writers) sinks.push_back(writer.get());

  rapt::PowerSampler sampler(source_pointers, settings.interval_ms, sinks);
  sampler.start();
  std::unique_ptr<rapt::MarkerFifo> fifo;
  if (!settings.marker_fifo.empty()) {
    fifo = std::make_unique<rapt::MarkerFifo>(
        settings.marker_fifo, [&sampler](const std::string& line) { sampler.mark(line); });
  }
  pid_t child = -1;
  if (!settings.command.empty()) {
    child = rapt::spawn_command(settings.command, signals.original_mask(), "powersensor-read");
  }
  const int command_status = supervise(settings, signals, sampler, child);
  if (fifo) fifo->drain();
  sampler.stop();
  for (const auto& writer : writers) writer->commit();
  run.exit_status = child > 0 ? command_status : -1;
  write_outputs(settings, run, integrator, args.messages, args.force);

  const std::string failure = sampler.failure();
  if (!failure.empty()) {
    std::fprintf(stderr, "powersensor-read: %s (measurement stopped early)\n", failure.c_str());
    return command_status != 0 ? command_status : 1;
  }
  return command_status;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> command = split_command(argc, argv);
  return rapt::run_program("powersensor-read", [&] {
    auto options = rapt::program_options(
        "powersensor-read",
        "measure the energy of a command, or record a power trace, from PowerSensor3, NVML "
        "and RAPL meters");
    options.add_options()
        ("source", "meters to read: auto, powersensor3, nvml, rapl (comma list or repeated)",
         cxxopts::value<std::vector<std::string>>()->default_value("auto"))
        ("device", "PowerSensor3 serial device (default: /dev/ttyACM*)",
         cxxopts::value<std::string>())
        ("sysfs-root", "sysfs tree for RAPL", cxxopts::value<std::string>()->default_value("/sys"))
        ("interval-ms", "sampling period in milliseconds",
         cxxopts::value<double>()->default_value("100"))
        ("csv", "write the sampled trace as CSV", cxxopts::value<std::string>())
        ("json", "write the summary as JSON ('-' = stdout)", cxxopts::value<std::string>())
        ("dump", "record a CSV trace until SIGINT/SIGTERM (or --seconds)",
         cxxopts::value<std::string>())
        ("seconds", "with --dump: stop after this many seconds (0 = until a signal)",
         cxxopts::value<double>()->default_value("0"))
        ("marker-fifo", "named pipe whose lines become markers in the trace",
         cxxopts::value<std::string>())
        ("emulate", "read a built-in PowerSensor3 emulator on a pseudo-terminal (demonstrations)")
        ("replay", "summarise a recorded trace: a PMT/PowerSensor log or a --csv/--dump trace",
         cxxopts::value<std::string>())
        ("files", "the command to measure (after --)", cxxopts::value<std::vector<std::string>>());
    options.parse_positional({"files"});
    options.positional_help("[-- COMMAND [ARG...]]");
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    const Settings settings = read_settings(args, command);
    if (!settings.replay_path.empty()) return replay(settings, args);
    return measure(settings, args);
  });
}
