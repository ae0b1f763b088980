// UVFITS reader: files built by hand with CFITSIO for what the writer never produces (several
// IFs, PSCAL, UU---SIN, BASELINE-only numbering past 255), and one test per bad input.
#include <fitsio.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "cli/errors.hpp"
#include "io/fits_image.hpp"
#include "io/uvfits.hpp"
#include "io/uvfits_cfitsio.hpp"
#include "test_data.hpp"
#include "uvfits_test_support.hpp"

namespace rapt {
namespace {

using testing::ScratchDir;
constexpr double kC = 299792458.0;

struct HandBuilt {
  int nif = 2;
  bool with_fq = true;
  const char* uu_name = "UU---SIN";
  double uu_scale = 2.0;       // PSCAL1; the raw value is uu / 2
  long nosta[2] = {5, 300};    // antenna numbers in the AN table
  const char* an_name = "AIPS AN";
};

void ok(int status) { ASSERT_EQ(status, 0) << "CFITSIO status " << status; }

// One group, 2 channels x nif IFs x 1 product (XX), params UU VV WW DATE DATE BASELINE.
void build(const std::string& path, const HandBuilt& h) {
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_diskfile(&f, path.c_str(), &status);
  long naxes[7] = {0, 3, 1, 2, h.nif, 1, 1};
  fits_write_grphdr(f, 1, FLOAT_IMG, 7, naxes, 6, 1, 1, &status);
  const char* ptype[6] = {h.uu_name, "VV", "WW", "DATE", "DATE", "BASELINE"};
  const double pscal[6] = {h.uu_scale, 1, 1, 1, 1, 1};
  const double pzero[6] = {0, 0, 0, 2456000.5, 0.25, 0};
  for (int i = 0; i < 6; ++i) {
    const std::string n = std::to_string(i + 1);
    fits_write_key_str(f, ("PTYPE" + n).c_str(), ptype[i], nullptr, &status);
    fits_write_key_dbl(f, ("PSCAL" + n).c_str(), pscal[i], -15, nullptr, &status);
    fits_write_key_dbl(f, ("PZERO" + n).c_str(), pzero[i], -15, nullptr, &status);
  }
  const char* ctype[6] = {"COMPLEX", "STOKES", "FREQ", "IF", "RA", "DEC"};
  const double crval[6] = {1, -5, 1.0e8, 1, 10.0, -20.0};
  const double cdelt[6] = {1, -1, 1.0e5, 1, 1, 1};
  for (int i = 0; i < 6; ++i) {
    const std::string n = std::to_string(i + 2);
    fits_write_key_str(f, ("CTYPE" + n).c_str(), ctype[i], nullptr, &status);
    fits_write_key_dbl(f, ("CRVAL" + n).c_str(), crval[i], -15, nullptr, &status);
    fits_write_key_dbl(f, ("CDELT" + n).c_str(), cdelt[i], -15, nullptr, &status);
  }
  const double baseline = 2048.0 * h.nosta[1] + h.nosta[0] + 65536.0;
  float params[6] = {static_cast<float>(3e-7 / h.uu_scale), -1e-7f, 2e-8f, 0.125f, 0.0f,
                     static_cast<float>(baseline)};
  float data[3 * 2 * 2];
  for (int i = 0; i < 3 * 2 * h.nif; ++i) data[i] = (i % 3 == 2) ? 4.0f : float(i);
  fits_write_grppar_flt(f, 1, 1, 6, params, &status);
  fits_write_img_flt(f, 1, 1, 3 * 2 * h.nif, data, &status);
  const char* an_type[] = {"ANNAME", "STABXYZ", "NOSTA"};
  const char* an_form[] = {"8A", "3D", "1J"};
  fits_create_tbl(f, BINARY_TBL, 2, 3, const_cast<char**>(an_type), const_cast<char**>(an_form),
                  nullptr, h.an_name, &status);
  const char* names[2] = {"A5", "A300"};
  double xyz[6] = {1, 2, 3, 4, 5, 6};
  long nosta[2] = {h.nosta[0], h.nosta[1]};
  fits_write_col_str(f, 1, 1, 1, 2, const_cast<char**>(names), &status);
  fits_write_col_dbl(f, 2, 1, 1, 6, xyz, &status);
  fits_write_col_lng(f, 3, 1, 1, 2, nosta, &status);
  fits_write_key_str(f, "FRAME", "ITRF", nullptr, &status);
  if (h.with_fq) {
    const char* fq_type[] = {"FRQSEL", "IF FREQ"};
    const std::string if_form = std::to_string(h.nif) + "D";
    const char* fq_form[] = {"1J", if_form.c_str()};
    fits_create_tbl(f, BINARY_TBL, 1, 2, const_cast<char**>(fq_type),
                    const_cast<char**>(fq_form), nullptr, "AIPS FQ", &status);
    double offsets[2] = {0.0, 8.0e6};
    fits_write_col_dbl(f, 2, 1, 1, h.nif, offsets, &status);
  }
  fits_close_file(f, &status);
  ok(status);
}

void expect_data_error(const std::function<void()>& action, const std::string& path,
                       const std::string& problem) {
  try {
    action();
    ADD_FAILURE() << "no DataError; expected " << problem;
  } catch (const DataError& e) {
    const std::string text = e.what();
    EXPECT_EQ(text.rfind(path + ": ", 0), 0u) << text;
    EXPECT_NE(text.find(problem), std::string::npos) << text;
  }
}

// Rewrites one random parameter of one group of a file the writer made.
void set_param(const std::string& path, long group, int param, float value) {
  fitsfile* f = nullptr;
  int status = 0;
  fits_open_diskfile(&f, path.c_str(), READWRITE, &status);
  fits_write_grppar_flt(f, group, param, 1, &value, &status);
  fits_close_file(f, &status);
  ok(status);
}

TEST(UvfitsReader, FlattensSeveralIfsIntoChannels) {
  ScratchDir dir;
  build(dir.file("if.uvfits"), HandBuilt{});
  const VisibilitySet vis = read_uvfits(dir.file("if.uvfits"));
  ASSERT_EQ(vis.nchan(), 4u);
  EXPECT_EQ(vis.channel_freq_hz, (std::vector<double>{1.0e8, 1.001e8, 1.08e8, 1.081e8}));
  // Group data [if][freq][stokes][complex]: IF 1 channel 0 starts at value 6.
  EXPECT_EQ(vis.vis[vis.index(0, 2, 0)], std::complex<float>(6, 7));
  EXPECT_EQ(vis.weight[vis.index(0, 3, 0)], 4.0f);
}

TEST(UvfitsReader, AppliesPscalAndPzeroAndSumsTheDates) {
  ScratchDir dir;
  build(dir.file("p.uvfits"), HandBuilt{});
  const VisibilitySet vis = read_uvfits(dir.file("p.uvfits"));
  EXPECT_NEAR(vis.uvw_m[0][0], 3e-7 * kC, 1e-6 * 3e-7 * kC);  // UU---SIN, PSCAL 2
  EXPECT_NEAR(vis.uvw_m[0][1], -1e-7 * kC, 1e-6 * 1e-7 * kC);
  // JD 2456000.5 + 0.125 + 0.25 (second DATE's PZERO) = MJD 56000.375.
  EXPECT_DOUBLE_EQ(vis.time_mjd[0], 56000.375);
  EXPECT_NEAR(vis.phase_centre_ra_rad, 10.0 * M_PI / 180, 1e-15);
}

TEST(UvfitsReader, TakesAFileWithoutObsraAsPointingAtItsPhaseCentre) {
  ScratchDir dir;
  build(dir.file("noobs.uvfits"), HandBuilt{});  // RA and DEC axes, no OBSRA/OBSDEC
  const VisibilitySet vis = read_uvfits(dir.file("noobs.uvfits"));
  EXPECT_FALSE(vis.pointing.has_value());
  EXPECT_NEAR(vis.pointing_or_phase_centre().ra_rad, 10.0 * M_PI / 180, 1e-15);
  EXPECT_NEAR(vis.pointing_or_phase_centre().dec_rad, -20.0 * M_PI / 180, 1e-15);
}

TEST(UvfitsReader, MapsExtendedBaselineNumbersThroughNosta) {
  ScratchDir dir;
  build(dir.file("b.uvfits"), HandBuilt{});
  const VisibilitySet vis = read_uvfits(dir.file("b.uvfits"));
  EXPECT_EQ(vis.antenna1[0], 1);  // NOSTA 300 is the second AN row
  EXPECT_EQ(vis.antenna2[0], 0);  // NOSTA 5 the first
  EXPECT_EQ(vis.array.antennas[1].name, "A300");
}

TEST(UvfitsReader, RejectsSeveralIfsWithoutAnFqTable) {
  ScratchDir dir;
  HandBuilt h;
  h.with_fq = false;
  build(dir.file("nofq.uvfits"), h);
  expect_data_error([&] { read_uvfits(dir.file("nofq.uvfits")); }, dir.file("nofq.uvfits"),
                    "2 IFs but no AIPS FQ table");
}

TEST(UvfitsReader, RejectsNcpProjectedUvw) {
  ScratchDir dir;
  HandBuilt h;
  h.uu_name = "UU---NCP";
  build(dir.file("ncp.uvfits"), h);
  expect_data_error([&] { read_uvfits(dir.file("ncp.uvfits")); }, dir.file("ncp.uvfits"),
                    "NCP-projected uvw is not supported");
}

TEST(UvfitsReader, RejectsAFileWithoutAnAntennaTable) {
  ScratchDir dir;
  HandBuilt h;
  h.an_name = "AIPS XX";
  build(dir.file("noan.uvfits"), h);
  expect_data_error([&] { read_uvfits(dir.file("noan.uvfits")); }, dir.file("noan.uvfits"),
                    "UVFITS has no AIPS AN table");
}

TEST(UvfitsReader, RejectsAnAntennaNumberMissingFromTheTable) {
  ScratchDir dir;
  HandBuilt h;
  h.nosta[1] = 301;
  build(dir.file("ant.uvfits"), h);
  // The group still names 301 and 5; make the table say 5 and 300 instead.
  fitsfile* f = nullptr;
  int status = 0;
  long nosta = 300;
  fits_open_diskfile(&f, dir.file("ant.uvfits").c_str(), READWRITE, &status);
  fits_movnam_hdu(f, BINARY_TBL, const_cast<char*>("AIPS AN"), 0, &status);
  fits_write_col_lng(f, 3, 2, 1, 1, &nosta, &status);
  fits_close_file(f, &status);
  ok(status);
  expect_data_error([&] { read_uvfits(dir.file("ant.uvfits")); }, dir.file("ant.uvfits"),
                    "antenna number 301 is not in the AIPS AN table");
}

TEST(UvfitsReader, RejectsASecondSubarray) {
  ScratchDir dir;
  const std::string path = dir.file("sub.uvfits");
  write_uvfits(path, testing::make_test_visibilities(3, 1, 1), false);
  set_param(path, 2, 9, 2.0f);  // PTYPE9 = SUBARRAY in what the writer makes
  expect_data_error([&] { read_uvfits(path); }, path,
                    "group 2: subarray 2; only one subarray is supported");
}

TEST(UvfitsReader, RejectsTruncatedData) {
  ScratchDir dir;
  const std::string whole = dir.file("whole.uvfits");
  write_uvfits(whole, testing::make_test_visibilities(8, 4, 16), false);
  const std::string data = testing::read_whole_file(whole);
  const std::string path = dir.file("cut.uvfits");
  testing::write_whole_file(path, data.substr(0, data.size() / 2));
  expect_data_error([&] { read_uvfits(path); }, path, "truncated");
}

// Cut inside a table's header or its rows: said so, not what CFITSIO met at the end.
TEST(UvfitsReader, SaysATableCutShortIsTruncated) {
  ScratchDir dir;
  const std::string whole = dir.file("whole.uvfits");
  write_uvfits(whole, testing::make_test_visibilities(8, 4, 16), false);
  const std::string data = testing::read_whole_file(whole);
  const size_t table = data.find("XTENSION= 'BINTABLE'");
  ASSERT_NE(table, std::string::npos);
  ASSERT_EQ(table % 2880, 0u);
  const std::string path = dir.file("cut.uvfits");
  testing::write_whole_file(path, data.substr(0, table + 1000));
  expect_data_error([&] { read_uvfits(path); }, path,
                    "truncated: the file ends 1000 bytes into HDU 2's header");
  const size_t an = data.find("EXTNAME = 'AIPS AN");
  ASSERT_NE(an, std::string::npos);
  const size_t rows = (data.find("END     ", an) / 2880 + 1) * 2880;
  testing::write_whole_file(path, data.substr(0, rows + 10));
  expect_data_error([&] { read_uvfits(path); }, path, "truncated: the AIPS AN table needs ");
}

TEST(UvfitsReader, RejectsTheTruncatedMwaFile) {
  RAPT_REQUIRE_SHARED_FILE(source, "pyuvdata/1061316296.uvfits");
  ScratchDir dir;
  const std::string path = dir.file("mwa_cut.uvfits");
  testing::write_whole_file(path, testing::read_whole_file(source).substr(0, 500000));
  expect_data_error([&] { read_uvfits(path); }, path, "truncated: GCOUNT 16256 groups need");
}

TEST(UvfitsReader, RejectsAnImageThatIsNotRandomGroups) {
  ScratchDir dir;
  FitsImage image;
  image.nx = image.ny = 4;
  image.pixels.assign(16, 1.0f);
  image.cell_rad = 1e-4;
  write_fits_image(dir.file("img.fits"), image, false);
  expect_data_error([&] { read_uvfits(dir.file("img.fits")); }, dir.file("img.fits"),
                    "not UVFITS: the primary HDU is not random groups");
}

// The value field (columns 11-80) of keyword `key` in the header that starts after `after`
// replaced with `value`, padded to 70 characters.
void set_card_value(std::string& bytes, const std::string& after, const std::string& key,
                    const std::string& value) {
  const size_t from = bytes.find(after);
  ASSERT_NE(from, std::string::npos) << after;
  std::string name = key;
  name.resize(8, ' ');
  size_t card = from / 80 * 80;
  while (card + 80 <= bytes.size() && bytes.compare(card, 10, name + "= ") != 0) card += 80;
  ASSERT_LT(card + 80, bytes.size()) << key;
  std::string field = value;
  field.resize(70, ' ');
  bytes.replace(card + 10, 70, field);
}

// A long value that is not a number, where an integer or real belongs: converting it, CFITSIO
// writes past a fixed message buffer.
const char kLongText[] =
    "          (Flexible Image Transport System) format is defined in 'Astr";

// An array centre far from the Earth is refused (the antennas' positions would be nonsense); a
// pointing beyond the pole is not one, and the file reads as pointing at its phase centre.
TEST(UvfitsReader, RejectsANonFiniteArrayCentreAndIgnoresAnImpossiblePointing) {
  ScratchDir dir;
  VisibilitySet vis = testing::make_test_visibilities(3, 1, 2);
  vis.pointing = SkyDirection{0.5, 0.2};
  const std::string path = dir.file("keys.uvfits");
  write_uvfits(path, vis, false);
  std::string bytes = testing::read_whole_file(path);
  set_card_value(bytes, "SIMPLE", "OBSDEC", "95.0");
  testing::write_whole_file(path, bytes);
  EXPECT_FALSE(read_uvfits(path).pointing.has_value());
  set_card_value(bytes, "AIPS AN", "ARRAYX", "1.0E300");
  testing::write_whole_file(path, bytes);
  expect_data_error([&] { read_uvfits_antennas(path); }, path, "ARRAYX");
}

TEST(UvfitsReader, RejectsAFileThatIsNotFits) {
  ScratchDir dir;
  testing::write_whole_file(dir.file("text.uvfits"), std::string(3000, 'x'));
  expect_data_error([&] { read_uvfits(dir.file("text.uvfits")); }, dir.file("text.uvfits"),
                    "cannot open as FITS");
}

TEST(UvfitsReader, RejectsATableHeaderWithBytesThatAreNotAscii) {
  ScratchDir dir;
  const std::string path = dir.file("binary.uvfits");
  build(path, HandBuilt{});
  // TTYPE1 of the AN table (HDU 2) given a value and comment of bytes above 0x7f: CFITSIO
  // would copy that value past a fixed buffer, so the reader refuses it before CFITSIO reads it.
  std::string bytes = testing::read_whole_file(path);
  const size_t card = bytes.find("TTYPE1  = ");
  ASSERT_NE(card, std::string::npos);
  bytes.replace(card + 10, 70, std::string(70, '\xff'));
  testing::write_whole_file(path, bytes);
  const std::string problem = "header of HDU 2 holds a byte that is not printable ASCII (not FITS)";
  expect_data_error([&] { read_uvfits(path); }, path, problem);
  expect_data_error([&] { read_uvfits_antennas(path); }, path, problem);
  expect_data_error([&] { parse_uvfits(bytes.data(), bytes.size(), "memory"); }, "memory",
                    problem);
}

TEST(UvfitsReader, RejectsAMissingFile) {
  ScratchDir dir;
  expect_data_error([&] { read_uvfits(dir.file("none.uvfits")); }, dir.file("none.uvfits"),
                    "cannot open");
}

TEST(UvfitsReader, ParsesAFileImageInMemory) {
  ScratchDir dir;
  build(dir.file("m.uvfits"), HandBuilt{});
  const std::string bytes = testing::read_whole_file(dir.file("m.uvfits"));
  const VisibilitySet vis = parse_uvfits(bytes.data(), bytes.size(), "memory");
  EXPECT_EQ(vis.nchan(), 4u);
  write_uvfits(dir.file("big.uvfits"), testing::make_test_visibilities(8, 4, 16), false);
  const std::string big = testing::read_whole_file(dir.file("big.uvfits"));
  expect_data_error([&] { parse_uvfits(big.data(), big.size() / 2, "memory"); }, "memory",
                    "truncated");
}

TEST(UvfitsReader, RejectsALongNonNumericGcountWithOneLine) {
  ScratchDir dir;
  const std::string path = dir.file("gcount.uvfits");
  build(path, HandBuilt{});
  std::string bytes = testing::read_whole_file(path);
  set_card_value(bytes, "SIMPLE", "GCOUNT", kLongText);
  testing::write_whole_file(path, bytes);
  const std::string problem = "cannot open as FITS: bad string to int conversion";
  expect_data_error([&] { read_uvfits(path); }, path, problem);
  expect_data_error([&] { parse_uvfits(bytes.data(), bytes.size(), "memory"); }, "memory",
                    problem);
}

TEST(UvfitsReader, RejectsALongNonNumericAntennaTableRowCountWithOneLine) {
  ScratchDir dir;
  const std::string path = dir.file("naxis2.uvfits");
  build(path, HandBuilt{});
  std::string bytes = testing::read_whole_file(path);
  set_card_value(bytes, "BINTABLE", "NAXIS2", kLongText);  // the AN table, the first BINTABLE
  testing::write_whole_file(path, bytes);
  const std::string problem = "HDU 2: cannot read its header: ";
  expect_data_error([&] { read_uvfits(path); }, path, problem);
  expect_data_error([&] { read_uvfits_antennas(path); }, path, problem);
  try {
    read_uvfits(path);
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

TEST(UvfitsReader, TakesALongNonNumericIntegerOrRealKeyAsNotGiven) {
  ScratchDir dir;
  const std::string path = dir.file("keys.uvfits");
  build(path, HandBuilt{});
  std::string bytes = testing::read_whole_file(path);
  set_card_value(bytes, "SIMPLE", "CRVAL7", kLongText);
  set_card_value(bytes, "SIMPLE", "PZERO1", "'42'");
  set_card_value(bytes, "SIMPLE", "PZERO2", "5.5D4");
  set_card_value(bytes, "SIMPLE", "PZERO3", "-7.9");
  testing::write_whole_file(path, bytes);
  FitsHandle fits = open_fits_readonly(path);
  EXPECT_FALSE(fits_int_key(fits.get(), "CRVAL7"));
  EXPECT_FALSE(fits_double_key(fits.get(), "CRVAL7"));
  EXPECT_EQ(fits_int_key(fits.get(), "PZERO1"), 42);
  EXPECT_EQ(fits_int_key(fits.get(), "PZERO2"), 55000);
  EXPECT_EQ(fits_int_key(fits.get(), "PZERO3"), -7);
  EXPECT_EQ(fits_int_key(fits.get(), "GCOUNT"), 1);
  EXPECT_FALSE(fits_int_key(fits.get(), "PTYPE1"));  // 'UU---SIN'
  EXPECT_FALSE(fits_int_key(fits.get(), "ABSENT"));
  // The reader itself goes on: the Dec axis value is simply not given.
  EXPECT_NO_THROW(read_uvfits(path));
}

}  // namespace
}  // namespace rapt
