#include "bench_workloads.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

#include "../../gpu/cuda/random_words.hpp"
#include "dedisp/dm_planner.hpp"
#include "io/sigproc.hpp"

namespace rapt::bench {
namespace {

constexpr int kChannels = 1024;
constexpr double kTopEdgeMhz = 1720.0, kBandwidthMhz = 300.0;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

float block_sample(const std::vector<uint8_t>& block, int nchans, int nbits, size_t t, int c) {
  if (nbits == 32) {
    float v;
    std::memcpy(&v, block.data() + (t * size_t(nchans) + size_t(c)) * 4, 4);
    return v;
  }
  const size_t bit = size_t(c) * size_t(nbits);
  const uint32_t byte = block[t * (size_t(nchans) * size_t(nbits) / 8) + bit / 8];
  return float((byte >> (bit % 8)) & ((1u << nbits) - 1u));
}

}  // namespace

DedispPlan apertif_plan(int ndm) {
  DedispPlan plan;
  plan.nchans = kChannels;
  plan.foff_mhz = -kBandwidthMhz / kChannels;
  plan.fch1_mhz = kTopEdgeMhz + 0.5 * plan.foff_mhz;  // centre of the top channel
  plan.tsamp_s = 1.0 / kSampleRateHz;
  for (int i = 0; i < ndm; ++i) plan.dms.push_back(0.25 * i);
  return plan;
}

std::vector<DedispPlan> realistic_plans(double hi_dm, std::string* description) {
  const DedispPlan layout = apertif_plan(1);
  DmPlannerInput input;
  input.nchans = layout.nchans;
  input.fch1_mhz = layout.fch1_mhz;
  input.foff_mhz = layout.foff_mhz;
  input.tsamp_s = layout.tsamp_s;
  input.lo_dm = 0.0;
  input.hi_dm = hi_dm;
  const std::vector<DmRange> ranges = plan_dm_ranges(input);
  if (description) *description = format_dm_plan(input, ranges);
  std::vector<DedispPlan> plans;
  for (const DmRange& range : ranges) {
    DedispPlan plan = layout;
    plan.dms = range.dms();
    plan.downsamp = range.downsamp;
    plans.push_back(plan);
  }
  return plans;
}

std::vector<uint8_t> random_block(int nchans, int nbits, size_t nspectra, uint32_t seed) {
  const size_t bytes = nspectra * size_t(nchans) * size_t(nbits) / 8;
  std::vector<uint8_t> block(bytes);
  if (nbits == 32) {
    for (size_t i = 0; i < bytes / 4; ++i) {
      const float v = gpu::random_float(i, seed);
      std::memcpy(block.data() + 4 * i, &v, 4);
    }
  } else {
    for (size_t i = 0; i < bytes; ++i) block[i] = gpu::random_byte(i, seed);
  }
  return block;
}

std::string SpotCheck::cell() const {
  if (checked == 0) return "-";
  if (mismatches == 0) return "ok (" + std::to_string(checked) + ")";
  return "FAIL " + std::to_string(mismatches) + "/" + std::to_string(checked);
}

SpotCheck spot_check(const DedispPlan& plan, const std::vector<uint8_t>& block, int nbits,
                     const float* out, size_t out_stride, size_t nout) {
  SpotCheck check;
  const std::vector<int32_t> delays = plan.delay_table();
  const int ndm = int(plan.dms.size());
  for (int d : {0, ndm / 2, ndm - 1})
    for (size_t k = 0; k < nout; k = (k == 15 && nout > 32) ? nout - 16 : k + 1) {
      float want = 0.0f;
      for (int i = 0; i < plan.downsamp; ++i) {
        const size_t t = k * size_t(plan.downsamp) + size_t(i);
        float sum = 0.0f;
        for (int c = 0; c < plan.nchans; ++c)
          if (plan.zapped.empty() || !plan.zapped[size_t(c)])
            sum += block_sample(block, plan.nchans, nbits,
                                t + size_t(delays[size_t(d) * plan.nchans + c]), c);
        want += sum;
      }
      const float got = out[size_t(d) * out_stride + k];
      const double tol = nbits == 32 ? 1e-6 * std::max(1.0, std::fabs(double(want))) : 0.0;
      ++check.checked;
      if (!(std::fabs(double(got) - double(want)) <= tol)) ++check.mismatches;
    }
  return check;
}

EngineTiming time_engine(DedispEngine& engine, const std::vector<uint8_t>& block, int nbits,
                         size_t nspectra, int repeats) {
  const size_t nout = (nspectra - size_t(engine.max_delay())) / size_t(engine.plan().downsamp);
  std::vector<float> out(engine.plan().dms.size() * nout);
  SpectraBlock in;
  in.data = block.data();
  in.nbits = nbits;
  in.nspectra = nspectra;
  std::vector<double> times;
  for (int rep = 0; rep <= repeats; ++rep) {  // the first is a warm-up
    const auto start = std::chrono::steady_clock::now();
    engine.execute(in, out.data(), nout);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (rep > 0) times.push_back(elapsed.count());
  }
  EngineTiming timing;
  timing.seconds = median(times);
  timing.check = spot_check(engine.plan(), block, nbits, out.data(), nout, nout);
  return timing;
}

double host_copy_bandwidth() {
  const size_t bytes = size_t(256) << 20;
  std::vector<uint8_t> a(bytes, 1), b(bytes, 0);
  std::vector<double> times;
  for (int rep = 0; rep < 4; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (rep > 0) times.push_back(elapsed.count());
    a[size_t(rep)] = b[bytes - 1 - size_t(rep)];  // the copies depend on each other
  }
  return 2.0 * double(bytes) / median(times);
}

TemporaryFilterbank::TemporaryFilterbank(double seconds) {
  char dir[] = "/tmp/rapt_bench_snr_XXXXXX";
  if (!::mkdtemp(dir)) throw std::runtime_error("cannot make a temporary folder");
  dir_ = dir;
  path_ = dir_ + "/d1.fil";
  const DedispPlan layout = apertif_plan(1);
  SigprocHeader header;
  header.source_name = "bench";
  header.tsamp = layout.tsamp_s;
  header.fch1 = layout.fch1_mhz;
  header.foff = layout.foff_mhz;
  header.nchans = layout.nchans;
  header.nbits = 8;
  header.tstart = 60000.0;
  SigprocWriter writer(path_, header, true);
  const size_t nspectra = size_t(seconds * kSampleRateHz);
  const std::vector<uint8_t> block = random_block(layout.nchans, 8, nspectra, 21);
  writer.write_raw(block.data(), block.size());
  writer.commit();
}

TemporaryFilterbank::~TemporaryFilterbank() {
  std::remove(path_.c_str());
  ::rmdir(dir_.c_str());
}

}  // namespace rapt::bench
