// Boxcar widths (PRESTO's list, extended past 300) and the option checks.
#include <gtest/gtest.h>

#include "cli/errors.hpp"
#include "snr/snr_options.hpp"
#include "snr/snr_settings.hpp"

namespace rapt {
namespace {

TEST(SnrSettings, DefaultWidthsArePrestosUpToThirty) {
  EXPECT_EQ(SnrSettings{}.widths, (std::vector<int>{1, 2, 3, 4, 6, 9, 14, 20, 30}));
  EXPECT_EQ(boxcar_widths_up_to(30), SnrSettings{}.widths);
  EXPECT_EQ(boxcar_widths_up_to(1), std::vector<int>{1});
}

TEST(SnrSettings, WidthsGoPastThreeHundredInStepsOfAboutOneAndAHalf) {
  const std::vector<int> widths = boxcar_widths_up_to(3000);
  const std::vector<int> expected = {1,  2,  3,   4,   6,   9,   14,  20,   30,   45,  70,
                                     100, 150, 220, 300, 450, 680, 1000, 1500, 2300};
  EXPECT_EQ(widths, expected);
}

TEST(SnrSettings, MaxWidthInSecondsFollowsPrestosRule) {
  // PRESTO -m 0.01 at dt = 1 ms: widths with width * dt <= 10 ms.
  EXPECT_EQ(widths_for_max_seconds(0.01, 1e-3), (std::vector<int>{1, 2, 3, 4, 6, 9}));
  EXPECT_EQ(widths_for_max_seconds(0.3, 1e-3).back(), 300);
  EXPECT_EQ(widths_for_max_seconds(1e-4, 1e-3), (std::vector<int>{1, 2}));  // none: width 2
}

TEST(SnrSettings, RejectsBadValues) {
  SnrSettings s;
  s.widths = {1, 4, 3};
  EXPECT_THROW(validate_snr_settings(s), UsageError);
  s = SnrSettings{};
  s.detrend_len = 4;
  EXPECT_THROW(validate_snr_settings(s), UsageError);
  s = SnrSettings{};
  EXPECT_NO_THROW(validate_snr_settings(s));
}

}  // namespace
}  // namespace rapt
