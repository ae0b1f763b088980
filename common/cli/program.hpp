// What every rapt program shares: option parsing conventions, the error-to-exit-status rule,
// and the messages it prints on stderr.
//
// A main reads:
//   int main(int argc, char** argv) {
//     return rapt::run_program("dedisp", [&] {
//       auto options = rapt::program_options("dedisp", "Dedisperse filterbank data");
//       options.add_options()("lodm", "lowest DM", cxxopts::value<double>()->default_value("0"));
//       const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv, {"lodm"});
//       ...
//       return 0;
//     });
//   }
#pragma once
#include <cxxopts.hpp>
#include <functional>
#include <string>
#include <vector>

namespace rapt {

// How chatty a program is. Lives in the program's options, not in a global.
struct Messages {
  std::string program;
  int verbosity = 1;      // 0 = --quiet, 1 = normal, 2 = -v
  bool progress = false;  // stderr is a terminal, or --progress

  void info(const std::string& text) const;     // verbosity >= 1
  void detail(const std::string& text) const;   // verbosity >= 2
  void warning(const std::string& text) const;  // always, prefixed "warning: "
};

// Makes SIGINT, SIGTERM, SIGHUP and SIGPIPE remove every output temporary not yet committed (see
// AtomicOutputFile) before the program dies by that signal. Signals ignored on entry stay
// ignored. run_program() calls it; tests may too.
void install_termination_cleanup();
// The handler it installs: removes the temporaries of outputs not yet committed, then dies by
// the same signal, so the shell and scripts see the usual status (130 for Ctrl-C). Only
// async-signal-safe calls.
extern "C" void remove_temporaries_and_die(int signal_number);

// Runs a program body (after install_termination_cleanup()); prints "program: message" for DataError (exit 1), UsageError and option
// errors (exit 2) and any other std::exception (exit 1). Checks that stdout was written fully.
int run_program(const char* program, const std::function<int()>& body);

// cxxopts::Options with the options every program has: -h/--help, --version, -v/--verbose,
// -q/--quiet, --progress, --force.
cxxopts::Options program_options(const std::string& program, const std::string& summary);

struct ParsedOptions {
  cxxopts::ParseResult result;
  Messages messages;
  bool force = false;
  std::vector<std::string> positional;  // file arguments, in order
};

// Parses argv. `presto_names` are long options that PRESTO spells with one dash ("-zmax 200"):
// those spellings are rewritten to "--zmax 200" first, so PRESTO scripts work unchanged.
// --help prints the help on stdout and --version the version, then the program exits 0.
// Needs a positional option named "files" if the program takes file arguments.
ParsedOptions parse_options(cxxopts::Options& options, int argc, char** argv,
                            const std::vector<std::string>& presto_names = {});

// Rewrites "-name" to "--name" for each name in `presto_names` (also "-name=value").
std::vector<std::string> presto_style_arguments(const std::vector<std::string>& args,
                                                const std::vector<std::string>& presto_names);

// Thrown by parse_options for --help/--version; run_program turns it into exit 0.
struct ExitRequest {
  int status;
};

}  // namespace rapt
