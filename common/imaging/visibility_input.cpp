#include "imaging/visibility_input.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/uvfits.hpp"

namespace rapt {

VisibilityFileKind visibility_file_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw file_error(path, errno_text());
  if (S_ISDIR(st.st_mode)) {
    struct stat table {};
    if (::stat((path + "/table.dat").c_str(), &table) == 0) return VisibilityFileKind::measurement_set;
    throw file_error(path, "is a directory but not a Measurement Set (no table.dat)");
  }
  FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw file_error(path, errno_text());
  char start[9] = {};
  const size_t got = std::fread(start, 1, 8, file);
  std::fclose(file);
  if (got == 8 && std::memcmp(start, "SIMPLE  ", 8) == 0) return VisibilityFileKind::uvfits;
  throw file_error(path, "is neither a Measurement Set (a directory) nor a UVFITS file");
}

namespace {

// UVFITS piped in (corr -o - | idg-grid ... -): the whole stream, then the file parser.
VisibilitySet read_standard_input(std::vector<std::string>* warnings) {
  std::string bytes;
  std::vector<char> buffer(size_t(1) << 20);
  for (size_t got; (got = std::fread(buffer.data(), 1, buffer.size(), stdin)) > 0;)
    bytes.append(buffer.data(), got);
  if (std::ferror(stdin)) throw file_error("standard input", "read failed: " + errno_text());
  if (bytes.empty()) throw file_error("standard input", "is empty (expected UVFITS)");
  return parse_uvfits(bytes.data(), bytes.size(), "standard input", warnings);
}

}  // namespace

VisibilitySet read_visibility_file(const std::string& path, const MeasurementSetSelection& sel,
                                   std::vector<std::string>* warnings) {
  const bool ms = path != "-" && visibility_file_kind(path) == VisibilityFileKind::measurement_set;
  // A selection UVFITS cannot honour is refused rather than quietly ignored.
  const MeasurementSetSelection whole;
  if (!ms && (sel.field_id != whole.field_id || sel.data_desc_id != whole.data_desc_id ||
              sel.data_column != whole.data_column))
    throw UsageError("--field, --data-desc-id and --data-column select within a Measurement Set; " +
                     (path == "-" ? std::string("standard input") : path) + " is UVFITS");
  VisibilitySet vis = path == "-" ? read_standard_input(warnings)
                      : ms        ? read_measurement_set(path, sel, warnings)
                                  : read_uvfits(path, warnings);
  size_t cross = 0;
  for (size_t r = 0; r < vis.nrows(); ++r) cross += vis.antenna1[r] != vis.antenna2[r];
  if (cross == 0)
    throw file_error(path, vis.nrows() == 0 ? "holds no visibilities"
                                            : "holds only autocorrelations (nothing to image)");
  if (vis.nchan() == 0) throw file_error(path, "has no channels");
  return vis;
}

}  // namespace rapt
