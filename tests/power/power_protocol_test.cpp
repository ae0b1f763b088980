// The PowerSensor3 byte protocol: configuration records, sample encoding, resynchronisation.
#include <gtest/gtest.h>

#include <vector>

#include "power/powersensor3_protocol.hpp"

namespace {

using rapt::ps3::StreamDecoder;
using rapt::ps3::StreamEvent;

TEST(PowerSensor3Config, RoundTripsThroughTheFortyOneByteRecord) {
  rapt::ps3::SensorConfig config{"MLX91221-25", "PCIe 12V", 1.65f, 0.12f, true};
  const std::vector<uint8_t> record = rapt::ps3::encode_config(config);
  ASSERT_EQ(record.size(), rapt::ps3::kConfigRecordBytes);
  const rapt::ps3::SensorConfig back = rapt::ps3::decode_config(record.data());
  EXPECT_EQ(back.type, "MLX91221-25");
  EXPECT_EQ(back.pair_name, "PCIe 12V");
  EXPECT_FLOAT_EQ(back.vref, 1.65f);
  EXPECT_FLOAT_EQ(back.sensitivity, 0.12f);
  EXPECT_TRUE(back.in_use);
}

TEST(PowerSensor3Config, StoresFloatsLittleEndianAfterTheNames) {
  rapt::ps3::SensorConfig config{"a", "b", 1.0f, 2.0f, false};
  const std::vector<uint8_t> record = rapt::ps3::encode_config(config);
  // 1.0f = 0x3F800000, little-endian at byte 32.
  EXPECT_EQ(record[32], 0x00);
  EXPECT_EQ(record[35], 0x3F);
  EXPECT_EQ(record[36 + 3], 0x40);  // 2.0f = 0x40000000
  EXPECT_EQ(record[40], 0);
}

TEST(PowerSensor3Levels, ConvertToVoltsAndAmpsWithVrefAndSensitivity) {
  rapt::ps3::SensorConfig current{"", "", 1.65f, 0.12f, true};
  // level 1023 is 3.3 V at the ADC: (3.3 - 1.65) / 0.12 A.
  EXPECT_NEAR(rapt::ps3::level_to_value(current, 1023), 13.75, 1e-5);
  EXPECT_NEAR(rapt::ps3::level_to_value(current, 0), -13.75, 1e-5);
  rapt::ps3::SensorConfig voltage{"", "", 0.0f, 0.2f, true};
  EXPECT_EQ(rapt::ps3::value_to_level(voltage, 12.0), 744);
  EXPECT_NEAR(rapt::ps3::level_to_value(voltage, 744), 12.0, 1e-5);
  EXPECT_EQ(rapt::ps3::value_to_level(voltage, 100.0), 1023);  // clamped
}

TEST(PowerSensor3Stream, EncodesTheSensorLevelAndMarkerBits) {
  std::vector<uint8_t> bytes;
  rapt::ps3::encode_value(5, 0x2AB, true, bytes);
  ASSERT_EQ(bytes.size(), 2u);
  EXPECT_EQ(bytes[0], 0x80 | (5 << 4) | (0x2AB >> 6));
  EXPECT_EQ(bytes[1], 0x40 | (0x2AB & 0x3F));
}

TEST(PowerSensor3Stream, DecodesValuesSplitAcrossReads) {
  std::vector<uint8_t> bytes;
  rapt::ps3::encode_value(3, 700, false, bytes);
  rapt::ps3::encode_value(0, 12, true, bytes);
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  for (uint8_t byte : bytes) decoder.feed(&byte, 1, events);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].sensor, 3);
  EXPECT_EQ(events[0].level, 700);
  EXPECT_FALSE(events[0].marker);
  EXPECT_EQ(events[1].sensor, 0);
  EXPECT_EQ(events[1].level, 12);
  EXPECT_TRUE(events[1].marker);
}

TEST(PowerSensor3Stream, TakesMarkedSensorSevenAsTheDeviceTimestamp) {
  std::vector<uint8_t> bytes;
  rapt::ps3::encode_value(7, 999, true, bytes);
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  decoder.feed(bytes.data(), bytes.size(), events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, StreamEvent::kTimestamp);
  EXPECT_EQ(events[0].level, 999);
}

TEST(PowerSensor3Stream, RecognisesTheStopSequence) {
  const uint8_t bytes[] = {rapt::ps3::kStopByte0, rapt::ps3::kStopByte1};
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  decoder.feed(bytes, 2, events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, StreamEvent::kStop);
}

TEST(PowerSensor3Stream, ResynchronisesAfterGarbageAndADroppedByte) {
  std::vector<uint8_t> bytes = {0x12, 0x05, 0x7F};  // garbage: no valid first byte
  rapt::ps3::encode_value(2, 300, false, bytes);
  bytes.push_back(0x80 | (4 << 4));  // a value that lost its second byte
  rapt::ps3::encode_value(6, 1000, false, bytes);
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  decoder.feed(bytes.data(), bytes.size(), events);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].sensor, 2);
  EXPECT_EQ(events[0].level, 300);
  EXPECT_EQ(events[1].sensor, 6);
  EXPECT_EQ(events[1].level, 1000);
  EXPECT_EQ(decoder.discarded_bytes(), 4);
}

}  // namespace
