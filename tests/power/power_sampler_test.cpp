// The sampler with scripted sources: rows at the interval, markers in time order, a source
// failing mid-run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "cli/errors.hpp"
#include "power/power_sampler.hpp"

namespace {

// Watts that grow by one per read; fails after `fail_after` reads (0 = never, -1 = at once).
class CountingSource : public rapt::PowerSource {
 public:
  explicit CountingSource(int fail_after = 0) : fail_after_(fail_after) {}
  std::string name() const override { return "counting"; }
  std::string device() const override { return "test"; }
  const std::vector<rapt::PowerSensorInfo>& sensors() const override { return sensors_; }
  std::vector<rapt::SensorValue> read() override {
    if (fail_after_ != 0 && reads_ >= fail_after_) throw rapt::DataError("test: meter gone");
    rapt::SensorValue value;
    value.watts = ++reads_;
    return {value};
  }
  void mark() override { ++marks_; }
  std::atomic<int> reads_{0};
  std::atomic<int> marks_{0};

 private:
  int fail_after_;
  std::vector<rapt::PowerSensorInfo> sensors_{{"c", false}};
};

class RecordingSink : public rapt::TraceSink {
 public:
  void sample(double time_s, const std::vector<rapt::SensorValue>& values) override {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back({time_s, values.at(0).watts, ""});
  }
  void marker(double time_s, const std::string& text) override {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back({time_s, NAN, text});
  }
  struct Event {
    double time_s;
    double watts;
    std::string text;
  };
  std::mutex mutex;
  std::vector<Event> events;
};

TEST(PowerSampler, SamplesAtTheIntervalFromStartToStop) {
  CountingSource source;
  RecordingSink sink;
  rapt::PowerSampler sampler({&source}, 20, {&sink});
  sampler.start();
  ASSERT_EQ(sink.events.size(), 1u);  // the first row is taken at once
  EXPECT_LT(sink.events[0].time_s, 0.01);
  std::this_thread::sleep_for(std::chrono::milliseconds(210));
  sampler.stop();
  // ~10 rows at 20 ms, plus the first and the last; allow for a loaded machine.
  EXPECT_GE(sink.events.size(), 4u);
  EXPECT_LE(sink.events.size(), 14u);
  for (size_t i = 1; i < sink.events.size(); ++i) {
    EXPECT_GT(sink.events[i].time_s, sink.events[i - 1].time_s);
    EXPECT_EQ(sink.events[i].watts, sink.events[i - 1].watts + 1);
  }
  EXPECT_TRUE(sampler.failure().empty());
}

TEST(PowerSampler, PutsMarkersBetweenTheRowsAndTellsTheSources) {
  CountingSource source;
  RecordingSink sink;
  rapt::PowerSampler sampler({&source}, 10, {&sink});
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(35));
  sampler.mark("phase");
  std::this_thread::sleep_for(std::chrono::milliseconds(35));
  sampler.stop();
  EXPECT_EQ(source.marks_, 1);
  size_t marker_at = 0;
  for (size_t i = 0; i < sink.events.size(); ++i) {
    if (sink.events[i].text == "phase") marker_at = i;
  }
  ASSERT_GT(marker_at, 0u);
  ASSERT_LT(marker_at + 1, sink.events.size());
  EXPECT_GE(sink.events[marker_at].time_s, sink.events[marker_at - 1].time_s);
  EXPECT_LE(sink.events[marker_at].time_s, sink.events[marker_at + 1].time_s);
  // A row is taken at the marker, so phase energies end exactly there.
  EXPECT_LT(sink.events[marker_at].time_s - sink.events[marker_at - 1].time_s, 0.005);
}

TEST(PowerSampler, StopsAndTellsWhyWhenASourceFails) {
  CountingSource source(3);
  RecordingSink sink;
  rapt::PowerSampler sampler({&source}, 5, {&sink});
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(sampler.failure(), "test: meter gone");
  sampler.stop();
  EXPECT_EQ(sink.events.size(), 3u);
}

TEST(PowerSampler, RefusesToStartOnAFailingSource) {
  CountingSource source(-1);  // fails on the first read
  RecordingSink sink;
  rapt::PowerSampler sampler({&source}, 5, {&sink});
  EXPECT_THROW(sampler.start(), rapt::DataError);
}

}  // namespace
