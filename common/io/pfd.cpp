#include "io/pfd.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .pfd code assumes a little-endian host"
#endif

namespace rapt {
namespace {

constexpr size_t kCountInts = 12;
constexpr size_t kCoordinateBytes = 16;  // rastr, decstr
// Limits past which a count cannot come from prepfold: a reason to try the other byte order.
constexpr int32_t kMaxParts = 10000;
constexpr int32_t kMaxSubbands = 1 << 16;
constexpr int32_t kMaxBins = 1 << 20;
constexpr int32_t kMaxGrid = 1 << 24;

struct Counts {  // the 12 int32 at the start of the file, in file order
  int32_t numdms, numperiods, numpdots, nsub, npart, proflen;
  int32_t numchan, pstep, pdstep, dmstep, ndmfact, npfact;

  bool plausible() const {
    return npart >= 1 && npart <= kMaxParts && nsub >= 1 && nsub <= kMaxSubbands &&
           proflen >= 1 && proflen <= kMaxBins && numdms >= 0 && numdms <= kMaxGrid &&
           numperiods >= 0 && numperiods <= kMaxGrid && numpdots >= 0 && numpdots <= kMaxGrid;
  }
  std::string describe() const {
    return "numdms=" + std::to_string(numdms) + ", numperiods=" + std::to_string(numperiods) +
           ", numpdots=" + std::to_string(numpdots) + ", nsub=" + std::to_string(nsub) +
           ", npart=" + std::to_string(npart) + ", proflen=" + std::to_string(proflen);
  }
  // Bytes after the strings: coordinates, 9 doubles, 3 positions, orbit, grids, folds, stats.
  uint64_t bytes_after_strings() const {
    const uint64_t folds = static_cast<uint64_t>(npart) * static_cast<uint64_t>(nsub);
    return 2 * kCoordinateBytes + 9 * 8 + 3 * 32 + 7 * 8 +
           8 * (static_cast<uint64_t>(numdms) + numperiods + numpdots) +
           8 * folds * static_cast<uint64_t>(proflen) + 8 * 7 * folds;
  }
};

static_assert(sizeof(Counts) == kCountInts * 4, "Counts mirrors the file's 12 ints");

template <typename T>
T byte_swapped(T value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof value);
  std::reverse(bytes, bytes + sizeof bytes);
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

class PfdReader {
 public:
  PfdReader(const std::string& bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  Pfd read() {
    const Counts counts = read_counts();
    Pfd p;
    p.nsub = counts.nsub;
    p.npart = counts.npart;
    p.proflen = counts.proflen;
    p.numchan = counts.numchan;
    p.pstep = counts.pstep;
    p.pdstep = counts.pdstep;
    p.dmstep = counts.dmstep;
    p.ndmfact = counts.ndmfact;
    p.npfact = counts.npfact;
    for (std::string* s : {&p.filenm, &p.candnm, &p.telescope, &p.pgdev}) *s = counted_string();
    check_remaining(counts.bytes_after_strings(), counts);
    p.rastr = coordinate();
    p.decstr = coordinate();
    for (double* d : {&p.dt_s, &p.start_frac, &p.end_frac, &p.tepoch_mjd, &p.bepoch_mjd,
                      &p.avgvoverc, &p.lofreq_mhz, &p.chan_wid_mhz, &p.bestdm})
      *d = scalar<double>();
    for (PfdPosition* pos : {&p.topo, &p.bary, &p.fold}) *pos = position();
    PfdOrbit& o = p.orbit;
    for (double* d : {&o.p_s, &o.e, &o.x_lts, &o.w_deg, &o.t, &o.pd, &o.wd}) *d = scalar<double>();
    p.dms = doubles(counts.numdms);
    p.periods = doubles(counts.numperiods);
    p.pdots = doubles(counts.numpdots);
    const size_t folds = static_cast<size_t>(p.npart) * static_cast<size_t>(p.nsub);
    p.rawfolds = doubles(folds * static_cast<size_t>(p.proflen));
    p.stats.resize(folds);
    for (FoldStats& s : p.stats)
      for (double* d : {&s.numdata, &s.data_avg, &s.data_var, &s.numprof, &s.prof_avg,
                        &s.prof_var, &s.redchi})
        *d = scalar<double>();
    return p;
  }

 private:
  DataError truncated(const std::string& what) const {
    return file_error(name_, "truncated: " + std::to_string(bytes_.size()) +
                                 " bytes end inside the " + what);
  }

  template <typename T>
  T scalar() {
    if (bytes_.size() - pos_ < sizeof(T)) throw truncated("header");
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof value);
    pos_ += sizeof value;
    return swap_ ? byte_swapped(value) : value;
  }

  Counts read_counts() {
    if (bytes_.size() < kCountInts * 4) throw truncated("header counts");
    int32_t raw[kCountInts];
    std::memcpy(raw, bytes_.data(), sizeof raw);
    pos_ = sizeof raw;
    Counts native, swapped;
    std::memcpy(&native, raw, sizeof raw);
    for (int32_t& x : raw) x = byte_swapped(x);
    std::memcpy(&swapped, raw, sizeof raw);
    if (native.plausible()) return native;
    if (swapped.plausible()) {
      swap_ = true;
      return swapped;
    }
    throw file_error(name_, "not a .pfd file: header counts are absurd (" + native.describe() +
                                ")");
  }

  std::string counted_string() {
    const auto length = scalar<int32_t>();
    if (length < 0 || static_cast<size_t>(length) > bytes_.size() - pos_)
      throw file_error(name_, "corrupt or truncated: string length " + std::to_string(length) +
                                  " at byte " + std::to_string(pos_ - 4));
    std::string s = bytes_.substr(pos_, static_cast<size_t>(length));
    pos_ += static_cast<size_t>(length);
    return s;
  }

  void check_remaining(uint64_t expected, const Counts& counts) const {
    const uint64_t remaining = bytes_.size() - pos_;
    if (remaining == expected) return;
    const std::string implied = std::to_string(pos_ + expected);
    const std::string size = std::to_string(bytes_.size());
    if (remaining < expected)
      throw file_error(name_, "truncated: " + size + " bytes; the header (" + counts.describe() +
                                  ") implies " + implied);
    throw file_error(name_, size + " bytes; the header (" + counts.describe() + ") implies " +
                                implied + " (trailing data)");
  }

  std::string coordinate() {
    const std::string field = bytes_.substr(pos_, kCoordinateBytes);
    pos_ += kCoordinateBytes;
    return field.substr(0, field.find('\0'));
  }

  PfdPosition position() {
    PfdPosition pos;
    pos.pow = scalar<float>();
    std::memcpy(pos.padding.data(), bytes_.data() + pos_, pos.padding.size());
    pos_ += pos.padding.size();
    pos.p1 = scalar<double>();
    pos.p2 = scalar<double>();
    pos.p3 = scalar<double>();
    return pos;
  }

  std::vector<double> doubles(size_t count) {
    std::vector<double> values(count);
    for (double& v : values) v = scalar<double>();
    return values;
  }

  const std::string& bytes_;
  const std::string& name_;
  size_t pos_ = 0;
  bool swap_ = false;
};

class PfdWriter {
 public:
  template <typename T>
  void scalar(T value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void counted_string(const std::string& s) {
    scalar(static_cast<int32_t>(s.size()));
    out_ += s;
  }
  void coordinate(const std::string& s, const char* what) {
    if (s.size() > kCoordinateBytes)
      throw DataError(std::string(".pfd: ") + what + " '" + s + "' is longer than 16 bytes");
    out_ += s + std::string(kCoordinateBytes - s.size(), '\0');
  }
  void position(const PfdPosition& p) {
    scalar(p.pow);
    out_.append(reinterpret_cast<const char*>(p.padding.data()), p.padding.size());
    for (double d : {p.p1, p.p2, p.p3}) scalar(d);
  }
  void doubles(const std::vector<double>& values) {
    for (double v : values) scalar(v);
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

}  // namespace

void Pfd::allocate_folds() {
  const size_t folds = static_cast<size_t>(npart) * static_cast<size_t>(nsub);
  rawfolds.assign(folds * static_cast<size_t>(proflen), 0.0);
  stats.assign(folds, FoldStats{});
}

std::string format_pfd(const Pfd& p) {
  const size_t folds = static_cast<size_t>(p.npart) * static_cast<size_t>(p.nsub);
  if (p.npart < 1 || p.nsub < 1 || p.proflen < 1 ||
      p.rawfolds.size() != folds * static_cast<size_t>(p.proflen) || p.stats.size() != folds)
    throw DataError(".pfd: rawfolds/stats do not match npart=" + std::to_string(p.npart) +
                    ", nsub=" + std::to_string(p.nsub) + ", proflen=" + std::to_string(p.proflen));
  PfdWriter w;
  for (int32_t count : {static_cast<int32_t>(p.dms.size()), static_cast<int32_t>(p.periods.size()),
                        static_cast<int32_t>(p.pdots.size()), p.nsub, p.npart, p.proflen,
                        p.numchan, p.pstep, p.pdstep, p.dmstep, p.ndmfact, p.npfact})
    w.scalar(count);
  for (const std::string* s : {&p.filenm, &p.candnm, &p.telescope, &p.pgdev}) w.counted_string(*s);
  w.coordinate(p.rastr, "rastr");
  w.coordinate(p.decstr, "decstr");
  for (double d : {p.dt_s, p.start_frac, p.end_frac, p.tepoch_mjd, p.bepoch_mjd, p.avgvoverc,
                   p.lofreq_mhz, p.chan_wid_mhz, p.bestdm})
    w.scalar(d);
  for (const PfdPosition* pos : {&p.topo, &p.bary, &p.fold}) w.position(*pos);
  const PfdOrbit& o = p.orbit;
  for (double d : {o.p_s, o.e, o.x_lts, o.w_deg, o.t, o.pd, o.wd}) w.scalar(d);
  w.doubles(p.dms);
  w.doubles(p.periods);
  w.doubles(p.pdots);
  w.doubles(p.rawfolds);
  for (const FoldStats& s : p.stats)
    for (double d : {s.numdata, s.data_avg, s.data_var, s.numprof, s.prof_avg, s.prof_var,
                     s.redchi})
      w.scalar(d);
  return std::move(w.bytes());
}

void write_pfd(const std::string& path, const Pfd& pfd, bool overwrite) {
  const std::string bytes = format_pfd(pfd);
  AtomicOutputFile out(path, overwrite);
  out.write(bytes);
  out.commit();
}

Pfd parse_pfd(const std::string& bytes, const std::string& name) {
  return PfdReader(bytes, name).read();
}

Pfd read_pfd(const std::string& path) { return parse_pfd(read_file_contents(path), path); }

}  // namespace rapt
