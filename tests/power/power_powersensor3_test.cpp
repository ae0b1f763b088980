// The PowerSensor3 driver against the emulator on a pseudo-terminal: configuration, decoded
// volts/amps/watts, energy, device markers, garbage in the stream, and a pulled cable.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <thread>

#include "cli/errors.hpp"
#include "power/powersensor3_emulator.hpp"
#include "power/powersensor3_source.hpp"
#include "test_data.hpp"

namespace {

// An emulator, or a skipped test where the machine has no pseudo-terminals (some containers).
#define RAPT_MAKE_EMULATOR(var, ...)                                              \
  std::unique_ptr<rapt::PowerSensor3Emulator> var##_holder;                       \
  try {                                                                           \
    var##_holder = std::make_unique<rapt::PowerSensor3Emulator>(__VA_ARGS__);     \
  } catch (const rapt::DataError& e) {                                            \
    GTEST_SKIP() << e.what();                                                     \
  }                                                                               \
  rapt::PowerSensor3Emulator& var = *var##_holder

void sleep_s(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// Waits until the driver has decoded at least `frames` frames (at most 5 s).
void wait_for_frames(const rapt::PowerSensor3Source& source, long long frames) {
  for (int i = 0; i < 500 && source.frames_decoded() < frames; ++i) sleep_s(0.01);
}

TEST(PowerSensor3Source, ReadsTheSensorConfigurationFromTheDevice) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path());
  EXPECT_EQ(source.configuration()[0].pair_name, "12V");
  EXPECT_FLOAT_EQ(source.configuration()[0].sensitivity, 0.12f);
  EXPECT_FLOAT_EQ(source.configuration()[3].sensitivity, 0.5f);
  EXPECT_FALSE(source.configuration()[4].in_use);
  ASSERT_EQ(source.sensors().size(), 2u);
  EXPECT_EQ(source.sensors()[0].name, "ps3.12V");
  EXPECT_EQ(source.sensors()[1].name, "ps3.3V3");
  EXPECT_TRUE(source.sensors()[0].has_energy_counter);
}

TEST(PowerSensor3Source, DecodesVoltsAmpsAndWattsPerPair) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path());
  wait_for_frames(source, 10);
  const std::vector<rapt::SensorValue> values = source.read();
  ASSERT_EQ(values.size(), 2u);
  // 10-bit levels: within one level (3.3 V / 1023 / sensitivity) of the set values.
  EXPECT_NEAR(values[0].volts, 12.0, 0.02);
  EXPECT_NEAR(values[0].amps, 5.0, 0.03);
  EXPECT_NEAR(values[0].watts, 60.0, 0.6);
  EXPECT_NEAR(values[1].volts, 3.3, 0.01);
  EXPECT_NEAR(values[1].amps, 2.0, 0.03);
  emulator.set_value(0, 8.0);  // 8 A on the 12 V rail
  const long long seen = source.frames_decoded();
  wait_for_frames(source, seen + 20);
  EXPECT_NEAR(source.read()[0].watts, 96.0, 1.0);
}

TEST(PowerSensor3Source, IntegratesEnergyAtTheDeviceRate) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path());
  wait_for_frames(source, 10);
  const auto start = std::chrono::steady_clock::now();
  const rapt::SensorValue first = source.read()[0];
  sleep_s(0.5);
  const double last_j = source.read()[0].joules;
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Constant power: joules = watts x time, up to the moment of each read (the test's clock may
  // be a scheduling delay off it on a loaded machine).
  EXPECT_NEAR((last_j - first.joules) / elapsed_s, first.watts, first.watts * 0.02);
}

TEST(PowerSensor3Source, CountsTheEnergyUpToEachReading) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path());
  // The first frame is in before the constructor returns, so a run's first sample has a reading.
  const rapt::SensorValue first = source.read()[0];
  EXPECT_NEAR(first.watts, 60.0, 0.6);
  // Frames come in 5 ms batches; readings 1 ms apart still see the energy grow every time.
  double previous_j = first.joules;
  for (int i = 0; i < 5; ++i) {
    sleep_s(0.001);
    const double joules = source.read()[0].joules;
    EXPECT_GT(joules, previous_j) << "reading " << i;
    previous_j = joules;
  }
}

TEST(PowerSensor3Source, MarksTheDeviceStream) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path());
  wait_for_frames(source, 5);
  source.mark();
  source.mark();
  for (int i = 0; i < 200 && source.device_markers_seen() < 2; ++i) sleep_s(0.01);
  EXPECT_EQ(emulator.markers_received(), 2);
  EXPECT_EQ(source.device_markers_seen(), 2);
}

TEST(PowerSensor3Source, ResynchronisesAfterGarbageBytes) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path());
  wait_for_frames(source, 5);
  emulator.inject_garbage({0x01, 0x02, 0x03, 0x80});  // three strays and a half value
  const long long seen = source.frames_decoded();
  wait_for_frames(source, seen + 50);
  EXPECT_GE(source.discarded_bytes(), 3);
  EXPECT_NEAR(source.read()[0].watts, 60.0, 0.6);  // still decoding the right sensors
}

TEST(PowerSensor3Source, ReportsAPulledCableAsADataError) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path());
  wait_for_frames(source, 5);
  emulator.disconnect();
  bool failed = false;
  for (int i = 0; i < 300 && !failed; ++i) {
    try {
      source.read();
      sleep_s(0.01);
    } catch (const rapt::DataError& e) {
      failed = true;
      EXPECT_NE(std::string(e.what()).find("PowerSensor3 disconnected"), std::string::npos)
          << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(emulator.device_path() + ": ", 0), 0u) << e.what();
    }
  }
  EXPECT_TRUE(failed) << "the driver did not notice the closed terminal";
}

TEST(PowerSensor3Source, ReportsASilentDeviceAsADataError) {
  RAPT_MAKE_EMULATOR(emulator);
  rapt::PowerSensor3Source source(emulator.device_path(), 0.3);
  wait_for_frames(source, 5);
  EXPECT_NO_THROW(source.read());
  emulator.stall(true);
  sleep_s(0.5);
  try {
    source.read();
    FAIL() << "a silent device was taken for a working one";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              emulator.device_path() + ": PowerSensor3 sent no data for 0.3 s");
  }
}

TEST(PowerSensor3Source, StopsTheStreamWhenClosed) {
  RAPT_MAKE_EMULATOR(emulator);
  {
    rapt::PowerSensor3Source source(emulator.device_path());
    wait_for_frames(source, 5);
    EXPECT_TRUE(emulator.streaming());
  }
  // The emulator's own thread reads the 'X' the closing source sent: give it a moment.
  for (int i = 0; i < 100 && emulator.streaming(); ++i) sleep_s(0.01);
  EXPECT_FALSE(emulator.streaming());
}

TEST(PowerSensor3Source, RefusesADeviceThatDoesNotAnswer) {
  EXPECT_THROW(rapt::PowerSensor3Source("/nonexistent/ttyACM9"), rapt::DataError);
  // A FIFO with a writer that never writes: a device that stays silent.
  rapt::testing::ScratchDir dir;
  const std::string silent = dir.file("silent");
  ASSERT_EQ(mkfifo(silent.c_str(), 0600), 0);
  const int keep_open = open(silent.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(keep_open, 0);
  try {
    rapt::PowerSensor3Source source(silent, 0.2);
    FAIL() << "a silent device was taken for a PowerSensor3";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              silent + ": no answer to the configuration request (sensor 0); is it a "
                       "PowerSensor3?");
  }
  close(keep_open);
}

TEST(PowerSensor3Source, RefusesADeviceWithNoPairInUse) {
  auto config = rapt::PowerSensor3Emulator::default_config();
  for (auto& sensor : config) sensor.in_use = false;
  RAPT_MAKE_EMULATOR(emulator, config, rapt::PowerSensor3Emulator::default_values());
  try {
    rapt::PowerSensor3Source source(emulator.device_path());
    FAIL() << "accepted a device with no pair in use";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              emulator.device_path() +
                  ": PowerSensor3 has no sensor pair in use (configure it first)");
  }
}

}  // namespace
