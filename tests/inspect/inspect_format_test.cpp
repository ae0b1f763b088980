// Format recognition from content, on buffers, and the shared report text helpers.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "inspect/inspect_format.hpp"
#include "inspect/report_text.hpp"

using rapt::InspectFormat;
using rapt::detect_format_from_bytes;

namespace {

std::string card(const std::string& key, const std::string& value) {
  std::string c = key;
  c.resize(8, ' ');
  c += "= " + value;
  c.resize(80, ' ');
  return c;
}

std::string fits_header(const std::string& cards) {
  std::string h = card("SIMPLE", "T") + cards + std::string("END").append(77, ' ');
  h.resize(2880, ' ');
  return h;
}

void put_word(std::string& bytes, size_t at, uint32_t word) {
  for (int i = 0; i < 4; ++i) bytes[at + size_t(i)] = char((word >> (8 * i)) & 0xFF);
}

// Two 64-byte VDIF frames (32-byte header, 8 words of data), 2-bit real, one channel.
std::string two_vdif_frames() {
  std::string bytes(128, '\0');
  for (size_t frame = 0; frame < 2; ++frame) {
    put_word(bytes, frame * 64 + 0, 1000);
    put_word(bytes, frame * 64 + 4, (28u << 24) | uint32_t(frame));
    put_word(bytes, frame * 64 + 8, (1u << 29) | 8u);  // version 1, 8 x 8 bytes
    put_word(bytes, frame * 64 + 12, (1u << 26) | 0xABCDu);  // 2 bits, station 0xABCD
  }
  return bytes;
}

}  // namespace

TEST(InspectFormat, KnowsAnAccelTableByItsColumnTitles) {
  const std::string head =
      "             Summed  Coherent  Num        Period          Frequency         FFT 'r'\n"
      "Cand  Sigma  Power    Power    Harm        (ms)             (Hz)             (bin)\n";
  EXPECT_EQ(detect_format_from_bytes(head, head.size()), InspectFormat::kAccelCandidates);
  // The titles on a later line are not a table's.
  EXPECT_EQ(detect_format_from_bytes("notes\n" + head, head.size() + 6), InspectFormat::kUnknown);
}

TEST(InspectFormat, TellsTheFitsKindsApart) {
  EXPECT_EQ(detect_format_from_bytes(fits_header(card("NAXIS", "7") + card("NAXIS1", "0") +
                                                 card("GROUPS", "T")), 100000),
            InspectFormat::kUvfits);
  EXPECT_EQ(detect_format_from_bytes(fits_header(card("NAXIS", "4") + card("NAXIS1", "64") +
                                                 card("NAXIS2", "64")), 100000),
            InspectFormat::kFitsImage);
  // An image whose third axis is MATRIX holds A-terms (idg-grid --aterms).
  EXPECT_EQ(detect_format_from_bytes(fits_header(card("NAXIS", "6") + card("NAXIS1", "32") +
                                                 card("NAXIS2", "32") + card("NAXIS3", "8") +
                                                 card("CTYPE3", "'MATRIX  '")), 100000),
            InspectFormat::kATermCube);
  EXPECT_EQ(detect_format_from_bytes(fits_header(card("NAXIS", "0") +
                                                 card("FITSTYPE", "'PSRFITS '")), 100000),
            InspectFormat::kSpectra);
}

TEST(InspectFormat, RecognisesVoltageHeaders) {
  EXPECT_EQ(detect_format_from_bytes(card("BACKEND", "'GUPPI   '") + card("NBITS", "8"), 50000),
            InspectFormat::kVoltages);
  EXPECT_EQ(detect_format_from_bytes(std::string("HDR_VERSION 1.0\nHDR_SIZE 4096\n") +
                                         std::string(100, '\0'), 8192),
            InspectFormat::kVoltages);
  EXPECT_EQ(detect_format_from_bytes(two_vdif_frames(), 128), InspectFormat::kVoltages);
}

TEST(InspectFormat, BelievesVdifOnlyWhenTheFramesAgree) {
  std::string bytes = two_vdif_frames();
  put_word(bytes, 64 + 8, (1u << 29) | 9u);  // second frame claims another length
  EXPECT_EQ(detect_format_from_bytes(bytes + "x", 129), InspectFormat::kUnknown);
  EXPECT_EQ(detect_format_from_bytes("this is not FITS", 16), InspectFormat::kUnknown);
}

TEST(InspectFormat, RecognisesSigprocPrestoAndLayouts) {
  std::string sigproc("\x0c\0\0\0HEADER_START", 16);
  EXPECT_EQ(detect_format_from_bytes(sigproc, 1000), InspectFormat::kSpectra);
  EXPECT_EQ(detect_format_from_bytes(" Data file name without suffix          =  x\n", 50),
            InspectFormat::kPrestoInf);
  EXPECT_EQ(detect_format_from_bytes("# telescope: X\n  # frame: itrf\na 1 2 3\n", 40),
            InspectFormat::kLayout);
  // A layout without its header lines needs --layout: alone it is no format.
  EXPECT_EQ(detect_format_from_bytes("a 1 2 3\nb 4 5 6\n", 16), InspectFormat::kUnknown);
  EXPECT_EQ(detect_format_from_bytes("", 0), InspectFormat::kSpectra);  // "file is empty"
}

TEST(ReportText, WritesUtcDatesFromMjd) {
  EXPECT_EQ(rapt::utc_date_time(58132LL, 51093.0), "2018-01-14 14:11:33.000000");
  EXPECT_EQ(rapt::utc_date_time(40587LL, 0.0), "1970-01-01 00:00:00.000000");
  EXPECT_EQ(rapt::utc_date_time(51544LL, 86399.9999999), "2000-01-02 00:00:00.000000");
  EXPECT_EQ(rapt::utc_date_time(60000.5), "2023-02-25 12:00:00.000000");
}

TEST(ReportText, NamesStokesCodesAndAngles) {
  EXPECT_EQ(rapt::stokes_name(-5), "XX");
  EXPECT_EQ(rapt::stokes_name(-4), "LR");
  EXPECT_EQ(rapt::stokes_name(1), "I");
  EXPECT_EQ(rapt::stokes_name(9), "code 9");
  EXPECT_EQ(rapt::sexagesimal(272.655, true), "18:10:37.2000");
  EXPECT_EQ(rapt::sexagesimal(-26.78364, false), "-26:47:01.104");
  EXPECT_EQ(rapt::sexagesimal(359.99999999, true), "00:00:00.0000");
  EXPECT_EQ(rapt::sexagesimal(-29.999999999999996, false), "-30:00:00.000");  // not -29:60
}
