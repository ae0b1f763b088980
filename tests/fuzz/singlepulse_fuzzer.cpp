// libFuzzer target for the .singlepulse reader. Not part of the default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/singlepulse_fuzzer -max_len=4096 corpus/
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must format and parse again to as many events. The events
// are then merged and clustered as sift does with files of no .inf: the first half as one
// file, the rest as another, each file's sampling time told by its events.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/singlepulse.hpp"
#include "sift/singlepulse_inputs.hpp"
#include "snr/candidate_clustering.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto events = rapt::parse_singlepulse(text, "fuzz");
    const auto again = rapt::parse_singlepulse(rapt::format_singlepulse(events), "fuzz");
    if (again.size() != events.size()) __builtin_trap();
    std::vector<rapt::SinglePulseFile> files(2);
    for (size_t i = 0; i < events.size(); ++i) files[i < events.size() / 2 ? 0 : 1].events.push_back(events[i]);
    for (size_t f = 0; f < files.size(); ++f) {
      files[f].path = "fuzz" + std::to_string(f);
      files[f].dm = double(f);
      for (auto& e : files[f].events) e.dm = double(f);
      rapt::sampling_time_from_events(files[f].events, &files[f].dt_s, &files[f].dt_tolerance);
    }
    const rapt::SinglePulseSet set = rapt::merge_singlepulse_files(files);
    const auto candidates = rapt::cluster_events(set.events, set.dms, {}, set.scales);
    int64_t members = 0;
    for (const auto& c : candidates) members += c.members;
    if (members != int64_t(set.events.size())) __builtin_trap();
  } catch (const rapt::DataError&) {
  }
  return 0;
}
