#include "cli/program.hpp"

#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"

#ifndef RAPT_VERSION
#define RAPT_VERSION "0.0.0"
#endif

namespace rapt {

void Messages::info(const std::string& text) const {
  if (verbosity >= 1) std::fprintf(stderr, "%s: %s\n", program.c_str(), text.c_str());
}
void Messages::detail(const std::string& text) const {
  if (verbosity >= 2) std::fprintf(stderr, "%s: %s\n", program.c_str(), text.c_str());
}
void Messages::warning(const std::string& text) const {
  std::fprintf(stderr, "%s: warning: %s\n", program.c_str(), text.c_str());
}

namespace {

// SIGPIPE too: `corr -o - obs.dada | head` ends corr by it while its output's temporary (the
// file written before it is copied to standard output) still exists.
const int kTerminationSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

// The arguments parse_options() last parsed (after PRESTO-style names were rewritten), so that
// an option value that fails to convert later can be put down to its option.
std::vector<std::string>& parsed_arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}

// Whether cxxopts' message quotes TEXT whole, followed by AFTER (its quotes are typographic
// or plain).
bool quotes(const std::string& message, const std::string& text, const std::string& after = "") {
  return message.find("\xe2\x80\x98" + text + "\xe2\x80\x99" + after) != std::string::npos ||
         message.find("'" + text + "'" + after) != std::string::npos;
}

// cxxopts says "Argument 'abc' failed to parse" without the option: find the option given that
// value ("--nchan abc", "--nchan=abc", "-t abc" or "-tabc"), or "" if none was.
std::string option_given(const std::string& message) {
  const std::vector<std::string>& args = parsed_arguments();
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string& arg = args[k];
    if (arg.size() < 2 || arg[0] != '-') continue;
    std::string name, value;
    if (arg[1] == '-') {
      const size_t equals = arg.find('=');
      name = arg.substr(0, equals);
      value = equals != std::string::npos ? arg.substr(equals + 1)
              : k + 1 < args.size()       ? args[k + 1]
                                          : std::string();
    } else if (std::isalpha(static_cast<unsigned char>(arg[1]))) {
      name = arg.substr(0, 2);
      value = arg.size() > 2 ? arg.substr(2) : k + 1 < args.size() ? args[k + 1] : std::string();
    }
    // The whole quoted value: "8" must not match the "-8" that failed.
    if (!value.empty() && quotes(message, value, " failed")) return name;
  }
  return "";
}

// A word given one dash that is no long option either ("-zmax" to harmsum) is read by cxxopts as
// the one-letter options -z -m ..., or as -z with the value "max": its message then says the
// letter does not exist, or that value failed. Returns that word, or "" if the message is about
// something else. A letter followed by a number ("-n64x") is that option and its value.
std::string single_dash_word(const std::string& message) {
  for (const std::string& arg : parsed_arguments()) {
    if (arg.size() < 3 || arg[0] != '-' || !std::isalpha(static_cast<unsigned char>(arg[1])))
      continue;
    if (std::isdigit(static_cast<unsigned char>(arg[2])) || std::strchr(".+-", arg[2])) continue;
    if (quotes(message, arg.substr(1, 1), " does not exist") ||
        quotes(message, arg.substr(2), " failed"))
      return arg;
  }
  return "";
}

// The usage error cxxopts' MESSAGE stands for, put down to the option that caused it.
std::string option_error(const std::string& message) {
  const std::string word = single_dash_word(message);
  if (!word.empty()) return word + ": no such option";
  const std::string option = option_given(message);
  return option.empty() ? message : option + ": " + message;
}

// Whether option KEY holds a floating-point value (as<T> of another type throws).
bool is_floating_option(const cxxopts::ParseResult& r, const std::string& key) {
  try {
    (void)r[key].as<double>();
    return true;
  } catch (const std::exception&) {
  }
  try {
    (void)r[key].as<float>();
    return true;
  } catch (const std::exception&) {
  }
  return false;
}

// cxxopts reads a floating-point value only as far as it looks like a number and drops the
// rest ("--threshold 10mJy" as 10, "--gain 1,5" as 1), where it refuses an integer's junk.
// Such a value is refused here the same way.
void refuse_partial_numbers(const cxxopts::ParseResult& r) {
  for (const cxxopts::KeyValue& given : r.arguments()) {
    if (!is_floating_option(r, given.key())) continue;
    const std::string& text = given.value();
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
      throw UsageError("--" + given.key() + ": '" + text + "' is not a number");
  }
}

bool has_long_option(const cxxopts::Options& options, const std::string& name) {
  for (const std::string& group : options.groups())
    for (const cxxopts::HelpOptionDetails& option : options.group_help(group).options)
      for (const std::string& long_name : option.l)
        if (long_name == name) return true;
  return false;
}

// A long option given one dash ("-threads") would be read as the one-letter options -t -h ...
void refuse_single_dash_long_options(const cxxopts::Options& options,
                                     const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--") return;
    if (arg.size() < 3 || arg[0] != '-' || !std::isalpha(static_cast<unsigned char>(arg[1])))
      continue;
    const std::string word = arg.substr(1);
    if (has_long_option(options, word.substr(0, word.find('='))))
      throw UsageError(arg + ": long options take two dashes (--" + word + ")");
  }
}

}  // namespace

extern "C" void remove_temporaries_and_die(int signal_number) {
  remove_pending_temporaries();
  struct sigaction fallback = {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  ::sigaction(signal_number, &fallback, nullptr);
  ::raise(signal_number);  // delivered as soon as this handler returns
}

void install_termination_cleanup() {
  struct sigaction action = {};
  action.sa_handler = remove_temporaries_and_die;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : kTerminationSignals) sigaddset(&action.sa_mask, signal_number);
  for (const int signal_number : kTerminationSignals) {
    struct sigaction current = {};
    ::sigaction(signal_number, nullptr, &current);
    // A signal ignored on entry (nohup, a background job of a script) stays ignored.
    if (current.sa_handler == SIG_IGN) continue;
    ::sigaction(signal_number, &action, nullptr);
  }
}

int run_program(const char* program, const std::function<int()>& body) {
  install_termination_cleanup();
  int status = 0;
  try {
    status = body();
  } catch (const ExitRequest& exit) {
    status = exit.status;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    std::fprintf(stderr, "%s: see '%s --help'\n", program, program);
    return 2;
  } catch (const cxxopts::exceptions::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, option_error(e.what()).c_str());
    std::fprintf(stderr, "%s: see '%s --help'\n", program, program);
    return 2;
  } catch (const DataError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory\n", program);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 1;
  }
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    std::fprintf(stderr, "%s: error writing standard output\n", program);
    return 1;
  }
  return status;
}

cxxopts::Options program_options(const std::string& program, const std::string& summary) {
  cxxopts::Options options(program, program + " - " + summary);
  options.set_width(100);
  options.add_options("General")
      ("h,help", "print this help and exit")
      ("version", "print the version and exit")
      ("v,verbose", "more messages on stderr")
      ("q,quiet", "no messages on stderr except errors and warnings")
      ("progress", "show progress on stderr even when it is not a terminal")
      ("force", "overwrite existing output files");
  return options;
}

std::vector<std::string> presto_style_arguments(const std::vector<std::string>& args,
                                                const std::vector<std::string>& presto_names) {
  std::vector<std::string> out;
  out.reserve(args.size());
  for (const std::string& arg : args) {
    std::string rewritten = arg;
    if (arg.size() > 2 && arg[0] == '-' && arg[1] != '-') {
      const std::string body = arg.substr(1);
      const std::string name = body.substr(0, body.find('='));
      for (const std::string& known : presto_names)
        if (name == known) rewritten = "--" + body;
    }
    out.push_back(rewritten);
  }
  return out;
}

ParsedOptions parse_options(cxxopts::Options& options, int argc, char** argv,
                            const std::vector<std::string>& presto_names) {
  std::vector<std::string> args(argv + 1, argv + argc);
  args = presto_style_arguments(args, presto_names);
  std::vector<char*> pointers;
  pointers.push_back(argv[0]);
  for (std::string& a : args) pointers.push_back(a.data());

  parsed_arguments() = args;
  refuse_single_dash_long_options(options, args);
  ParsedOptions parsed;
  parsed.result = options.parse(static_cast<int>(pointers.size()), pointers.data());
  const auto& r = parsed.result;
  refuse_partial_numbers(r);
  if (r.count("help")) {
    std::cout << options.help();
    throw ExitRequest{0};
  }
  if (r.count("version")) {
    std::cout << options.program() << " (rapt) " << RAPT_VERSION << "\n";
    throw ExitRequest{0};
  }
  parsed.messages.program = options.program();
  if (r.count("quiet") && r.count("verbose"))
    throw UsageError("give -q (--quiet) or -v (--verbose), not both");
  parsed.messages.verbosity = r.count("quiet") ? 0 : (r.count("verbose") ? 2 : 1);
  parsed.messages.progress =
      parsed.messages.verbosity > 0 && (r.count("progress") || ::isatty(STDERR_FILENO));
  parsed.force = r.count("force") > 0;
  if (r.count("files")) parsed.positional = r["files"].as<std::vector<std::string>>();
  return parsed;
}

}  // namespace rapt
