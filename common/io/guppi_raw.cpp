// GUPPI RAW: block header parsing and the reader.
#include "io/guppi_raw.hpp"

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/header_validation.hpp"
#include "io/voltage_samples.hpp"
#include "io/voltage_text.hpp"

namespace rapt {

namespace {

constexpr size_t kCardBytes = 80;
constexpr size_t kMaxCards = 10000;  // far beyond any real header; bounds a search for END

// The value of one card: a quoted string without its quotes, else the text before a comment.
std::string card_value(std::string_view card) {
  if (card.size() <= 10) return "";
  std::string_view value = card.substr(10);
  const size_t first = value.find_first_not_of(' ');
  if (first != std::string_view::npos && value[first] == '\'') {
    const size_t close = value.find('\'', first + 1);
    return trim_blanks(value.substr(first + 1, close == std::string_view::npos
                                                   ? std::string_view::npos
                                                   : close - first - 1));
  }
  return trim_blanks(value.substr(0, value.find('/')));
}

const std::string* find_card(const GuppiBlockHeader& h, const char* key) {
  const auto it = h.cards.find(key);
  return it == h.cards.end() ? nullptr : &it->second;
}

double number_card(const GuppiBlockHeader& h, const char* key, const std::string& name,
                   bool required, double fallback) {
  const std::string* text = find_card(h, key);
  if (!text) {
    if (required) throw file_error(name, std::string("GUPPI header has no ") + key);
    return fallback;
  }
  const std::optional<double> value = parse_lenient_number(*text);
  if (!value)
    throw file_error(name, std::string("GUPPI card ") + key + " is '" + *text + "', not a number");
  return *value;
}

int64_t integer_card(const GuppiBlockHeader& h, const char* key, const std::string& name,
                     bool required, int64_t fallback, int64_t lo, int64_t hi) {
  const std::string* text = find_card(h, key);
  if (!text) {
    if (required) throw file_error(name, std::string("GUPPI header has no ") + key);
    return fallback;
  }
  const std::optional<int64_t> value = parse_lenient_integer(*text);
  if (!value || *value < lo || *value > hi)
    throw file_error(name, std::string("GUPPI card ") + key + " is '" + *text +
                               "'; expected an integer in " + std::to_string(lo) + " .. " +
                               std::to_string(hi));
  return *value;
}

// Reads the cards up to END into h.cards; returns the bytes they take.
size_t read_cards(std::string_view data, const std::string& name, GuppiBlockHeader& h) {
  for (size_t offset = 0; offset < data.size() && offset / kCardBytes < kMaxCards;
       offset += kCardBytes) {
    const std::string_view card = data.substr(offset, kCardBytes);
    if (card.substr(0, 3) == "END" && (card.size() == 3 || card[3] == ' ' || card[3] == '\0'))
      return offset + kCardBytes;
    // Byte 8 is '=' on every value card; anything else is payload or garbage.
    if (card.size() < 9 || (card[8] != '=' && card[8] != ' ')) break;
    const std::string key = trim_blanks(card.substr(0, 8));
    if (!key.empty() && card[8] == '=') h.cards.emplace(key, card_value(card));
  }
  throw file_error(name, "GUPPI header has no END card");
}

void check_sizes(GuppiBlockHeader& h, const std::string& name) {
  if (h.obsnchan % h.nants != 0)
    throw file_error(name, "GUPPI OBSNCHAN " + std::to_string(h.obsnchan) +
                               " is not a multiple of NANTS " + std::to_string(h.nants));
  const int64_t bits_per_time = int64_t(h.obsnchan) * h.npol_field * h.nbits;
  if ((h.blocsize * 8) % bits_per_time != 0 || h.ntime() < 1)
    throw file_error(name, "GUPPI BLOCSIZE " + std::to_string(h.blocsize) +
                               " is not a whole number of time samples of " +
                               std::to_string(bits_per_time / 8) +
                               " bytes (OBSNCHAN x NPOL x NBITS / 8)");
  if (h.overlap >= h.ntime())
    throw file_error(name, "GUPPI OVERLAP " + std::to_string(h.overlap) +
                               " is not less than the block's " + std::to_string(h.ntime()) +
                               " samples");
  if (!(h.tbin_s > 0)) throw file_error(name, "GUPPI TBIN must be positive");
}

}  // namespace

GuppiBlockHeader parse_guppi_header(std::string_view data, const std::string& name) {
  GuppiBlockHeader h;
  h.header_bytes = read_cards(data, name, h);
  const std::string* directio = find_card(h, "DIRECTIO");
  const std::optional<double> directio_value =
      directio ? parse_lenient_number(*directio) : std::nullopt;
  if (directio_value && *directio_value != 0) h.header_bytes = (h.header_bytes + 511) / 512 * 512;
  h.blocsize = integer_card(h, "BLOCSIZE", name, true, 0, 1, int64_t(1) << 40);
  h.obsnchan = int(integer_card(h, "OBSNCHAN", name, true, 0, 1, 1 << 24));
  h.nants = int(integer_card(h, "NANTS", name, false, 1, 1, 1 << 16));
  h.npol_field = int(integer_card(h, "NPOL", name, true, 0, 1, 4));
  if (h.npol_field != 2 && h.npol_field != 4)
    throw file_error(name, "GUPPI NPOL " + std::to_string(h.npol_field) +
                               " is not supported (complex samples: 2 single-pol, 4 dual-pol)");
  h.nbits = int(integer_card(h, "NBITS", name, true, 8, -64, 64));
  if (h.nbits != 4 && h.nbits != 8 && h.nbits != 16)
    throw file_error(name, "GUPPI NBITS " + std::to_string(h.nbits) + " is not supported (4, 8, 16)");
  h.overlap = int(integer_card(h, "OVERLAP", name, false, 0, 0, 1 << 30));
  const std::string* pktfmt = find_card(h, "PKTFMT");
  h.channel_major = !pktfmt || *pktfmt != "SIMPLE";
  if (!h.channel_major && h.nants > 1)
    throw file_error(name, "GUPPI PKTFMT 'SIMPLE' with NANTS > 1 is not supported");
  h.obsfreq_mhz = number_card(h, "OBSFREQ", name, false, 0);
  // Absent, the band is unknown (a warning says so); given, it must be a sky frequency.
  if (const std::string* obsfreq = find_card(h, "OBSFREQ");
      obsfreq && !(h.obsfreq_mhz > 0 && h.obsfreq_mhz < kMaxSkyFreq_mhz))
    throw file_error(name, "GUPPI OBSFREQ is " + *obsfreq +
                               "; must be a positive sky frequency in MHz");
  h.obsbw_mhz = number_card(h, "OBSBW", name, false, 0);
  h.chan_bw_mhz = number_card(h, "CHAN_BW", name, false, 0);
  h.tbin_s = number_card(h, "TBIN", name, true, 0);
  h.stt_imjd = int(integer_card(h, "STT_IMJD", name, false, 0, 0, 10000000));
  h.stt_smjd_s = number_card(h, "STT_SMJD", name, false, 0);
  h.stt_offs_s = number_card(h, "STT_OFFS", name, false, 0);
  if (std::fabs(h.stt_smjd_s) > 1e9 || std::fabs(h.stt_offs_s) > 1e9)
    throw file_error(name, "GUPPI STT_SMJD/STT_OFFS out of range");
  h.pktidx = integer_card(h, "PKTIDX", name, false, 0, 0, int64_t(1) << 50);
  h.pktsize = integer_card(h, "PKTSIZE", name, false, 0, 0, int64_t(1) << 30);
  check_sizes(h, name);
  return h;
}

namespace {

// The pointing: RA_STR and DEC_STR (hh:mm:ss.ssss, dd:mm:ss.sss) where they parse, as they
// carry more digits than the RA and DEC cards (degrees), which serve otherwise. Neither: noted,
// and taken as 0h, 0 deg.
void read_guppi_pointing(const GuppiBlockHeader& block, VoltageHeader& h,
                         std::vector<std::string>& warnings) {
  auto card = [&](const char* key) -> const std::string* {
    const auto it = block.cards.find(key);
    return it == block.cards.end() ? nullptr : &it->second;
  };
  auto angle = [&](const char* text_key, const char* degrees_key, double text_scale,
                   double lowest, double highest) -> std::optional<double> {
    if (const std::string* t = card(text_key)) {
      const std::optional<double> v = parse_sexagesimal_value(*t);
      if (v && *v * text_scale >= lowest && *v * text_scale <= highest) return *v * text_scale;
      warnings.push_back(std::string("GUPPI ") + text_key + " '" + *t + "' is not an angle; " +
                         (card(degrees_key) ? std::string("using ") + degrees_key : "ignored"));
    }
    if (const std::string* d = card(degrees_key)) {
      const std::optional<double> v = parse_lenient_number(*d);
      if (v && *v >= lowest && *v <= highest) return *v;
      warnings.push_back(std::string("GUPPI ") + degrees_key + " '" + *d + "' is not an angle in " +
                         format_string("%g .. %g", lowest, highest) + " degrees; ignored");
    }
    return std::nullopt;
  };
  const std::optional<double> ra = angle("RA_STR", "RA", 15.0, 0.0, 360.0);
  const std::optional<double> dec = angle("DEC_STR", "DEC", 1.0, -90.0, 90.0);
  h.ra_deg = ra ? std::fmod(*ra, 360.0) : 0.0;
  h.dec_deg = dec.value_or(0.0);
  h.pointing_known = ra && dec;
  if (!ra || !dec)
    warnings.push_back(std::string("GUPPI header has no ") +
                       (!ra && !dec ? "RA or DEC" : !ra ? "RA" : "DEC") +
                       ": the pointing is not known");
}

}  // namespace

VoltageHeader guppi_voltage_header(const GuppiBlockHeader& block,
                                   std::vector<std::string>& warnings) {
  VoltageHeader h;
  h.format = "GUPPI RAW";
  auto text = [&](const char* key) {
    const auto it = block.cards.find(key);
    return it == block.cards.end() ? std::string() : it->second;
  };
  h.telescope = text("TELESCOP");
  h.instrument = text("BACKEND");
  h.source = text("SRC_NAME");
  read_guppi_pointing(block, h, warnings);
  h.nant = block.nants;
  h.nchan = block.nchan_per_ant();
  h.npol = block.npol();
  h.complex_samples = true;
  h.nbits = block.nbits;
  // Bandwidth from the channels, not OBSBW, which some writers get wrong (PUPPI: 0.001).
  // Signed like CHAN_BW: negative means channel 0 is the highest frequency.
  h.centre_freq_mhz = block.obsfreq_mhz;
  h.bandwidth_mhz = h.nchan * block.chan_bw_mhz;
  if (h.centre_freq_mhz == 0 || h.bandwidth_mhz == 0)
    warnings.push_back(std::string("GUPPI header has no ") +
                       (h.centre_freq_mhz == 0 ? "OBSFREQ" : "CHAN_BW") +
                       ": the band's frequencies are unknown");
  h.tsamp_s = block.tbin_s;
  const double chan_rate = std::fabs(block.chan_bw_mhz) * 1e6 * block.tbin_s;
  if (block.chan_bw_mhz != 0 && std::fabs(chan_rate - 1) > 1e-3)
    warnings.push_back("TBIN " + format_string("%g", block.tbin_s) + " s disagrees with CHAN_BW " +
                       format_string("%g", block.chan_bw_mhz) + " MHz (expected " +
                       format_string("%g", 1e-6 / std::fabs(block.chan_bw_mhz)) +
                       " s); kept TBIN");
  // MJD day 0 is the readers' "no start time" (clear_start_in_day_zero): a header without
  // STT_IMJD, or with 0 there, gives none, whatever its seconds.
  if (block.stt_imjd == 0) {
    warnings.push_back(find_card(block, "STT_IMJD")
                           ? "GUPPI STT_IMJD is 0; taken as no start time"
                           : "GUPPI header has no STT_IMJD; start MJD 0");
  } else {
    h.start_mjd_day = block.stt_imjd;
    h.start_mjd_seconds = block.stt_smjd_s + block.stt_offs_s;
    if (block.pktsize > 0) {
      const int64_t bytes_per_time = int64_t(block.obsnchan) * block.npol_field * block.nbits / 8;
      h.start_mjd_seconds += double(block.pktidx) * double(block.pktsize) /
                             double(bytes_per_time) * block.tbin_s;
    }
    // Out-of-range times (absurd PKTIDX x TBIN) stay unnormalised; the header still reads.
    normalise_mjd(h.start_mjd_day, h.start_mjd_seconds);
    if (clear_start_in_day_zero(h.start_mjd_day, h.start_mjd_seconds))
      warnings.push_back("GUPPI start time lies in MJD day 0 (1858-11-17); taken as no start time");
  }
  const std::string pol = text("FD_POLN");
  h.pol_basis = pol.rfind("CIRC", 0) == 0 ? "CIRC" : "LIN";
  return h;
}

GuppiRawReader::GuppiRawReader(const std::string& path)
    : GuppiRawReader(std::make_unique<ByteStream>(path)) {}

GuppiRawReader::GuppiRawReader(const std::string& name, FILE* file, std::vector<uint8_t> consumed)
    : GuppiRawReader(std::make_unique<ByteStream>(name, file, std::move(consumed))) {}

GuppiRawReader::GuppiRawReader(std::unique_ptr<ByteStream> in)
    : in_(std::move(in)), path_(in_->name()) {
  if (!read_block_header(first_))
    throw file_error(path_, std::string(in_->seekable() ? "empty file" : "empty stream") +
                                ": no GUPPI header");
  header_ = guppi_voltage_header(first_, warnings_);
  if (in_->seekable()) {
    // Assumes every block is as long as the first, which is how GUPPI files are written.
    const int64_t block_bytes = int64_t(first_.header_bytes) + first_.blocsize;
    const int64_t nblocks = in_->size() / block_bytes;
    if (nblocks >= 1) header_.nsamples = first_.ntime() + (nblocks - 1) * (first_.ntime() - first_.overlap);
  }
  std::vector<uint8_t> raw(static_cast<size_t>(first_.blocsize));
  const size_t got = in_->read(raw.data(), raw.size());
  if (got != raw.size())
    throw file_error(path_, "block 0 has " + std::to_string(got) + " of its BLOCSIZE " +
                                std::to_string(first_.blocsize) + " payload bytes");
  unpack_block(first_, raw);
  expected_pktidx_ = first_.pktidx;
}

GuppiRawReader::~GuppiRawReader() = default;

bool GuppiRawReader::read_block_header(GuppiBlockHeader& block) {
  std::string bytes;
  char card[kCardBytes];
  for (size_t n = 0; n < kMaxCards; ++n) {
    const size_t got = in_->read(reinterpret_cast<uint8_t*>(card), kCardBytes);
    if (got == 0 && n == 0) return false;
    if (got != kCardBytes) {
      if (blocks_read_ == 0) throw file_error(path_, "GUPPI header has no END card");
      warnings_.push_back("block " + std::to_string(blocks_read_) + ": header cut short; stopped there");
      return false;
    }
    bytes.append(card, kCardBytes);
    if (bytes.compare(bytes.size() - kCardBytes, 3, "END") == 0 &&
        (card[3] == ' ' || card[3] == '\0'))
      break;
    if (card[8] != '=' && card[8] != ' ') break;  // not a card: parse reports the missing END
  }
  try {
    block = parse_guppi_header(bytes, path_);
  } catch (const DataError& e) {
    if (blocks_read_ == 0) throw;
    const std::string what = e.what();
    throw file_error(path_, "block " + std::to_string(blocks_read_) + ": " +
                                what.substr(std::min(what.size(), path_.size() + 2)));
  }
  std::vector<uint8_t> padding(block.header_bytes - bytes.size());
  if (in_->read(padding.data(), padding.size()) == padding.size()) return true;
  if (blocks_read_ == 0) throw file_error(path_, "GUPPI header's DIRECTIO padding cut short");
  warnings_.push_back("block " + std::to_string(blocks_read_) +
                      ": header's DIRECTIO padding cut short; stopped there");
  return false;
}

void GuppiRawReader::unpack_block(const GuppiBlockHeader& block, const std::vector<uint8_t>& raw) {
  const int64_t nvalues = block.blocsize * 8 / block.nbits;
  std::vector<float> values(static_cast<size_t>(nvalues));
  decode_voltage_values(raw.data(), size_t(nvalues), block.nbits, values.data());
  const int64_t drop = blocks_read_ == 0 ? 0 : block.overlap;
  const int64_t ntime = block.ntime();
  const int64_t nchan = block.nchan_per_ant();
  const int64_t per_time = int64_t(block.npol()) * 2;
  block_ntime_ = ntime - drop;
  samples_.resize(size_t(nchan * block.nants * block_ntime_ * per_time));
  for (int64_t a = 0; a < block.nants; ++a) {
    for (int64_t c = 0; c < nchan; ++c) {
      float* dst = samples_.data() + (c * block.nants + a) * block_ntime_ * per_time;
      if (block.channel_major) {
        const float* src = values.data() + ((a * nchan + c) * ntime + drop) * per_time;
        std::copy(src, src + block_ntime_ * per_time, dst);
      } else {  // SIMPLE: [time][chan][pol][re,im]
        for (int64_t t = drop; t < ntime; ++t) {
          const float* src = values.data() + (t * nchan + c) * per_time;
          std::copy(src, src + per_time, dst + (t - drop) * per_time);
        }
      }
    }
  }
  block_pos_ = 0;
  ++blocks_read_;
}

bool GuppiRawReader::load_next_block() {
  GuppiBlockHeader block;
  if (!read_block_header(block)) return false;
  const std::string where = "block " + std::to_string(blocks_read_) + ": ";
  auto same = [&](const char* key, int64_t first, int64_t now) {
    if (first != now)
      throw file_error(path_, where + key + " changes from " + std::to_string(first) + " to " +
                                  std::to_string(now));
  };
  same("OBSNCHAN", first_.obsnchan, block.obsnchan);
  same("NPOL", first_.npol_field, block.npol_field);
  same("NBITS", first_.nbits, block.nbits);
  same("NANTS", first_.nants, block.nants);
  same("PKTFMT channel-major", first_.channel_major, block.channel_major);
  std::vector<uint8_t> raw(static_cast<size_t>(block.blocsize));
  const size_t got = in_->read(raw.data(), raw.size());
  if (got != raw.size()) {
    warnings_.push_back(where + "short (" + std::to_string(got) + " of " +
                        std::to_string(block.blocsize) + " payload bytes); stopped there");
    return false;
  }
  if (block.pktsize > 0 && block.pktidx != expected_pktidx_)
    warnings_.push_back(where + "PKTIDX " + std::to_string(block.pktidx) + ", expected " +
                        std::to_string(expected_pktidx_) + " (data lost before it)");
  unpack_block(block, raw);
  return true;
}

int64_t GuppiRawReader::read(int64_t nsamples, VoltageBlock& block) {
  const int64_t nrows = int64_t(header_.nchan) * header_.nant;
  const int64_t per_time = int64_t(header_.npol) * 2;
  block.first_sample = next_sample_;
  block.data.resize(header_.block_values(std::max<int64_t>(nsamples, 0)));
  const auto next_block = [this] {
    if (at_end_) return false;
    // The PKTIDX the next block should carry if nothing was lost in between: packets count
    // new samples only, so block 0 advances it by its samples less the overlap too.
    const int64_t bytes_per_time = int64_t(first_.obsnchan) * first_.npol_field * first_.nbits / 8;
    const int64_t new_samples = block_ntime_ - (blocks_read_ == 1 ? first_.overlap : 0);
    if (first_.pktsize > 0) expected_pktidx_ += new_samples * bytes_per_time / first_.pktsize;
    if (!load_next_block()) at_end_ = true;
    return !at_end_;
  };
  const int64_t done = fill_time_rows(samples_, block_ntime_, block_pos_, next_block, nsamples,
                                      nrows, per_time, block.data.data());
  if (done < nsamples) block.data.resize(header_.block_values(done));
  block.nsamples = done;
  next_sample_ += done;
  return done;
}

}  // namespace rapt
