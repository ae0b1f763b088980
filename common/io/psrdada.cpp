// PSRDADA: header parsing and the reader.
#include "io/psrdada.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/header_validation.hpp"
#include "io/voltage_samples.hpp"
#include "io/voltage_text.hpp"

namespace rapt {

namespace {

using DadaKeys = std::map<std::string, std::string>;

// Key -> first value token; like PSRDADA, the first occurrence of a key wins and a value
// ends at white space.
DadaKeys dada_keys(std::string_view text) {
  text = text.substr(0, text.find('\0'));
  DadaKeys keys;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string key, value;
    if (!(words >> key) || key[0] == '#') continue;
    words >> value;
    if (!value.empty() && value[0] == '#') value.clear();
    keys.emplace(key, value);
  }
  return keys;
}

const std::string* find_key(const DadaKeys& keys, const char* key) {
  const auto it = keys.find(key);
  return it == keys.end() ? nullptr : &it->second;
}

int64_t integer_key(const DadaKeys& keys, const char* key, const std::string& name,
                    int64_t lo, int64_t hi, const int64_t* fallback = nullptr) {
  const std::string* text = find_key(keys, key);
  if (!text) {
    if (fallback) return *fallback;
    throw file_error(name, std::string("DADA header has no ") + key);
  }
  const std::optional<int64_t> value = parse_lenient_integer(*text);
  if (!value || *value < lo || *value > hi)
    throw file_error(name, std::string("DADA ") + key + " is '" + *text +
                               "'; expected an integer in " + std::to_string(lo) + " .. " +
                               std::to_string(hi));
  return *value;
}

double number_key(const DadaKeys& keys, const char* key, const std::string& name) {
  const std::string* text = find_key(keys, key);
  if (!text) return 0;
  const std::optional<double> value = parse_lenient_number(*text);
  if (!value || std::fabs(*value) > 1e12)
    throw file_error(name, std::string("DADA ") + key + " is '" + *text + "', not a number");
  return *value;
}

// "59596.262395813837": the day and the fraction apart, so the fraction keeps its digits.
bool parse_mjd_text(const std::string& text, int& day, double& seconds) {
  const size_t dot = text.find('.');
  const std::string whole = text.substr(0, dot);
  if (whole.empty() || whole.size() > 7 ||
      whole.find_first_not_of("0123456789") != std::string::npos)
    return false;
  day = std::stoi(whole);
  seconds = 0;
  if (dot != std::string::npos) {
    const std::optional<double> fraction = parse_lenient_number("0" + text.substr(dot));
    if (!fraction || text.find_first_not_of("0123456789", dot + 1) != std::string::npos)
      return false;
    seconds = *fraction * 86400.0;
  }
  return true;
}

// "2022-01-17-06:17:50.998315" (seconds may carry a fraction).
bool parse_utc_start(const std::string& text, int& day, double& seconds) {
  int year, month, mday, hour, minute, used = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d-%2d:%2d:%n", &year, &month, &mday, &hour, &minute,
                  &used) != 5 || used == 0)
    return false;
  const std::optional<double> sec = parse_lenient_number(text.substr(size_t(used)));
  if (!sec || year < 1900 || year > 3000 || month < 1 || month > 12 || mday < 1 || mday > 31 ||
      hour < 0 || hour > 23 || minute < 0 || minute > 59 || *sec < 0 || *sec >= 61)
    return false;
  day = int(mjd_from_calendar(year, month, mday));
  seconds = hour * 3600.0 + minute * 60.0 + *sec;
  return true;
}

void parse_start_time(const DadaKeys& keys, const std::string& name, DadaHeader& h) {
  VoltageHeader& v = h.voltage;
  const std::string* mjd = find_key(keys, "MJD_START");
  const std::string* utc = find_key(keys, "UTC_START");
  if (mjd && !parse_mjd_text(*mjd, v.start_mjd_day, v.start_mjd_seconds))
    throw file_error(name, "DADA MJD_START is '" + *mjd + "', not an MJD");
  if (!mjd && utc && !parse_utc_start(*utc, v.start_mjd_day, v.start_mjd_seconds))
    throw file_error(name, "DADA UTC_START is '" + *utc + "'; expected YYYY-MM-DD-hh:mm:ss");
  if (!mjd && !utc) h.warnings.push_back("DADA header has no UTC_START or MJD_START; start MJD 0");
  const int64_t zero = 0;
  h.obs_offset_bytes = integer_key(keys, "OBS_OFFSET", name, 0, int64_t(1) << 60, &zero);
  const int64_t bytes = h.bytes_per_sample();
  if (h.obs_offset_bytes % bytes != 0)
    h.warnings.push_back("OBS_OFFSET " + std::to_string(h.obs_offset_bytes) +
                         " is not a whole number of " + std::to_string(bytes) + "-byte samples");
  if (!mjd && !utc) return;  // no start for OBS_OFFSET to move: MJD 0 stays "not known"
  v.start_mjd_seconds += double(h.obs_offset_bytes / bytes) * v.tsamp_s +
                         double(h.obs_offset_bytes % bytes) / double(bytes) * v.tsamp_s;
  if (!mjd_in_range(v.start_mjd_day, v.start_mjd_seconds))
    throw file_error(name, "DADA start time (MJD_START or UTC_START plus OBS_OFFSET) is out of range");
  normalise_mjd(v.start_mjd_day, v.start_mjd_seconds);
  if (clear_start_in_day_zero(v.start_mjd_day, v.start_mjd_seconds))
    h.warnings.push_back("DADA start time lies in MJD day 0 (1858-11-17); taken as no start time");
}

void parse_sample_format(const DadaKeys& keys, const std::string& name, DadaHeader& h) {
  VoltageHeader& v = h.voltage;
  v.nchan = int(integer_key(keys, "NCHAN", name, 1, 1 << 24));
  v.npol = int(integer_key(keys, "NPOL", name, 1, 2));
  const int64_t one = 1;
  const int ndim = int(integer_key(keys, "NDIM", name, 1, 2, &one));
  v.complex_samples = ndim == 2;
  const int64_t nbit = integer_key(keys, "NBIT", name, -64, 64);
  if (nbit == -16)
    throw file_error(name, "DADA NBIT -16 (IEEE half-precision floats) is not supported");
  if (nbit != 8 && nbit != 16 && nbit != 32)
    throw file_error(name, "DADA NBIT " + std::to_string(nbit) + " is not supported (8, 16, 32)");
  v.nbits = int(nbit);
  v.float_samples = nbit == 32;
  const std::string* order = find_key(keys, "ORDER");
  if (order) h.order = *order;
  if (h.order != "TFATP" && h.order != "TAFTP" && h.order != "TFP" && h.order != "FTP" &&
      h.order != "TPF")
    throw file_error(name, "DADA ORDER '" + h.order + "' is not supported (TFATP, TAFTP, TFP, TPF, FTP)");
  if (!order && v.nchan > 1 && v.npol > 1)
    h.warnings.push_back("DADA header has no ORDER; assumed TFP ([time][chan][pol])");
  if (h.block_order()) {
    v.nant = int(integer_key(keys, "NANT", name, 1, 1 << 16));
    h.inner_t = integer_key(keys, "INNER_T", name, 1, 1 << 24);
  } else {
    v.nant = int(integer_key(keys, "NANT", name, 1, 1 << 16, &one));
    if (v.nant > 1)
      throw file_error(name, "DADA NANT is " + std::to_string(v.nant) +
                                 ", but several antennas need ORDER TFATP or TAFTP and the " +
                                 (order ? "header says ORDER " + *order : std::string("header has no ORDER")));
  }
  if (h.bytes_per_sample() > (int64_t(1) << 32))
    throw file_error(name, "DADA time samples of " + std::to_string(h.bytes_per_sample()) +
                               " bytes are too large");
}

// RA (hours) and DEC (degrees), sexagesimal or decimal. A value that is there must be a
// direction; with neither, the pointing is unknown and a program needing it says so.
void parse_pointing(const DadaKeys& keys, const std::string& name, DadaHeader& h) {
  VoltageHeader& v = h.voltage;
  const std::string* ra = find_key(keys, "RA");
  const std::string* dec = find_key(keys, "DEC");
  if (ra) {
    const std::optional<double> hours = parse_sexagesimal_value(*ra);
    if (!hours || !(*hours >= 0 && *hours < 24))
      throw file_error(name, "DADA RA is '" + *ra + "'; expected hh:mm:ss.s or hours in 0 .. 24");
    v.ra_deg = *hours * 15.0;
  }
  if (dec) {
    const std::optional<double> degrees = parse_sexagesimal_value(*dec);
    if (!degrees || !(std::fabs(*degrees) <= 90))
      throw file_error(name, "DADA DEC is '" + *dec + "'; expected dd:mm:ss.s or degrees in -90 .. 90");
    v.dec_deg = *degrees;
  }
  v.pointing_known = ra && dec;
  if (!ra || !dec)
    h.warnings.push_back(std::string("DADA header has no ") + (!ra && !dec ? "RA or DEC" : !ra ? "RA" : "DEC") +
                         ": the pointing is not known");
}

// FREQ (the band's centre) and BW (signed) put every channel at a positive sky frequency.
// Complex channels are BW / NCHAN wide and sampled at that rate, real ones at twice it: a
// TSAMP that says otherwise (oversampled channels) is noted, as frequencies follow BW and
// times TSAMP.
void check_band(const std::string& name, DadaHeader& h) {
  const VoltageHeader& v = h.voltage;
  require_positive(name, "FREQ", v.centre_freq_mhz, "MHz");
  require_nonzero(name, "BW", v.bandwidth_mhz, "MHz");
  const double width = v.bandwidth_mhz / v.nchan;
  const double low = v.channel_freq_mhz(width > 0 ? 0 : v.nchan - 1);
  const double high = v.channel_freq_mhz(width > 0 ? v.nchan - 1 : 0);
  if (!(low > 0) || !(high < kMaxSkyFreq_mhz))
    throw file_error(name, format_string("DADA FREQ %.9g MHz and BW %.9g MHz put channels from "
                                         "%.9g to %.9g MHz; every channel must lie between 0 "
                                         "and %g MHz", v.centre_freq_mhz, v.bandwidth_mhz, low,
                                         high, kMaxSkyFreq_mhz));
  const double expected_us = (v.complex_samples ? 1.0 : 0.5) / std::fabs(width);
  const double tsamp_us = v.tsamp_s * 1e6;
  if (std::fabs(tsamp_us - expected_us) > 1e-6 * expected_us)
    h.warnings.push_back(format_string(
        "DADA TSAMP is %.9g us but %s channels %.9g MHz wide are sampled every %.9g us; "
        "frequencies follow BW and NCHAN, times TSAMP", tsamp_us,
        v.complex_samples ? "complex" : "real", std::fabs(width), expected_us));
}

// A key's comma-separated numbers (NaN where one does not parse); none where it is absent.
std::vector<double> numbers_of(const DadaKeys& keys, const char* key) {
  std::vector<double> values;
  if (const std::string* text = find_key(keys, key)) {
    std::istringstream numbers(*text);
    for (std::string item; std::getline(numbers, item, ',');)
      values.push_back(parse_lenient_number(item).value_or(NAN));
  }
  return values;
}

void parse_antennas(const DadaKeys& keys, const std::string& name, DadaHeader& h) {
  const std::string* names = find_key(keys, "ANT_NAMES");
  if (!names || names->empty()) return;
  std::vector<std::string> list;
  std::istringstream split(*names);
  for (std::string item; std::getline(split, item, ',');) list.push_back(item);
  // Stations are told apart by name (flags files, the outputs' antenna tables).
  for (size_t a = 0; a < list.size(); ++a)
    if (std::find(list.begin(), list.begin() + long(a), list[a]) != list.begin() + long(a))
      throw file_error(name, "DADA ANT_NAMES lists '" + list[a] + "' twice");
  if (int(list.size()) != h.voltage.nant) {
    h.voltage.positions_set_aside = "ANT_NAMES lists " + std::to_string(list.size()) +
                                    " antennas, NANT is " + std::to_string(h.voltage.nant);
    h.warnings.push_back(h.voltage.positions_set_aside + "; ignored");
    return;
  }
  const std::vector<double> itrf = numbers_of(keys, "ANT_ITRF");
  const bool have_itrf = itrf.size() == 3 * list.size() &&
                         std::all_of(itrf.begin(), itrf.end(), [](double x) { return std::isfinite(x); });
  if (!itrf.empty() && !have_itrf) {
    h.voltage.positions_set_aside = "ANT_ITRF is not 3 finite numbers per antenna";
    h.warnings.push_back(h.voltage.positions_set_aside + "; positions ignored");
  }
  if (itrf.empty()) {
    h.voltage.positions_set_aside = "ANT_NAMES comes without ANT_ITRF";
    h.warnings.push_back(h.voltage.positions_set_aside + ": the antennas have no positions");
  }
  // Dish diameters (metres, 0 = unknown) and the array's reference position, where given.
  const std::vector<double> diameters = numbers_of(keys, "ANT_DIAMETER");
  // 0 (unknown) to 1 km: the largest single dishes are 500 m across.
  const bool have_diameters =
      diameters.size() == list.size() &&
      std::all_of(diameters.begin(), diameters.end(), [](double d) { return d >= 0 && d <= 1000; });
  if (!diameters.empty() && !have_diameters)
    h.warnings.push_back("ANT_DIAMETER is not one size of 0 to 1000 m per antenna; ignored");
  const std::vector<double> reference = numbers_of(keys, "ARRAY_ITRF");
  const bool have_reference =
      reference.size() == 3 && on_earth_surface({reference[0], reference[1], reference[2]});
  if (!reference.empty() && !have_reference)
    h.warnings.push_back("ARRAY_ITRF is not 3 numbers of a place on the Earth's surface (ITRF "
                         "metres); the antennas' mean position is taken as the array's reference");
  for (size_t a = 0; a < list.size(); ++a) {
    Antenna antenna;
    antenna.name = list[a];
    if (have_itrf) antenna.itrf_m = {itrf[3 * a], itrf[3 * a + 1], itrf[3 * a + 2]};
    if (have_diameters) antenna.dish_diameter_m = diameters[a];
    h.voltage.array.antennas.push_back(antenna);
  }
  // A header that names no reference position: the antennas' mean stands in for it, so that
  // delays are relative to the array rather than to the centre of the Earth.
  if (have_itrf)
    h.voltage.array.reference_itrf_m = have_reference
                                           ? ItrfPosition{reference[0], reference[1], reference[2]}
                                           : h.voltage.array.mean_antenna_position();
  h.voltage.array.telescope = h.voltage.telescope;
}

}  // namespace

DadaHeader parse_dada_header(std::string_view text, const std::string& name) {
  const DadaKeys keys = dada_keys(text);
  DadaHeader h;
  VoltageHeader& v = h.voltage;
  v.format = "PSRDADA";
  h.hdr_size = integer_key(keys, "HDR_SIZE", name, 1, int64_t(1) << 30);
  // Recorders write whole pages (4096 bytes, sometimes more): any other size more likely is a
  // damaged key, which would shift every sample.
  if (h.hdr_size % 512 != 0)
    h.warnings.push_back("DADA HDR_SIZE " + std::to_string(h.hdr_size) +
                         " is not a whole number of 512-byte pages; if the header was damaged, "
                         "every sample is read from the wrong bytes");
  parse_sample_format(keys, name, h);
  const std::string* tsamp = find_key(keys, "TSAMP");
  if (!tsamp) throw file_error(name, "DADA header has no TSAMP");
  const std::optional<double> tsamp_us = parse_lenient_number(*tsamp);
  if (!tsamp_us || !(*tsamp_us > 0) || *tsamp_us > 1e12)
    throw file_error(name, "DADA TSAMP is '" + *tsamp + "'; must be a positive number of microseconds");
  v.tsamp_s = *tsamp_us / 1e6;
  validate_sample_time(name, "TSAMP", v.tsamp_s);
  auto text_key = [&](const char* key) {
    const std::string* value = find_key(keys, key);
    return value ? *value : std::string();
  };
  v.telescope = text_key("TELESCOPE");
  v.instrument = text_key("INSTRUMENT");
  v.source = text_key("SOURCE");
  parse_pointing(keys, name, h);
  v.centre_freq_mhz = number_key(keys, "FREQ", name);
  v.bandwidth_mhz = number_key(keys, "BW", name);
  const bool freq = find_key(keys, "FREQ") != nullptr, bw = find_key(keys, "BW") != nullptr;
  if (freq && bw) {
    check_band(name, h);
  } else {
    // Half a band is still checked: a centre must be a sky frequency, a width not zero.
    if (freq) require_positive(name, "FREQ", v.centre_freq_mhz, "MHz");
    if (bw) require_nonzero(name, "BW", v.bandwidth_mhz, "MHz");
    h.warnings.push_back(std::string("DADA header has no ") + (freq ? "BW" : bw ? "FREQ" : "FREQ or BW") +
                         ": the band's frequencies are unknown");
  }
  if (text_key("POL_BASIS") == "CIRC") v.pol_basis = "CIRC";
  parse_start_time(keys, name, h);
  parse_antennas(keys, name, h);
  return h;
}

namespace {
constexpr int64_t kChunkBytes = int64_t(16) << 20;  // bytes read at a time for time-major orders
constexpr size_t kFirstRead = 4096;                 // header bytes read before HDR_SIZE is known
}  // namespace

PsrdadaReader::PsrdadaReader(const std::string& path)
    : PsrdadaReader(path == "-" ? std::make_unique<ByteStream>("-", stdin, std::vector<uint8_t>())
                                : std::make_unique<ByteStream>(path)) {}

PsrdadaReader::PsrdadaReader(const std::string& name, FILE* file, std::vector<uint8_t> consumed)
    : PsrdadaReader(std::make_unique<ByteStream>(name, file, std::move(consumed))) {}

PsrdadaReader::PsrdadaReader(std::unique_ptr<ByteStream> in) : in_(std::move(in)), path_(in_->name()) {
  read_header();
}

PsrdadaReader::~PsrdadaReader() = default;

void PsrdadaReader::read_header() {
  std::vector<uint8_t> bytes(kFirstRead);
  bytes.resize(in_->read(bytes.data(), bytes.size()));
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  // A pipe can carry anything: name what is plainly no PSRDADA stream.
  if (text.empty()) throw file_error(path_, "is empty (no PSRDADA header)");
  if (text.substr(0, 9) == "SIMPLE  =")
    throw file_error(path_, "is a FITS file, not PSRDADA voltages");
  // HDR_SIZE first: a header longer than the first read (many antennas) is parsed whole below.
  const size_t hdr_size = size_t(integer_key(dada_keys(text), "HDR_SIZE", path_, 1, int64_t(1) << 30));
  if (hdr_size <= bytes.size()) dada_ = parse_dada_header(text, path_);
  if (hdr_size > bytes.size()) {
    const size_t had = bytes.size();
    bytes.resize(hdr_size);
    const size_t got = had == kFirstRead ? in_->read(bytes.data() + had, hdr_size - had) : 0;
    if (had + got < hdr_size)
      throw file_error(path_, "DADA HDR_SIZE " + std::to_string(hdr_size) + " is bigger than the " +
                                  (in_->seekable() ? "file" : "stream") + " (" +
                                  std::to_string(had + got) + " bytes)");
    dada_ = parse_dada_header(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path_);
  } else {
    // The payload read with the header comes next.
    in_->unread(std::vector<uint8_t>(bytes.begin() + long(hdr_size), bytes.end()));
    // Only the first HDR_SIZE bytes are header: keys in the payload must not count.
    if (hdr_size < bytes.size()) dada_ = parse_dada_header(text.substr(0, hdr_size), path_);
  }
  const bool regular = in_->seekable();
  const int64_t bps = dada_.bytes_per_sample();
  if (regular) {
    const int64_t payload = std::max<int64_t>(0, in_->size() - dada_.hdr_size);
    dada_.voltage.nsamples = payload / bps;
    if (dada_.block_order()) {
      // A last block cut inside a sample is left out whole (load_chunk).
      const int64_t block_bytes = bps * dada_.inner_t, last = payload % block_bytes;
      if (last % bps != 0) {
        note_partial(size_t(last));
        dada_.voltage.nsamples = payload / block_bytes * dada_.inner_t;
      }
    } else if (payload % bps != 0) {
      note_partial(size_t(payload % bps));
    }
  }
  if (dada_.order == "FTP" && dada_.voltage.nchan > 1 && !regular)
    throw file_error(path_, "DADA ORDER FTP with NCHAN > 1 needs a regular file, not a pipe");
}

void PsrdadaReader::note_partial(size_t bytes) {
  // In ORDER TFATP and TAFTP a block's bytes run channel by channel, so a block cut short
  // holds no whole samples at all: all of it is left out. (A block cut at a whole number of
  // samples' bytes cannot be told from the shorter last block a writer may end with.)
  const std::string text =
      dada_.block_order()
          ? "payload ends inside a block of " + std::to_string(dada_.inner_t) + " samples (" +
                std::to_string(bytes) + " bytes, not a whole number of samples); that block " +
                "was left out"
          : "payload ends with " + std::to_string(bytes) +
                " bytes that are not a whole time sample; ignored";
  if (std::find(dada_.warnings.begin(), dada_.warnings.end(), text) == dada_.warnings.end())
    dada_.warnings.push_back(text);
}

void PsrdadaReader::load_ftp_chunk(int64_t ntime) {
  const VoltageHeader& v = dada_.voltage;
  const int64_t per_time = int64_t(v.npol) * v.values_per_sample();
  const int64_t chan_bytes = per_time * v.nbits / 8;
  ntime = std::min(ntime, v.nsamples - samples_loaded_);
  chunk_ntime_ = std::max<int64_t>(ntime, 0);
  samples_.resize(size_t(v.nchan * chunk_ntime_ * per_time));
  raw_.resize(size_t(chunk_ntime_ * chan_bytes));
  for (int64_t c = 0; c < v.nchan && chunk_ntime_ > 0; ++c) {
    const int64_t offset = dada_.hdr_size + (c * v.nsamples + samples_loaded_) * chan_bytes;
    in_->seek(offset);
    if (in_->read(raw_.data(), raw_.size()) != raw_.size())
      throw file_error(path_, "read failed at byte " + std::to_string(offset));
    // A channel's reads follow one another: each keeps its own tail.
    channel_tails_.resize(size_t(v.nchan));
    refuse_joined_header(raw_.data(), raw_.size(), offset - dada_.hdr_size,
                         channel_tails_[size_t(c)]);
    decode_voltage_values(raw_.data(), size_t(chunk_ntime_ * per_time), v.nbits,
                          samples_.data() + c * chunk_ntime_ * per_time);
  }
  samples_loaded_ += chunk_ntime_;
}

// Streams joined end to end (cat a.dada b.dada, a recorder restarted into one pipe) put the
// second one's header in the payload: HDR_SIZE, the key every header has, is looked for in every
// read of `bytes` at payload byte `offset` (and across it and the read before, whose last bytes
// `tail` keeps), so that its text is not taken for samples. (Random data give these 8 bytes once
// in 2^64 places.)
void PsrdadaReader::refuse_joined_header(const uint8_t* data, size_t bytes, int64_t offset,
                                         std::string& tail) {
  static constexpr char kKey[] = "HDR_SIZE";
  constexpr size_t kKeyBytes = sizeof kKey - 1;
  std::string seam = tail;
  seam.append(reinterpret_cast<const char*>(data), std::min(bytes, kKeyBytes - 1));
  int64_t found = -1;
  const size_t in_seam = seam.find(kKey);
  if (in_seam != std::string::npos) {
    found = offset - int64_t(tail.size()) + int64_t(in_seam);
  } else if (const void* at = ::memmem(data, bytes, kKey, kKeyBytes)) {
    found = offset + (static_cast<const uint8_t*>(at) - data);
  }
  if (found >= 0)
    throw file_error(path_, "another PSRDADA header (its HDR_SIZE at byte " + std::to_string(found) +
                                " of the data) follows the data (streams joined end to end?): "
                                "read them one by one");
  const size_t keep = std::min(bytes, kKeyBytes - 1);
  tail.append(reinterpret_cast<const char*>(data + bytes - keep), keep);
  tail.erase(0, tail.size() - std::min(tail.size(), kKeyBytes - 1));
}

bool PsrdadaReader::load_chunk() {
  const VoltageHeader& v = dada_.voltage;
  const int64_t bps = dada_.bytes_per_sample();
  const int64_t target = dada_.block_order() ? dada_.inner_t : std::max<int64_t>(1, kChunkBytes / bps);
  chunk_pos_ = 0;
  if (dada_.order == "FTP" && v.nchan > 1) {
    load_ftp_chunk(target);
    return chunk_ntime_ > 0;
  }
  raw_.resize(size_t(target * bps));
  const size_t got = in_->read(raw_.data(), raw_.size());
  refuse_joined_header(raw_.data(), got, payload_read_, payload_tail_);
  payload_read_ += int64_t(got);
  if (got < raw_.size()) at_end_ = true;  // a read stops short only at the end of the data
  if (got % size_t(bps) != 0) note_partial(dada_.block_order() ? got : got % size_t(bps));
  const bool cut_block = dada_.block_order() && got % size_t(bps) != 0;
  const int64_t n = cut_block ? 0 : int64_t(got) / bps;
  chunk_ntime_ = n;
  if (n == 0) return false;
  const int64_t per_time = int64_t(v.npol) * v.values_per_sample();
  if (raw_rows()) return true;  // read() decodes the rows straight from raw_
  const int64_t nvalues = n * v.nchan * v.nant * per_time;
  values_.resize(size_t(nvalues));
  decode_voltage_values(raw_.data(), size_t(nvalues), v.nbits, values_.data());
  samples_.resize(size_t(nvalues));
  if (dada_.order == "TFATP") {
    samples_.swap(values_);  // a block of n samples is already in canonical order
  } else if (dada_.order == "TAFTP") {
    for (int64_t a = 0; a < v.nant; ++a)
      for (int64_t c = 0; c < v.nchan; ++c)
        std::copy_n(values_.begin() + (a * v.nchan + c) * n * per_time, n * per_time,
                    samples_.begin() + (c * v.nant + a) * n * per_time);
  } else if (dada_.order == "TPF") {
    const int64_t dim = v.values_per_sample();
    for (int64_t t = 0; t < n; ++t)
      for (int64_t p = 0; p < v.npol; ++p)
        for (int64_t c = 0; c < v.nchan; ++c)
          std::copy_n(values_.begin() + ((t * v.npol + p) * v.nchan + c) * dim, dim,
                      samples_.begin() + (c * n + t) * per_time + p * dim);
  } else {  // TFP, and FTP with one channel (the same bytes)
    for (int64_t t = 0; t < n; ++t)
      for (int64_t c = 0; c < v.nchan; ++c)
        std::copy_n(values_.begin() + (t * v.nchan + c) * per_time, per_time,
                    samples_.begin() + (c * n + t) * per_time);
  }
  return true;
}

// ORDER TFATP blocks hold the canonical rows ([channel][antenna] of time samples) already: read()
// decodes them from the raw bytes straight into the caller's block, one pass over the data
// instead of decoding into a chunk and copying it. (4-bit rows must start on a byte.)
bool PsrdadaReader::raw_rows() const {
  const VoltageHeader& v = dada_.voltage;
  return dada_.order == "TFATP" && (v.nbits != 4 || (v.npol * v.values_per_sample()) % 2 == 0);
}

int64_t PsrdadaReader::read(int64_t nsamples, VoltageBlock& block) {
  const VoltageHeader& v = dada_.voltage;
  const int64_t nrows = int64_t(v.nchan) * v.nant;
  const int64_t per_time = int64_t(v.npol) * v.values_per_sample();
  nsamples = std::max<int64_t>(nsamples, 0);
  block.first_sample = next_sample_;
  block.data.resize(v.block_values(nsamples));
  float* out = block.data.data();
  const auto refill = [this] { return !at_end_ && load_chunk(); };
  const int64_t done =
      raw_rows()
          ? fill_time_rows(
                [&](int64_t from, int64_t count, int64_t done_so_far) {
                  decode_time_range(raw_.data(), chunk_ntime_, from, v.nbits, out, nsamples,
                                    done_so_far, count, nrows, per_time);
                },
                chunk_ntime_, chunk_pos_, refill, nsamples, nrows, per_time, out)
          : fill_time_rows(samples_, chunk_ntime_, chunk_pos_, refill, nsamples, nrows, per_time,
                           out);
  if (done < nsamples) block.data.resize(v.block_values(done));
  block.nsamples = done;
  next_sample_ += done;
  return done;
}

}  // namespace rapt
