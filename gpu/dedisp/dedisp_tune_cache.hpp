// The auto-tuner's cache file: one tuned tile configuration per GPU model, channel count,
// DM-count bucket and sample width. A text file, one entry a line:
//   <GPU name> TAB <nchans> TAB <DM count bucket> TAB <nbits> TAB <configuration text>
// '#' starts a comment line. Reading is lenient (a missing file is empty; malformed lines are
// skipped); writing replaces the key's line and keeps the others. No CUDA headers.
#pragma once
#include <optional>
#include <string>

#include "dedisp/dedisp_plan.hpp"

namespace rapt::gpu {

struct TuneKey {
  std::string gpu_name;
  int nchans = 0;
  int ndm_bucket = 0;  // the number of DMs rounded up to a power of two
  int nbits = 0;
};

TuneKey make_tune_key(const std::string& gpu_name, const DedispPlan& plan, int nbits);

// The configuration text stored for `key`, if any.
std::optional<std::string> find_tuned_config(const std::string& path, const TuneKey& key);

// Stores `config` for `key`, creating the file's directory; the file is replaced atomically.
// Throws DataError naming the path when it cannot be written.
void store_tuned_config(const std::string& path, const TuneKey& key, const std::string& config);

}  // namespace rapt::gpu
