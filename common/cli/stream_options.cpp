#include "cli/stream_options.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "cli/errors.hpp"
#include "cli/vdif_options.hpp"

namespace rapt {

int StreamOptions::thread_count() const {
  return threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
}

void add_stream_options(cxxopts::Options& options, const std::string& group,
                        const std::string& work) {
  options.add_options(group)
      ("gulp", "time samples per block (0 = as many as --max-block-mib allows)",
       cxxopts::value<int64_t>()->default_value("0"))
      ("max-block-mib", "largest block of voltages, MiB (two are held: one is read while the "
       "other is " + work + "; from a pipe at most 16 unless --gulp asks for more)",
       cxxopts::value<double>()->default_value("256"))
      ("device", "auto, cpu, gpu or gpu:N", cxxopts::value<std::string>()->default_value("auto"))
      ("threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"));
  add_vdif_options(options, group);
}

StreamOptions stream_options_from(const cxxopts::ParseResult& r) {
  StreamOptions o;
  o.gulp = r["gulp"].as<int64_t>();
  if (o.gulp < 0) throw UsageError("--gulp must not be negative");
  o.max_block_mib = r["max-block-mib"].as<double>();
  if (!(o.max_block_mib > 0) || !std::isfinite(o.max_block_mib))
    throw UsageError("--max-block-mib must be positive");
  o.vdif = vdif_options_from(r);
  o.device = choose_device(r["device"].as<std::string>());
  o.threads = r["threads"].as<int>();
  if (o.threads < 0) throw UsageError("--threads must not be negative");
  return o;
}

}  // namespace rapt
