#include "dedisp/dedisp_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cli/errors.hpp"
#include "dedisp/dedisp_plan.hpp"
#include "io/rfifind_mask.hpp"

namespace rapt {
namespace {

bool parse_double(const std::string& token, double* value) {
  if (token.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(token.c_str(), &end);
  return end == token.c_str() + token.size() && std::isfinite(*value);
}

bool parse_int(const std::string& token, int* value) {
  if (token.empty() || token.size() > 9) return false;
  for (char ch : token)
    if (ch < '0' || ch > '9') return false;
  *value = std::atoi(token.c_str());
  return true;
}

}  // namespace

std::vector<double> parse_dm_list(const std::string& text, const std::string& name) {
  std::vector<double> dms;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    line = line.substr(0, line.find('#'));
    for (char& ch : line)
      if (ch == ',') ch = ' ';
    std::istringstream tokens(line);
    for (std::string token; tokens >> token;) {
      double dm = 0.0;
      if (!parse_double(token, &dm))
        throw UsageError(name + ": line " + std::to_string(number) + ": \"" + token +
                         "\" is not a DM");
      dms.push_back(dm);
    }
  }
  if (dms.empty()) throw UsageError(name + ": no DMs in the list");
  return dms;
}

std::vector<int> parse_channel_list(const std::string& spec, int nchans) {
  std::vector<int> channels;
  std::istringstream items(spec);
  for (std::string item; std::getline(items, item, ',');) {
    const size_t colon = item.find(':');
    int first = 0, last = 0;
    const bool ok = colon == std::string::npos
                        ? parse_int(item, &first) && (last = first, true)
                        : parse_int(item.substr(0, colon), &first) &&
                              parse_int(item.substr(colon + 1), &last);
    if (!ok || first > last)
      throw UsageError("--ignorechan " + spec + ": \"" + item +
                       "\" is not a channel or a range first:last");
    if (last >= nchans)
      throw UsageError("--ignorechan " + spec + ": channel " + std::to_string(last) +
                       " is out of range (the data have channels 0 to " +
                       std::to_string(nchans - 1) + ")");
    for (int c = first; c <= last; ++c) channels.push_back(c);
  }
  if (channels.empty()) throw UsageError("--ignorechan: no channels given");
  return channels;
}

int stored_channel(const ObservationInfo& info, int presto_channel) {
  return info.foff_mhz < 0 ? info.nchans - 1 - presto_channel : presto_channel;
}

double parse_dm_const(const std::string& value) {
  if (value == "presto") return kDispersionConstantPresto;
  if (value == "sigproc") return kDispersionConstantSigproc;
  double k = 0.0;
  if (!parse_double(value, &k) || !(k > 0.0))
    throw UsageError("--dm-const " + value +
                     ": expected a positive number (s MHz^2 cm^3/pc), presto or sigproc");
  return k;
}

SpectraPreparation spectra_preparation(const SpectraCleaning& cleaning,
                                       const ObservationInfo& info, std::vector<bool>* zapped) {
  SpectraPreparation prep;
  prep.interval_spectra = cleaning.interval_spectra;
  zapped->assign(size_t(info.nchans), false);
  if (!cleaning.ignorechan.empty())
    for (int p : parse_channel_list(cleaning.ignorechan, info.nchans))
      (*zapped)[size_t(stored_channel(info, p))] = true;
  if (!cleaning.mask_path.empty())
    apply_rfifind_mask(read_rfifind_mask(cleaning.mask_path), cleaning.mask_path, info, zapped,
                       &prep);
  // With no channel left every series is zero, and a search of it finds nothing in silence.
  if (std::find(zapped->begin(), zapped->end(), false) == zapped->end()) {
    if (cleaning.mask_path.empty())
      throw UsageError("--ignorechan " + cleaning.ignorechan + ": leaves out every channel");
    throw file_error(cleaning.mask_path,
                     std::string("zaps every channel") +
                         (cleaning.ignorechan.empty() ? "" : " not left out by --ignorechan") +
                         "; nothing is left to dedisperse");
  }
  prep.zerodm = cleaning.zerodm;
  prep.normalise = cleaning.normalise;
  prep.clip_sigma = cleaning.clip_sigma;
  if (prep.clip_sigma < 0) throw UsageError("--clip must be >= 0");
  prep.zapped = *zapped;
  return prep;
}

}  // namespace rapt
