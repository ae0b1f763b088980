#include "dedisp_tune_cache.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "dedisp_gpu_options.hpp"

namespace rapt::gpu {
namespace {

constexpr const char* kHeader =
    "# rapt dedispersion tile configurations, written by the GPU auto-tuner\n"
    "# GPU name<TAB>channels<TAB>DM count bucket<TAB>bits per sample<TAB>configuration\n";

std::string key_prefix(const TuneKey& key) {
  // Tabs would break the line format; GPU names have none, but a caller's string might.
  std::string name = key.gpu_name;
  for (char& ch : name)
    if (ch == '\t' || ch == '\n') ch = ' ';
  return name + "\t" + std::to_string(key.nchans) + "\t" + std::to_string(key.ndm_bucket) + "\t" +
         std::to_string(key.nbits) + "\t";
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  return lines;
}

}  // namespace

std::string default_tune_cache_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/rapt/dedisp-tune.txt";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.cache/rapt/dedisp-tune.txt";
  return "";
}

TuneKey make_tune_key(const std::string& gpu_name, const DedispPlan& plan, int nbits) {
  TuneKey key;
  key.gpu_name = gpu_name;
  key.nchans = plan.nchans;
  key.ndm_bucket = 1;
  while (size_t(key.ndm_bucket) < plan.dms.size()) key.ndm_bucket *= 2;
  key.nbits = nbits;
  return key;
}

std::optional<std::string> find_tuned_config(const std::string& path, const TuneKey& key) {
  const std::string prefix = key_prefix(key);
  std::optional<std::string> found;
  for (const std::string& line : read_lines(path))
    if (line.compare(0, prefix.size(), prefix) == 0) found = line.substr(prefix.size());
  return found;  // the last entry wins, as a later store replaces earlier ones
}

void store_tuned_config(const std::string& path, const TuneKey& key, const std::string& config) {
  const std::string prefix = key_prefix(key);
  std::ostringstream text;
  text << kHeader;
  for (const std::string& line : read_lines(path))
    if (!line.empty() && line[0] != '#' && line.compare(0, prefix.size(), prefix) != 0)
      text << line << '\n';
  text << prefix << config << '\n';
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!dir.empty()) std::filesystem::create_directories(dir, error);
  if (error) throw file_error(dir.string(), "cannot create directory: " + error.message());
  write_file_atomically(path, text.str(), true);
}

}  // namespace rapt::gpu
